/**
 * The site side of `diff --live`, read-only: one listing of ids, `modified_gmt` and status per
 * collection (`_fields`), then the full items of only those that differ from the cache
 * (`include`, 100 ids per request). The filter is the one a backup pull uses, so the items
 * compare with what the pull stored.
 */
import type { CmsClient } from '../client/index.js';
import { SiteError } from '../errors.js';
import { contentHash, ITEM_TYPES, type ItemType, type Store } from '../store/index.js';
import { collectionRoute } from '../collections.js';
import { collectionFilter } from '../sync/collections.js';
import { liveState } from './cache-sides.js';
import { stateFromJson, type ItemPair, type ItemState } from './item-state.js';

const PER_PAGE = 100;
/** Pages of ids per collection before the listing is refused (a million items). */
export const MAX_LIST_PAGES = 10_000;

interface Listed {
  readonly modifiedGmt: unknown;
  readonly status: unknown;
}

/** The cache (before) against the site (after): items listed differently, fetched in full. */
export async function livePairs(
  client: CmsClient,
  cache: Store,
  lang: string,
): Promise<ItemPair[]> {
  const pairs: ItemPair[] = [];
  for (const type of ITEM_TYPES) {
    const listed = await listIds(client, type);
    const cached = new Map(cache.items.listIds(lang, type).map((row) => [row.id, row]));
    const differ = [...listed].filter(([id, site]) => {
      const row = cached.get(id);
      return (
        row === undefined || row.modifiedGmt !== site.modifiedGmt || row.status !== site.status
      );
    });
    const fetched = await fetchItems(
      client,
      type,
      differ.map(([id]) => id),
    );
    for (const id of [...new Set([...listed.keys(), ...cached.keys()])].sort((x, y) => x - y)) {
      const after = fetched.get(id);
      // Listed as the cache holds it, or gone between the listing and the fetch: no change.
      if (listed.has(id) && after === undefined) continue;
      pairs.push({
        type,
        id,
        before: liveState(cache, lang, type, id),
        after: siteState(type, after),
      });
    }
  }
  return pairs;
}

async function listIds(client: CmsClient, type: ItemType): Promise<Map<number, Listed>> {
  const listed = new Map<number, Listed>();
  const query = {
    ...collectionFilter(type, 'edit'),
    _fields: 'id,modified_gmt,status',
    per_page: PER_PAGE,
    orderby: 'id',
    order: 'asc',
  };
  let pages = 0;
  for await (const page of client.paginate<Record<string, unknown>>(collectionRoute(type), query)) {
    pages += 1;
    if (pages > MAX_LIST_PAGES) {
      throw new SiteError(
        client.apiRoot,
        `${client.apiRoot}${collectionRoute(type)} still had items after ${MAX_LIST_PAGES} pages of ${PER_PAGE}: refusing to list further`,
      );
    }
    for (const record of page.items) {
      const id = record['id'];
      if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0) {
        listed.set(id, { modifiedGmt: record['modified_gmt'], status: record['status'] });
      }
    }
  }
  return listed;
}

async function fetchItems(
  client: CmsClient,
  type: ItemType,
  ids: readonly number[],
): Promise<Map<number, Record<string, unknown>>> {
  const items = new Map<number, Record<string, unknown>>();
  for (let start = 0; start < ids.length; start += PER_PAGE) {
    const include = ids.slice(start, start + PER_PAGE);
    const page = await client.listPage<Record<string, unknown>>(collectionRoute(type), {
      ...collectionFilter(type, 'edit'),
      include,
      per_page: include.length,
      orderby: 'id',
      order: 'asc',
    });
    for (const item of page.items) {
      const id = item['id'];
      if (typeof id === 'number' && include.includes(id)) items.set(id, item);
    }
  }
  return items;
}

function siteState(
  type: ItemType,
  item: Record<string, unknown> | undefined,
): ItemState | undefined {
  if (item === undefined) return undefined;
  const status = typeof item['status'] === 'string' ? item['status'] : null;
  // Hashed as the pull hashes what it stores, so an item equal to the cache's compares equal.
  return stateFromJson(type, item['id'] as number, status, contentHash(item), JSON.stringify(item));
}
