/**
 * The search bundles of a placed site, their documents read again when a bundle is indexed:
 * a bundle holds which posts and pages it indexes (a number each), not their documents, so that
 * a build does not hold a document per post while it renders (issue 17). The bundles, their
 * order and their digests are `planSearch`'s.
 */
import type { Placed } from './placed-entries.js';
import type { PlacedPosts } from './placed-posts.js';
import {
  bundleMembers,
  describedDoc,
  docsPerShardOf,
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
  readonly digest: string;
  readonly #members: Int32Array;
  readonly #posts: PlacedPosts;
  readonly #pages: readonly Placed<PageEntry>[];
  #held: WeakRef<SearchDoc[]> | undefined;

  constructor(
    index: number,
    digest: string,
    members: Int32Array,
    read: { posts: PlacedPosts; pages: readonly Placed<PageEntry>[] },
  ) {
    this.index = index;
    this.dir = shardDir(index);
    this.digest = digest;
    this.#members = members;
    this.#posts = read.posts;
    this.#pages = read.pages;
  }

  get docs(): SearchDoc[] {
    const held = this.#held?.deref();
    if (held !== undefined) return held;
    const docs = documentsOf(this.#members, this.#posts, this.#pages);
    this.#held = new WeakRef(docs);
    return docs;
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
 * read a chunk at a time to make its digest.
 */
export function placedSearch(
  posts: PlacedPosts,
  pages: readonly Placed<PageEntry>[],
  options: { lang: string; docsPerShard?: number | undefined; search: boolean },
): SearchPlan {
  if (!options.search) return { lang: options.lang, shards: [] };
  const documents = posts.length + pages.length;
  const count = shardCount(documents, docsPerShardOf(options.docsPerShard));
  // The documents are the posts, then the pages; a member is a post's index or -1 - a page's.
  const memberOf = (index: number): number =>
    index < posts.length ? index : posts.length - 1 - index;
  const keyOf = (index: number): string =>
    index < posts.length
      ? `post:${posts.id(index)}`
      : `page:${pages[index - posts.length]?.entry.id}`;
  const shards = bundleMembers(documents, count, keyOf).map((bucket, index): SearchShard => {
    const sorted = Int32Array.from(bucket, memberOf);
    const described: [string, string, string, string][] = [];
    for (let start = 0; start < sorted.length; start += READ_CHUNK) {
      for (const doc of documentsOf(sorted.subarray(start, start + READ_CHUNK), posts, pages))
        described.push(describedDoc(doc));
    }
    return new ReadShard(index, shardDigest(options.lang, count, described), sorted, {
      posts,
      pages,
    });
  });
  return { lang: options.lang, shards };
}
