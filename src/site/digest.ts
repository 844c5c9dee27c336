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
    text += typeof part === 'string' ? part : (JSON.stringify(part) ?? 'undefined');
    // A separator no JSON text ends with, so ['ab', 'c'] and ['a', 'bc'] differ.
    text += '\u0000';
  }
  // The first 16 bytes as hex: a string of its own. The hex of all 32 sliced would keep the
  // 64-character text alive beside every digest a plan holds (~50 bytes each, ~3 per post).
  return hash('sha256', text, 'buffer').toString('hex', 0, 16);
}
