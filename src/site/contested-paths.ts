/**
 * Which of many files (a site's posts, one each) could collide with another of them: the same
 * file twice, or a file where another needs a directory (`a/index.html` and
 * `a/index.html/b/index.html`). Found with one sort of the files instead of a claim of each
 * (`path-claims.ts`), so that placing a site holds an index per file rather than every file,
 * its directories and its owner in sets (issue 17). Pure.
 */
import { compare } from './placed-entries.js';

/**
 * A flag per file: 1 when another file of `files` is the same, lies below it, or is one of its
 * directories. Files flagged 0 collide with none of the others, whichever is claimed first.
 */
export function contestedFiles(files: readonly string[]): Uint8Array {
  const contested = new Uint8Array(files.length);
  const order = Uint32Array.from(files.keys()).sort((a, b) =>
    compare(files[a] as string, files[b] as string),
  );
  const fileAt = (at: number): string => files[order[at] as number] as string;
  // The same file: neighbours once sorted.
  for (let at = 1; at < order.length; at++) {
    if (fileAt(at) !== fileAt(at - 1)) continue;
    contested[order[at] as number] = 1;
    contested[order[at - 1] as number] = 1;
  }
  // A directory that is also a file: only a directory named like the last part of some file
  // can be one (`index.html`), so only those are looked up.
  const names = new Set<string>();
  for (const file of files) names.add(file.slice(file.lastIndexOf('/') + 1));
  for (let index = 0; index < files.length; index++) {
    const file = files[index] as string;
    let start = 0;
    for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) {
      const named = names.has(file.slice(start, slash));
      start = slash + 1;
      if (!named) continue;
      const directory = file.slice(0, slash);
      for (let at = lowerBound(order.length, fileAt, directory); at < order.length; at++) {
        if (fileAt(at) !== directory) break;
        contested[order[at] as number] = 1;
        contested[index] = 1;
      }
    }
  }
  return contested;
}

/** The first place in a sorted run of `length` whose value is not below `value`. */
function lowerBound(length: number, valueAt: (at: number) => string, value: string): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (compare(valueAt(middle), value) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
