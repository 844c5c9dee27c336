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

/**
 * Bundles stop doubling here while each holds at most `MAX_DOCS_PER_SHARD` documents: the
 * search page loads every one of them.
 */
export const MAX_SEARCH_SHARDS = 32;

/**
 * Past `MAX_SEARCH_SHARDS`, the bundles keep doubling until none holds more documents than this.
 * Pagefind holds a bundle whole while it indexes it: at 1,000,000 posts, 32 bundles of ~31,000
 * documents each had its process at ~400 MB, two at a time (test/bench/RESULTS.md, the scaling
 * curve of 2026-11-29), so the build's memory grew with the site. A site that large loads more
 * bundles on its search page instead; up to 256,000 documents nothing changes.
 */
export const MAX_DOCS_PER_SHARD = 8000;

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
  /**
   * Past `MAX_SEARCH_SHARDS` bundles, the most documents one may hold. Smaller only in tests,
   * to have a few hundred documents spread over more than 32 bundles.
   * @default MAX_DOCS_PER_SHARD (8,000)
   */
  maxDocsPerShard?: number;
}

/**
 * The smallest power of two of bundles holding `docs` at `perShard` each, at most
 * `MAX_SEARCH_SHARDS` unless they would then hold more than `maxPerShard` each; 0 for no
 * documents.
 */
export function shardCount(
  docs: number,
  perShard: number,
  maxPerShard: number = MAX_DOCS_PER_SHARD,
): number {
  if (docs <= 0) return 0;
  let count = 1;
  while (count * perShard < docs && (count < MAX_SEARCH_SHARDS || count * maxPerShard < docs)) {
    count *= 2;
  }
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

/** Documents per bundle: the option when positive, else about a thousand. */
export function docsPerShardOf(value: number | undefined): number {
  return value !== undefined && value > 0 ? value : 1000;
}

/** The most documents a bundle past the 32nd holds: the option when positive, else 8,000. */
export function maxDocsPerShardOf(value: number | undefined): number {
  return value !== undefined && value > 0 ? value : MAX_DOCS_PER_SHARD;
}

/** `pagefind/s0`: a bundle's directory under the language root. */
export function shardDir(index: number): string {
  return `${SEARCH_DIR}/s${index}`;
}

/**
 * Which of `length` documents each of `count` bundles holds (indexes, by `keyOf`), each bundle
 * sorted by key; documents of equal keys keep their order. Asks for a bundle's keys only while
 * it sorts that bundle, so that the caller need not hold every document.
 */
export function bundleMembers(
  length: number,
  count: number,
  keyOf: (index: number) => string,
): number[][] {
  const bundles = documentBundles(length, count, keyOf);
  return Array.from({ length: count }, (_, index) => bundleOrder(bundles, index, keyOf));
}

/** The documents of each bundle, in document order: found in one pass over the documents. */
export interface DocumentBundles {
  /** The documents of bundle `index`, in the order of their indexes. */
  of(index: number): Int32Array;
}

/**
 * Each of `length` documents' bundle (`shardOf` its key), grouped by bundle once (a counting
 * sort), so that asking for every bundle's members stays one pass however many bundles there
 * are (past `MAX_SEARCH_SHARDS`, 128 at 1,000,000 posts).
 */
export function documentBundles(
  length: number,
  count: number,
  keyOf: (index: number) => string,
): DocumentBundles {
  const bundleOf = new Int32Array(length);
  const starts = new Int32Array(count + 1);
  for (let index = 0; index < length; index++) {
    const bundle = shardOf(keyOf(index), count);
    bundleOf[index] = bundle;
    starts[bundle + 1]! += 1;
  }
  for (let bundle = 0; bundle < count; bundle++) starts[bundle + 1]! += starts[bundle]!;
  const members = new Int32Array(length);
  const next = starts.slice(0, count);
  for (let index = 0; index < length; index++) members[next[bundleOf[index]!]!++] = index;
  return { of: (index) => members.subarray(starts[index], starts[index + 1]) };
}

/**
 * The documents of bundle `index` (`documentBundles`), sorted by key; documents of equal keys
 * keep their order. Asks for the keys of that bundle's documents only.
 */
export function bundleOrder(
  bundles: DocumentBundles,
  index: number,
  keyOf: (index: number) => string,
): number[] {
  const bucket = Array.from(bundles.of(index));
  const keys = bucket.map(keyOf);
  const order = bucket.map((_, at) => at);
  order.sort((a, b) => compareKeys(keys[a] as string, keys[b] as string) || a - b);
  return order.map((at) => bucket[at] as number);
}

/** What a bundle's digest covers of a document: where it is and what it shows. */
export function describedDoc(doc: SearchDoc): [string, string, string, string] {
  return [doc.key, doc.url, doc.title, doc.digest];
}

/** A bundle's digest from its documents, in its order (`describedDoc`). */
export function shardDigest(
  lang: string,
  count: number,
  described: readonly [string, string, string, string][],
): string {
  return digestOf(SEARCH_INDEX_VERSION, lang, count, described);
}

export function planSearch(docs: readonly SearchDoc[], options: SearchPlanOptions): SearchPlan {
  const count = shardCount(
    docs.length,
    docsPerShardOf(options.docsPerShard),
    maxDocsPerShardOf(options.maxDocsPerShard),
  );
  const members = bundleMembers(docs.length, count, (index) => (docs[index] as SearchDoc).key);
  const shards = members.map((bucket, index): SearchShard => {
    const sorted = bucket.map((at) => docs[at] as SearchDoc);
    return {
      index,
      dir: shardDir(index),
      digest: shardDigest(options.lang, count, sorted.map(describedDoc)),
      docs: sorted,
    };
  });
  return { lang: options.lang, shards };
}

function compareKeys(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
