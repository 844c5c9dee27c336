/**
 * The digest of a language's public items and their site paths. The build records it: a
 * language whose items all keep their paths has lost no item page, and a translation's paths
 * changing changes the other languages' switchers.
 */
import { createHash } from 'node:crypto';

/**
 * 128 bits (hex) of sha256 over the `[itemKey, sitePath]` pairs sorted by key, as JSON, then
 * a NUL: the bytes `digestOf(pairs)` of the site hashes, so digests recorded before this
 * function moved here still compare equal.
 */
export function sitePathsDigest(sitePaths: ReadonlyMap<string, string>): string {
  return sortedPathsDigest([...sitePaths].sort(([a], [b]) => (a < b ? -1 : 1)));
}

/** Hashed this many characters at a time: the JSON of a million pairs is ~40 MB. */
const PIECE_CHARS = 1 << 16;

/**
 * `sitePathsDigest` of pairs already sorted by key, hashed as they come: the same bytes as the
 * JSON of them all (each pair's JSON is whole in one piece, so no character is split), without
 * holding them.
 */
export function sortedPathsDigest(sortedPairs: Iterable<readonly [string, string]>): string {
  const digest = createHash('sha256');
  let piece = '[';
  let first = true;
  for (const pair of sortedPairs) {
    piece += `${first ? '' : ','}${JSON.stringify(pair)}`;
    first = false;
    if (piece.length >= PIECE_CHARS) {
      digest.update(piece);
      piece = '';
    }
  }
  digest.update(`${piece}]\u0000`);
  return digest.digest().toString('hex', 0, 16);
}
