/**
 * A plan's `modelDigest` as a fingerprint that can be updated in place: the XOR of one digest
 * per output (a page's digest, which names its path; a file's or a search bundle's digest with
 * its path). A build that replans a few outputs (`edit-build.ts`) takes the old digests of
 * those out and puts the new ones in, and gets what a full plan of the same site gives: equal
 * stamps still mean equal output, whichever way the folder was built. Pure.
 */
import { digestOf } from './digest.js';

/** The digest of a file the build writes itself, or of a search bundle, with its path. */
export function pathDigest(file: string, input: string): string {
  return digestOf(file, input);
}

/** XOR of 32-hex-digit digests (each appears once; an empty set gives zeros). */
export function xorDigests(digests: Iterable<string>): string {
  const words = new Uint32Array(4);
  for (const digest of digests) {
    for (let word = 0; word < 4; word++) {
      words[word] =
        (words[word] as number) ^ Number.parseInt(digest.slice(word * 8, word * 8 + 8), 16);
    }
  }
  return [...words].map((word) => word.toString(16).padStart(8, '0')).join('');
}
