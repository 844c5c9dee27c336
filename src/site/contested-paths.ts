/**
 * Which of many files (a site's posts, one each) could collide with another of them: the same
 * file twice, or a file where another needs a directory (`a/index.html` and
 * `a/index.html/b/index.html`). Found with one sort of the files instead of a claim of each
 * (`path-claims.ts`), so that placing a site holds an index per file rather than every file,
 * its directories and its owner in sets (issue 17). Pure.
 */
import type { TextColumn } from './text-column.js';

/**
 * A flag per file: 1 when another file of `files` is the same, lies below it, or is one of its
 * directories. Files flagged 0 collide with none of the others, whichever is claimed first.
 * The files are compared as bytes in their column: no file is made a string to be sorted.
 */
export function contestedFiles(files: TextColumn): Uint8Array {
  const contested = new Uint8Array(files.length);
  const order = Uint32Array.from({ length: files.length }, (_, index) => index).sort((a, b) =>
    files.compare(a, b),
  );
  // The same file: neighbours once sorted.
  for (let at = 1; at < order.length; at++) {
    if (files.compare(order[at] as number, order[at - 1] as number) !== 0) continue;
    contested[order[at] as number] = 1;
    contested[order[at - 1] as number] = 1;
  }
  // A directory that is also a file: only a directory named like the last part of some file
  // can be one (`index.html`), so only those are looked up.
  const names = new Set<string>();
  for (const file of files) names.add(file.slice(file.lastIndexOf('/') + 1));
  for (let index = 0; index < files.length; index++) {
    const file = files.get(index);
    let start = 0;
    for (let slash = file.indexOf('/'); slash !== -1; slash = file.indexOf('/', slash + 1)) {
      const named = names.has(file.slice(start, slash));
      start = slash + 1;
      if (!named) continue;
      const directory = Buffer.from(file.slice(0, slash), 'utf8');
      const sameAt = (at: number): number => files.compareTo(order[at] as number, directory);
      for (let at = lowerBound(order.length, sameAt); at < order.length; at++) {
        if (sameAt(at) !== 0) break;
        contested[order[at] as number] = 1;
        contested[index] = 1;
      }
    }
  }
  return contested;
}

/** The first place in a sorted run of `length` whose value is not below the one looked for. */
function lowerBound(length: number, comparedAt: (at: number) => number): number {
  let low = 0;
  let high = length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if (comparedAt(middle) < 0) low = middle + 1;
    else high = middle;
  }
  return low;
}
