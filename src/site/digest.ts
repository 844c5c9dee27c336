/**
 * Input digests: what a build output was made from. Equal digest and file still on disk
 * means the output cannot have changed, so it is not rendered again.
 */
import { createHash, hash } from 'node:crypto';

/** sha256 (hex) of a string or bytes. */
export function sha256(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * A short digest (128 bits, hex) of JSON-serialisable parts. Key order matters, which is fine:
 * every caller builds its objects in one fixed order.
 */
export function digestOf(...parts: unknown[]): string {
  // One-shot hashing of the joined text: the same bytes as updating part by part, without
  // a hash object per digest (a plan makes tens of thousands of them).
  let text = '';
  for (const part of parts) {
    text += partText(part);
    // A separator no JSON text ends with, so ['ab', 'c'] and ['a', 'bc'] differ.
    text += '\u0000';
  }
  // The first 16 bytes as hex: a string of its own. The hex of all 32 sliced would keep the
  // 64-character text alive beside every digest a plan holds (~50 bytes each, ~3 per post).
  return hash('sha256', text, 'buffer').toString('hex', 0, 16);
}

/**
 * `digestOf(text)` of the text these UTF-8 bytes hold, without decoding them: a file patched as
 * bytes (an edit's `sitemap.xml`, ~1.3 MB at 10,000 posts) digests as it would as text.
 */
export function bytesDigestOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).update('\u0000').digest().toString('hex', 0, 16);
}

/** `digestOf` of a file's content, text or UTF-8 bytes. */
export function contentDigestOf(content: string | Uint8Array): string {
  return typeof content === 'string' ? digestOf(content) : bytesDigestOf(content);
}

/** A part's text in a digest: a string as it is, anything else as JSON. */
function partText(part: unknown): string {
  return typeof part === 'string' ? part : (JSON.stringify(part) ?? 'undefined');
}

/** Items of a streamed JSON array joined into one string before they are hashed. */
const ITEMS_PER_UPDATE = 1000;

/**
 * `digestOf` made one part at a time, a part that is an array given item by item: the same
 * digest, without the text of every part at once (a site's layout is one item per post: at
 * 1,000,000 posts its text alone was ~60 MB, made at the end of a build, issue 17).
 */
export class PartsDigest {
  readonly #hash = createHash('sha256');

  /** A part, as `digestOf` takes it. */
  add(part: unknown): this {
    this.#hash.update(partText(part));
    this.#hash.update('\u0000');
    return this;
  }

  /** A part that is an array of these items: `add([...items])`, the items stringified a few at a time. */
  addArray(items: Iterable<unknown>): this {
    let text = '[';
    let count = 0;
    for (const item of items) {
      if (count > 0) text += ',';
      // As `JSON.stringify` writes an array's item that has no JSON: `null`.
      text += JSON.stringify(item) ?? 'null';
      if (++count % ITEMS_PER_UPDATE === 0) {
        this.#hash.update(text);
        text = '';
      }
    }
    this.#hash.update(`${text}]`);
    this.#hash.update('\u0000');
    return this;
  }

  /** The digest, as `digestOf` gives it. */
  hex(): string {
    return this.#hash.digest().toString('hex', 0, 16);
  }
}
