/**
 * The search bundles an edit touches, indexed before the edit is planned: Pagefind takes
 * longer to index a bundle than the edit build takes to place the site, plan and render its
 * pages, and it can start as soon as the model is read. The bundle is guessed from the model
 * alone (every public post and page in it, as placing them would keep them), and used only
 * when the plan's bundle is the same (same index, same digest: the same documents, in the
 * same order, at the same paths, showing the same). A wrong guess (an item left out by its
 * path, or a bundle the edit does not change) costs the index and nothing else: the plan's
 * bundle is indexed as it would have been without it. Pure but for the index it starts.
 */
import type { BuildWorkers, SearchBundles } from './build-workers.js';
import { editedDocKeys, editedShards } from './edit-plan.js';
import { entryDigest, safePagePath } from './placed-entries.js';
import { PlacedSearchDoc, plainShard } from './search-docs.js';
import {
  describedDoc,
  docsPerShardOf,
  shardCount,
  shardDigest,
  shardDir,
  shardOf,
  type SearchShard,
} from './search-plan.js';
import type { PlacedSite } from './site-plan.js';
import { isPublicEntry, type Entry, type SiteModel } from './site-model.js';

/** Bundles being indexed ahead of the plan. */
export interface SearchAhead {
  /** Each guessed bundle's index and digest. */
  readonly shards: readonly Pick<SearchShard, 'index' | 'digest'>[];
  readonly files: Promise<SearchBundles>;
}

/**
 * The bundles the plan would give the edited documents of `changed` (`type:id` keys), as
 * shards with their documents; empty when the model's posts are not held (a streamed model)
 * or no edited item is a post or a page.
 */
export function guessEditedShards(
  model: SiteModel,
  changed: ReadonlySet<string>,
  docsPerShard?: number,
): SearchShard[] {
  const keys = editedDocKeys(changed);
  if (model.postSource !== undefined || keys === undefined || keys.size === 0) return [];
  // The plan's documents: the posts, then the pages (`placedSearch`). Only the wanted bundles'
  // are kept, each key's bundle worked out once (every document's, in a list of every one,
  // filtered once per bundle, was ~0.2 s of a one-edit run at 10,000 posts).
  const publicPosts = model.posts.filter(isPublicEntry);
  const publicPages = model.pages.filter(isPublicEntry);
  const count = shardCount(publicPosts.length + publicPages.length, docsPerShardOf(docsPerShard));
  const wanted = new Map<number, [key: string, kind: string, entry: Entry][]>();
  for (const key of keys) wanted.set(shardOf(key, count), []);
  for (const [kind, entries] of [
    ['post', publicPosts],
    ['page', publicPages],
  ] as const) {
    for (const entry of entries) {
      const key = `${kind}:${entry.id}`;
      wanted.get(shardOf(key, count))?.push([key, kind, entry]);
    }
  }
  const shards: SearchShard[] = [];
  for (const index of [...wanted.keys()].sort((a, b) => a - b)) {
    // Sorted by key, equal keys in document order (`bundleMembers`: a stable sort).
    const members = (wanted.get(index) ?? []).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    const shardDocs: PlacedSearchDoc[] = [];
    for (const [, kind, entry] of members) {
      const path = safePagePath(entry, kind, []);
      // A path the plan leaves out: the guess cannot be the plan's bundle.
      if (path === undefined) return [];
      shardDocs.push(new PlacedSearchDoc(kind, { entry, ...path, digest: entryDigest(entry) }));
    }
    shards.push({
      index,
      dir: shardDir(index),
      digest: shardDigest(model.lang, count, shardDocs.map(describedDoc)),
      docs: shardDocs,
    });
  }
  return shards;
}

/** Starts indexing the guessed bundles; undefined when there are none. */
export function searchAhead(
  model: SiteModel,
  changed: ReadonlySet<string>,
  workers: BuildWorkers,
): SearchAhead | undefined {
  return indexAhead(guessEditedShards(model, changed), model.lang, workers);
}

/**
 * Starts indexing the bundles of a placement that is the plan's own (recorded: `placedFromRecord`)
 * before the rest is planned; undefined when there are none.
 */
export function placedAhead(
  placed: PlacedSite,
  changed: ReadonlySet<string>,
  workers: BuildWorkers,
): SearchAhead | undefined {
  return indexAhead(editedShards(placed, changed), placed.model.lang, workers);
}

function indexAhead(
  shards: SearchShard[],
  lang: string,
  workers: BuildWorkers,
): SearchAhead | undefined {
  if (shards.length === 0) return undefined;
  // The documents read once, for the digests the plan compares now and for Pagefind's records.
  const read = shards.map(plainShard);
  // Sent once this thread first waits: the edit's plan and its render request come first
  // without a wait, so making the records (each document's text, their JSON) does not delay
  // the pages, and Pagefind indexes while they render.
  const files = Promise.resolve().then(() => workers.indexShards(read, lang));
  // Awaited only if the plan uses it; a failure then fails the build as the plan's own would.
  files.catch(() => undefined);
  return { shards: read.map(({ index, digest }) => ({ index, digest })), files };
}

/**
 * The plan's stale bundles indexed: those guessed alike taken from `ahead`, the others
 * indexed now.
 */
export async function indexWithAhead(
  stale: readonly SearchShard[],
  ahead: SearchAhead | undefined,
  index: (shards: readonly SearchShard[]) => Promise<SearchBundles>,
): Promise<SearchBundles> {
  const guessed = (shard: SearchShard): boolean =>
    ahead?.shards.some((made) => made.index === shard.index && made.digest === shard.digest) ===
    true;
  const rest = stale.filter((shard) => !guessed(shard));
  const late = rest.length > 0 ? index(rest) : Promise.resolve<SearchBundles>(new Map());
  // Awaited below; kept from going unhandled while the guessed bundles are awaited first.
  late.catch(() => undefined);
  const files: SearchBundles = new Map();
  if (ahead !== undefined && rest.length < stale.length) {
    const early = await ahead.files;
    const missed: SearchShard[] = [];
    for (const shard of stale) {
      if (!guessed(shard)) continue;
      const made = early.get(shard.index);
      if (made === undefined) missed.push(shard);
      else files.set(shard.index, made);
    }
    // Not made ahead after all (never expected): indexed now rather than left as they were.
    if (missed.length > 0) for (const [at, made] of await index(missed)) files.set(at, made);
  }
  for (const [at, made] of await late) files.set(at, made);
  return files;
}
