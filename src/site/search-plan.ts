/**
 * How the search index is split. Pagefind indexes about a thousand average posts per second
 * on one core and cannot update an index in place, so one index per language would make a
 * one-post edit cost a full re-index. The documents are spread over a power-of-two number of
 * bundles by a stable hash of their key; an edit re-indexes one bundle, and the search page
 * merges them all (Pagefind's `mergeIndex`). Pure.
 */
import { digestOf } from './digest.js';

/** The search bundles live under this directory of the language root. */
export const SEARCH_DIR = 'pagefind';

/** Bump when the way documents are indexed changes (it also follows Pagefind's version). */
export const SEARCH_INDEX_VERSION = 'pagefind-1.5.2/1';

/** Upper bound on bundles: the search page loads every one of them. */
export const MAX_SEARCH_SHARDS = 32;

export interface SearchDoc {
  /** Stable identity (`post:12`): decides the bundle. */
  key: string;
  /** Canonical site path; result links are this under the language home. */
  url: string;
  title: string;
  /** Transformed HTML; indexed as text. */
  html: string;
  /** Digest of everything the document is made from. */
  digest: string;
}

export interface SearchShard {
  index: number;
  /** `pagefind/s0`: relative to the language root, no trailing slash. */
  dir: string;
  digest: string;
  docs: SearchDoc[];
}

export interface SearchPlan {
  lang: string;
  shards: SearchShard[];
}

export interface SearchPlanOptions {
  lang: string;
  /** Target documents per bundle. @default 1000 */
  docsPerShard?: number;
}

/** The smallest power of two of bundles holding `docs` at `perShard` each; 0 for no documents. */
export function shardCount(docs: number, perShard: number): number {
  if (docs <= 0) return 0;
  let count = 1;
  while (count < MAX_SEARCH_SHARDS && count * perShard < docs) count *= 2;
  return count;
}

/** FNV-1a of the key, so a document stays in its bundle while the bundle count is unchanged. */
export function shardOf(key: string, count: number): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0) % count;
}

export function planSearch(docs: readonly SearchDoc[], options: SearchPlanOptions): SearchPlan {
  const perShard =
    options.docsPerShard !== undefined && options.docsPerShard > 0 ? options.docsPerShard : 1000;
  const count = shardCount(docs.length, perShard);
  const buckets: SearchDoc[][] = Array.from({ length: count }, () => []);
  for (const doc of docs) buckets[shardOf(doc.key, count)]?.push(doc);
  const shards = buckets.map((bucket, index): SearchShard => {
    const sorted = [...bucket].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    return {
      index,
      dir: `${SEARCH_DIR}/s${index}`,
      digest: digestOf(
        SEARCH_INDEX_VERSION,
        options.lang,
        count,
        sorted.map((doc) => [doc.key, doc.url, doc.title, doc.digest]),
      ),
      docs: sorted,
    };
  });
  return { lang: options.lang, shards };
}
