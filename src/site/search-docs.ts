/**
 * The search bundles of a placed site, their documents read again when a bundle is indexed:
 * a bundle holds which posts and pages it indexes (a number each), not their documents, so that
 * a build does not hold a document per post while it renders (issue 17). The bundles, their
 * order and their digests are `planSearch`'s.
 */
import type { Placed } from './placed-entries.js';
import type { PlacedPosts } from './placed-posts.js';
import {
  bundleOrder,
  type DocumentBundles,
  describedDoc,
  documentBundles,
  docsPerShardOf,
  maxDocsPerShardOf,
  shardCount,
  shardDigest,
  shardDir,
  type SearchDoc,
  type SearchPlan,
  type SearchShard,
} from './search-plan.js';
import type { Entry, PageEntry } from './site-model.js';

/** Documents read at a time while a bundle's digest is made. */
const READ_CHUNK = 1000;

/**
 * A search document of a placed entry. The HTML is read only if the document's bundle is
 * indexed again; the getter is the prototype's, not a closure of each document's own.
 */
export class PlacedSearchDoc implements SearchDoc {
  readonly key: string;
  readonly url: string;
  readonly title: string;
  readonly digest: string;
  readonly #placed: Placed<Entry>;

  constructor(kind: string, placed: Placed<Entry>) {
    this.key = `${kind}:${placed.entry.id}`;
    this.url = placed.sitePath;
    this.title = placed.entry.title;
    this.digest = placed.digest;
    this.#placed = placed;
  }

  get html(): string {
    return this.#placed.entry.html;
  }
}

/**
 * A bundle whose documents are read again each time they are asked for (`docs`), and kept
 * only while something uses them: a post by its index (>= 0), a page as -1 - its index.
 */
class ReadShard implements SearchShard {
  readonly index: number;
  readonly dir: string;
  readonly #membersOf: () => Int32Array;
  #members: Int32Array | undefined;
  readonly #posts: PlacedPosts;
  readonly #pages: readonly Placed<PageEntry>[];
  readonly #lang: string;
  readonly #count: number;
  #digest: string | undefined;
  #held: WeakRef<SearchDoc[]> | undefined;

  constructor(
    index: number,
    membersOf: () => Int32Array,
    read: { posts: PlacedPosts; pages: readonly Placed<PageEntry>[]; lang: string; count: number },
  ) {
    this.index = index;
    this.dir = shardDir(index);
    this.#membersOf = membersOf;
    this.#posts = read.posts;
    this.#pages = read.pages;
    this.#lang = read.lang;
    this.#count = read.count;
  }

  /**
   * Made when first asked for, its documents read a chunk at a time: an edit build asks only
   * for the bundles its edits touch (reading every bundle's documents was ~45 % of placing
   * the site for one edit at 10,000 posts).
   */
  get digest(): string {
    if (this.#digest !== undefined) return this.#digest;
    // Documents still held (`plainShard` asks for them first) are not read again: reading a
    // bundle's ~620 posts twice, for its documents and for its digest, was ~a third of an
    // edit build's main thread at 10,000 posts.
    const held = this.#held?.deref();
    const described: [string, string, string, string][] = [];
    if (held !== undefined) for (const doc of held) described.push(describedDoc(doc));
    else {
      const sorted = this.#sortedMembers();
      for (let start = 0; start < sorted.length; start += READ_CHUNK) {
        const chunk = sorted.subarray(start, start + READ_CHUNK);
        for (const doc of documentsOf(chunk, this.#posts, this.#pages))
          described.push(describedDoc(doc));
      }
    }
    this.#digest = shardDigest(this.#lang, this.#count, described);
    return this.#digest;
  }

  get docs(): SearchDoc[] {
    const held = this.#held?.deref();
    if (held !== undefined) return held;
    const docs = documentsOf(this.#sortedMembers(), this.#posts, this.#pages);
    this.#held = new WeakRef(docs);
    return docs;
  }

  /** Sorted when first asked for: an edit build asks for the few bundles its edits touch. */
  #sortedMembers(): Int32Array {
    this.#members ??= this.#membersOf();
    return this.#members;
  }
}

function documentsOf(
  members: ArrayLike<number>,
  posts: PlacedPosts,
  pages: readonly Placed<PageEntry>[],
): SearchDoc[] {
  const postIndexes: number[] = [];
  for (let at = 0; at < members.length; at++)
    if ((members[at] as number) >= 0) postIndexes.push(members[at] as number);
  const read = posts.pick(postIndexes);
  const docs: SearchDoc[] = [];
  let next = 0;
  for (let at = 0; at < members.length; at++) {
    const member = members[at] as number;
    docs.push(
      member >= 0
        ? new PlacedSearchDoc('post', read[next++] as Placed<Entry>)
        : new PlacedSearchDoc('page', pages[-1 - member] as Placed<Entry>),
    );
  }
  return docs;
}

/**
 * The search plan of the placed posts and pages: the same bundles, documents and digests as
 * `planSearch` gives for their documents (posts first, then pages), each bundle's documents
 * read a chunk at a time to make its digest when it is first asked for.
 */
export function placedSearch(
  posts: PlacedPosts,
  pages: readonly Placed<PageEntry>[],
  options: {
    lang: string;
    docsPerShard?: number | undefined;
    maxDocsPerShard?: number | undefined;
    search: boolean;
  },
): SearchPlan {
  if (!options.search) return { lang: options.lang, shards: [] };
  const documents = posts.length + pages.length;
  const count = shardCount(
    documents,
    docsPerShardOf(options.docsPerShard),
    maxDocsPerShardOf(options.maxDocsPerShard),
  );
  // The documents are the posts, then the pages; a member is a post's index or -1 - a page's.
  const memberOf = (index: number): number =>
    index < posts.length ? index : posts.length - 1 - index;
  const keyOf = (index: number): string =>
    index < posts.length
      ? `post:${posts.id(index)}`
      : `page:${pages[index - posts.length]?.entry.id}`;
  const read = { posts, pages, lang: options.lang, count };
  // Each document's bundle found when a bundle's members are first asked for, then only that
  // bundle sorted: an edit's placement sorted every bundle's keys for the one it indexes.
  let bundles: DocumentBundles | undefined;
  const membersOf = (index: number) => (): Int32Array => {
    bundles ??= documentBundles(documents, count, keyOf);
    return Int32Array.from(bundleOrder(bundles, index, keyOf), memberOf);
  };
  const shards = Array.from(
    { length: count },
    (_, index): SearchShard => new ReadShard(index, membersOf(index), read),
  );
  return { lang: options.lang, shards };
}

/**
 * A bundle as a message to a search worker: plain values (a plan's documents read their HTML
 * lazily, through a getter). Its documents are taken before its digest, so that a bundle whose
 * digest is not made yet (an edit's) reads its documents once for both.
 */
export function plainShard(shard: SearchShard): SearchShard {
  // A `WeakRef` made in this job keeps its target until the job ends (ECMAScript's
  // KeepDuringJob), so the digest below finds the documents read here.
  const docs = shard.docs.map((doc) => ({
    key: doc.key,
    url: doc.url,
    title: doc.title,
    html: doc.html,
    digest: doc.digest,
  }));
  return { index: shard.index, dir: shard.dir, digest: shard.digest, docs };
}
