/**
 * Placing a site's posts without claiming each post's path (issue 17): a post is checked
 * against the site's other outputs, and only posts whose paths collide with each other's are
 * claimed, on a layer of their own. Whatever collides is still left out with the warning a claim
 * of every path in turn (oldest post first) gives: a post on a page's path, on another post's,
 * on a directory another post needs, or below another post's file.
 */
import { describe, expect, it } from 'vitest';
import { contestedFiles } from '../../../src/site/contested-paths.js';
import { planSite } from '../../../src/site/site-plan.js';
import { TextColumn } from '../../../src/site/text-column.js';
import { fixtureModel, makePost } from '../../helpers/fixture-model.js';

/** The oracle: a file is contested when another is the same, or one is a directory of the other. */
function contestedByPairs(files: readonly string[]): number[] {
  return files.map((file, index) =>
    files.some(
      (other, at) =>
        at !== index &&
        (other === file || other.startsWith(`${file}/`) || file.startsWith(`${other}/`)),
    )
      ? 1
      : 0,
  );
}

/** A small deterministic generator (no Math.random: a failure must repeat). */
function* numbers(seed: number): Generator<number> {
  let state = seed;
  for (;;) {
    state = (Math.imul(state, 1103515245) + 12345) >>> 0;
    yield state >>> 8;
  }
}

describe('contestedFiles', () => {
  it('flags the same file twice and a file that is another one’s directory, nothing else', () => {
    const files = [
      'a/index.html',
      'b/index.html',
      'a/index.html',
      'c/index.html/d/index.html',
      'c/index.html',
      'c/index.htm',
      'e/index.html/f/index.html',
      'index.html',
      'index.html/g/index.html',
      'h-x/index.html',
      'h/index.html',
    ];
    expect(Array.from(contestedFiles(TextColumn.from(files)))).toEqual([
      1, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0,
    ]);
  });

  it('agrees with a comparison of every pair on generated paths', () => {
    // Non-ASCII parts too: the files are compared as UTF-8 bytes, not as strings.
    const parts = ['a', 'b', 'index.html', 'a.b', 'a-b', 'x/index.html', 'ż', 'żb', '😀', '\uff61'];
    const next = numbers(17)[Symbol.iterator]();
    for (let round = 0; round < 40; round++) {
      const files: string[] = [];
      for (let file = 0; file < 30; file++) {
        const depth = 1 + ((next.next().value as number) % 3);
        const segments = Array.from(
          { length: depth },
          () => parts[(next.next().value as number) % parts.length] as string,
        );
        files.push(`${segments.join('/')}/index.html`);
      }
      expect(Array.from(contestedFiles(TextColumn.from(files))), files.join(' ')).toEqual(
        contestedByPairs(files),
      );
    }
  });
});

describe('placing posts whose paths collide', () => {
  it('leaves out, oldest post first, what collides with a page or with another post', () => {
    const model = fixtureModel({ posts: 3 });
    const about = model.pages.find((page) => page.sitePath === '/about/');
    expect(about).toBeDefined();
    model.posts.push(
      makePost(101, { sitePath: '/dup/' }),
      makePost(102, { sitePath: '/dup/' }),
      makePost(103, { sitePath: '/dup/index.html/inner/' }),
      makePost(105, { sitePath: '/deep/index.html/x/' }),
      makePost(106, { sitePath: '/deep/' }),
      makePost(107, { sitePath: '/about/' }),
      makePost(108, { sitePath: '/about/' }),
      makePost(109, { sitePath: '/about/index.html/z/' }),
      makePost(110, { sitePath: '/alone/' }),
    );
    const plan = planSite(model);
    const page = `page ${about?.id}`;
    expect(plan.warnings.filter((warning) => warning.includes(' left out: its path'))).toEqual([
      'post 202 left out: its path /dup/ is the same file as post 201.',
      'post 203 left out: its path /dup/index.html/inner/ is a directory where post 201 is a file.',
      'post 206 left out: its path /deep/ is a directory other files need.',
      `post 207 left out: its path /about/ is the same file as ${page}.`,
      `post 208 left out: its path /about/ is the same file as ${page}.`,
      `post 209 left out: its path /about/index.html/z/ is a directory where ${page} is a file.`,
    ]);
    const files = plan.jobs.map((job) => job.file);
    for (const kept of ['dup/index.html', 'deep/index.html/x/index.html', 'alone/index.html'])
      expect(files, kept).toContain(kept);
    expect(new Set(files).size).toBe(files.length);
  });
});
