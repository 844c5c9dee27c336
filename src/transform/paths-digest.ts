/**
 * The digest of a language's public items and their site paths. The build records it: a
 * language whose items all keep their paths has lost no item page, and a translation's paths
 * changing changes the other languages' switchers.
 */
import { hash } from 'node:crypto';

/**
 * 128 bits (hex) of sha256 over the `[itemKey, sitePath]` pairs sorted by key, as JSON, then
 * a NUL: the bytes `digestOf(pairs)` of the site hashes, so digests recorded before this
 * function moved here still compare equal.
 */
export function sitePathsDigest(sitePaths: ReadonlyMap<string, string>): string {
  const pairs = [...sitePaths].sort(([a], [b]) => (a < b ? -1 : 1));
  return hash('sha256', `${JSON.stringify(pairs)}\u0000`, 'buffer').toString('hex', 0, 16);
}
