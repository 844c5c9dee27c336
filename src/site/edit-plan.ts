/**
 * The plan of a run after a few edits: only the pages those edits touch, made by the same
 * planner as a full plan (`planPlaced` with a scope), so each planned page digests and renders
 * exactly as in a full build. Pure.
 *
 * It holds while the layout is the last build's (`layoutDigestOf`: the same public items in
 * the same order at the same files, the same page tree, media and search bundles): then an
 * edited post shows on its own page, on its neighbours' pages (their older/newer links), on
 * the one listing page that shows its card, in the feed and sitemap (always planned), and in
 * its search bundle; an edited page on the pages of its family (every page is planned: a
 * site has few) and in the menu (which changes every page: the caller compares the 404 page's
 * digest, which holds only what every page shows, with the last build's and plans in full
 * when it differs). Anything else changed (a media item, an unknown type) plans in full.
 */
import { builtAs, type ItemType } from '../collections.js';
import { PartsDigest } from './digest.js';
import type { EditedPosts } from './output-formats.js';
import { shardOf, type SearchShard } from './search-plan.js';
import { planPlaced, type PlacedSite, type SitePlan } from './site-plan.js';

/**
 * Where the build placed every public item, in one digest (recorded with each build). The
 * posts' part is the digest of their placement record (`placement-chunks.ts`: places in the
 * posts' source, ids, sticky flags, files), so that an edit build placed from that record
 * does not walk every post to digest it again.
 */
export function layoutDigestOf(placed: PlacedSite): string {
  return new PartsDigest()
    .add(placed.posts.layoutDigest())
    .add(
      placed.pages.map((page) => [
        page.entry.id,
        page.file,
        page.entry.parentId,
        page.entry.menuOrder,
      ]),
    )
    .add(placed.media.map((media) => [media.file, media.media.sha256]))
    .add(placed.search.shards.map((shard) => shard.dir))
    .add(placed.warnings)
    .hex();
}

export interface EditPlan {
  /** The scoped plan: the touched pages, the 404 and search pages, every generated file. */
  plan: SitePlan;
  /** The search bundles holding an edited item. */
  shards: SearchShard[];
  /** The 404 page's file: its digest tells whether what every page shows changed. */
  probe: string;
}

/**
 * The plan for `changed` (`type:id` keys of the items that may have changed), or undefined
 * when an item of a kind this plan cannot bound changed.
 */
export function planEdited(
  placed: PlacedSite,
  changed: ReadonlySet<string>,
  postsPerPage: number,
  edited?: EditedPosts,
): EditPlan | undefined {
  const ids = editedIds(changed);
  if (ids === undefined) return undefined;
  const { postIds, pageIds } = ids;
  const posts = new Set<number>();
  const listings = new Set<number>();
  // The listing order: sticky posts first, then by date (as `planPlaced` lists them).
  placed.posts.listed().forEach((index, position) => {
    if (postIds.has(placed.posts.id(index))) listings.add(Math.floor(position / postsPerPage) + 1);
  });
  for (let index = 0; index < placed.posts.length; index++) {
    if (!postIds.has(placed.posts.id(index))) continue;
    for (const near of [index - 1, index, index + 1]) posts.add(near);
  }
  const plan = planPlaced(placed, {
    listing: (number) => listings.has(number),
    post: (index) => posts.has(index),
    page: () => pageIds.size > 0,
    edited,
  });
  return { plan, shards: shardsOf(placed, ids), probe: '404.html' };
}

/**
 * The search bundles holding the posts and pages among `changed` (`type:id` keys): empty
 * when an item of another kind changed (the edit plans in full).
 */
export function editedShards(placed: PlacedSite, changed: ReadonlySet<string>): SearchShard[] {
  const ids = editedIds(changed);
  return ids === undefined ? [] : shardsOf(placed, ids);
}

function shardsOf(
  placed: PlacedSite,
  ids: { postIds: Set<number>; pageIds: Set<number> },
): SearchShard[] {
  // A document's bundle is its key's (`shardOf`): no bundle's documents are read to find it.
  const count = placed.search.shards.length;
  const touched = new Set([...docKeysOf(ids)].map((key) => shardOf(key, count)));
  return placed.search.shards.filter((shard) => touched.has(shard.index));
}

/** The posts and pages among `changed` (`type:id` keys); undefined if anything else is. */
export function editedIds(
  changed: ReadonlySet<string>,
): { postIds: Set<number>; pageIds: Set<number> } | undefined {
  const postIds = new Set<number>();
  const pageIds = new Set<number>();
  for (const key of changed) {
    const colon = key.lastIndexOf(':');
    const type = key.slice(0, colon) as ItemType;
    const id = Number(key.slice(colon + 1));
    if ((builtAs('post') as readonly string[]).includes(type)) postIds.add(id);
    else if ((builtAs('page') as readonly string[]).includes(type)) pageIds.add(id);
    else return undefined;
  }
  return { postIds, pageIds };
}

/** The keys `placeSite` gives the search documents of these posts and pages. */
function docKeysOf(edited: { postIds: Set<number>; pageIds: Set<number> }): Set<string> {
  const docKeys = new Set([...edited.postIds].map((id) => `post:${id}`));
  for (const id of edited.pageIds) docKeys.add(`page:${id}`);
  return docKeys;
}

/**
 * The search document keys (`post:12`) of the items among `changed`; undefined when an item
 * of another kind changed (the edit plans in full).
 */
export function editedDocKeys(changed: ReadonlySet<string>): Set<string> | undefined {
  const edited = editedIds(changed);
  return edited && docKeysOf(edited);
}
