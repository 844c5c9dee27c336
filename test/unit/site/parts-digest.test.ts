/**
 * A digest made part by part, an array part item by item (`PartsDigest`), is the digest of
 * the parts' JSON texts joined, each followed by a NUL, as `digestOf` makes it: a layout
 * digest recorded before it was streamed still matches. A file's content digests alike as
 * text or as its UTF-8 bytes (`contentDigestOf`: an edit's patched sitemap is bytes). The
 * oracle hashes the joined text with node:crypto itself.
 */
import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { contentDigestOf, PartsDigest } from '../../../src/site/digest.js';

/** sha256 of each part's text (a string as is, else its JSON) + NUL, first 16 bytes as hex. */
function joinedDigest(parts: unknown[]): string {
  const text = parts
    .map((part) => `${typeof part === 'string' ? part : JSON.stringify(part)}\u0000`)
    .join('');
  return createHash('sha256').update(text, 'utf8').digest('hex').slice(0, 32);
}

/** Items as a generator, so that nothing holds them as an array. */
function* walked<T>(items: readonly T[]): Generator<T> {
  yield* items;
}

describe('a digest made part by part', () => {
  const rows = Array.from({ length: 2345 }, (_, index): [number, string, boolean] => [
    index + 1,
    `2024/${index % 12}/wpis-ż-${index}/index.html`,
    index % 7 === 0,
  ]);
  const parts = [[[1, 'a.html', 0]], { site: 'x' }, 'text', ['warning ✓']];

  for (const [what, items] of [
    ['no item', []],
    ['one item', rows.slice(0, 1)],
    ['a thousand items', rows.slice(0, 1000)],
    ['items past a thousand, twice over', rows],
  ] as const) {
    it(`is the joined texts' digest, an array of ${what} given item by item`, () => {
      const digest = new PartsDigest().addArray(walked(items));
      for (const part of parts) digest.add(part);
      expect(digest.hex()).toBe(joinedDigest([items, ...parts]));
    });
  }

  it('tells the parts apart where they are joined', () => {
    const ab = new PartsDigest().add('ab').add('c').hex();
    const a = new PartsDigest().add('a').add('bc').hex();
    expect(ab).toBe(joinedDigest(['ab', 'c']));
    expect(ab).not.toBe(a);
  });

  it("of a file's content is the same for its text and its UTF-8 bytes", () => {
    const text = '<?xml version="1.0"?>\n<loc>https://example.test/pl/zażółć-gęślą/</loc>\n';
    const bytes = Buffer.from(text, 'utf8');
    expect(contentDigestOf(text)).toBe(joinedDigest([text]));
    expect(contentDigestOf(bytes)).toBe(joinedDigest([text]));
    expect(contentDigestOf(new Uint8Array(bytes))).toBe(joinedDigest([text]));
    expect(contentDigestOf(`${text} `)).not.toBe(contentDigestOf(bytes));
  });
});
