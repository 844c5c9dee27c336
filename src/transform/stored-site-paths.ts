/**
 * Site paths of a language's public items kept in the cache (`store.sitePaths`), made by the
 * rules of `assignSitePaths` (item-site-paths.ts) but without holding a map of every item: at
 * 1,000,000 posts the transform's maps of paths, links and taken names were ~1.5 KB a post.
 * A run whose public items and links are those of the stored rows (a run after editing a
 * post's text) reuses them whole, checking only the items logged as changed since (schema
 * upgrade 20) instead of reading every item.
 */
import { BUILT_TYPES, collectionOf } from '../collections.js';
import type { Store } from '../store/index.js';
import type { PublicItemSummary } from '../store/items-repo.js';
import type { SitePathRow } from '../store/site-paths-repo.js';
import { fallbackSitePath, foldedPath, usablePath } from './item-site-paths.js';
import { sortedPathsDigest } from './paths-digest.js';
import { pageFileOf, removedPages } from './removed-link-targets.js';
import { shortLinkQuery } from './short-links.js';
import { normalizeSitePath } from './site-paths.js';
import { urlKey, type UrlResolver } from './url-resolver.js';

/**
 * The rules rows were assigned by. Change it with `usablePath`, `foldedPath`, the fallback
 * path or the order of `BUILT_TYPES`: rows stored under other rules are assigned again.
 */
export const SITE_PATH_RULES = `1:${BUILT_TYPES.join(',')}`;

/** Candidates handled per transaction while assigning. */
const BATCH = 2000;

export interface StoredSitePaths {
  /** `sitePathsDigest` of the language's public items and their paths. */
  readonly digest: string;
  /** The stored rows were current: nothing was assigned this run. */
  readonly reused: boolean;
}

/**
 * Makes the stored site paths of `lang` those of its current public items under `homeUrl`:
 * reused when the same items with the same links were assigned under the same home and
 * rules, else assigned again, every item (an earlier item wins a contested path, so one new
 * item can move another).
 */
export function storeSitePaths(store: Store, lang: string, homeUrl: string): StoredSitePaths {
  const state = store.sitePaths.state(lang);
  if (
    state !== undefined &&
    state.homeUrl === homeUrl &&
    state.rules === SITE_PATH_RULES &&
    rowsStillMatch(store, lang)
  ) {
    return { digest: state.digest, reused: true };
  }
  store.sitePaths.clear(lang);
  for (const type of BUILT_TYPES) {
    let batch: PublicItemSummary[] = [];
    const flush = (): void => {
      const chunk = batch;
      batch = [];
      store.sitePaths.placeAll(lang, chunk, (item, take) => rowOf(item, homeUrl, take));
    };
    for (const item of store.items.iteratePublicSummaries(lang, type, BATCH)) {
      batch.push(item);
      if (batch.length >= BATCH) flush();
    }
    flush();
  }
  const digest = sortedPathsDigest(store.sitePaths.byItemKey(lang));
  store.sitePaths.finish(lang, { homeUrl, rules: SITE_PATH_RULES, digest });
  return { digest, reused: false };
}

/**
 * Whether the stored rows are still those of the public items and their links: from the
 * items logged as changed since they were (proportional to the edit), or, on a cache not
 * logged yet, from every public item once.
 */
function rowsStillMatch(store: Store, lang: string): boolean {
  return (
    store.sitePaths.matchLoggedChanges(lang, BUILT_TYPES) ??
    store.sitePaths.matchPublicItemsAndLog(lang, BUILT_TYPES)
  );
}

/**
 * One item's row, in `assignSitePaths`'s order: its URL path when usable and not yet taken,
 * else its fallback. A fallback never claims a path: in `assignSitePaths` fallbacks come
 * after every URL path, so none can take a path from a later item's URL.
 */
function rowOf(
  item: PublicItemSummary,
  homeUrl: string,
  take: (folded: string) => boolean,
): SitePathRow {
  const usable = item.link ? usablePath(item.link, homeUrl) : undefined;
  const placed = usable !== undefined && take(foldedPath(usable));
  return {
    type: item.type,
    id: item.id,
    link: item.link,
    linkKey: item.link ? (urlKey(item.link) ?? null) : null,
    sitePath: placed ? usable : fallbackSitePath(item.type, item.id),
    fallback: !placed,
  };
}

/**
 * The link resolver over the stored rows, as `createUrlResolver` would build it from every
 * item's link and then its short links (`?p=ID`, `?page_id=ID` under the home): an item's own
 * link wins, pages before posts, then lower ids. One indexed look-up a link.
 */
export function storedLinkResolver(store: Store, lang: string, homeUrl: string): UrlResolver {
  const home = homeUrl.endsWith('/') ? homeUrl : `${homeUrl}/`;
  // The key every short link under the home starts with (`//host/pl?`).
  const probe = urlKey(`${home}?p=1`);
  const shortPrefix = probe?.endsWith('?p=1') ? probe.slice(0, -'p=1'.length) : undefined;
  return (absoluteUrl) => {
    const key = urlKey(absoluteUrl);
    if (key === undefined) return undefined;
    const linked = store.sitePaths.pathOfLink(lang, key);
    if (linked !== undefined) return normalizeSitePath(linked);
    if (shortPrefix === undefined || !key.startsWith(shortPrefix)) return undefined;
    const search = key.slice(shortPrefix.length - 1);
    const query = shortLinkQuery(search);
    // Only the spelling the short links were made with (`?p=7`, not `?p=07`).
    if (query === undefined || search !== `?${query.key}=${query.id}`) return undefined;
    for (const type of BUILT_TYPES) {
      if (!collectionOf(type).shortLinks.includes(query.key)) continue;
      const row = store.sitePaths.get(lang, type, query.id);
      if (row !== undefined) return normalizeSitePath(row.sitePath);
    }
    return undefined;
  };
}

/**
 * Page files among `previousFiles` that no stored site path of `lang` produces: the current
 * pages are noted in a scratch table of the cache, not a set in memory.
 */
export function removedItemPages(
  store: Store,
  lang: string,
  previousFiles: Iterable<string>,
): Set<string> {
  store.sitePaths.startFiles();
  try {
    let batch: string[] = [];
    const flush = (): void => {
      const files = batch;
      batch = [];
      store.transaction(() => files.forEach((file) => store.sitePaths.addFile(file)));
    };
    for (const row of store.sitePaths.rows(lang)) {
      const file = pageFileOf(row.sitePath);
      if (file !== undefined) batch.push(file);
      if (batch.length >= BATCH) flush();
    }
    flush();
    return removedPages(previousFiles, (file) => store.sitePaths.hasFile(file));
  } finally {
    store.sitePaths.endFiles();
  }
}
