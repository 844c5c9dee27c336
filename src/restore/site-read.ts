import { backupStatuses, collectionRoute, type ItemType } from '../collections.js';
import type { SiteSession } from '../push/site-session.js';
import { keyOf } from './restore-plan.js';

type Json = Readonly<Record<string, unknown>>;

/**
 * The site's items of the given ids, by `type/id`, in edit context and with every status a
 * backup keeps (trashed items too): one listing per page of ids. An id missing from the answer
 * is not on the site (deleted for good). Reads only.
 */
export async function readSiteItems(
  session: SiteSession,
  ids: readonly { type: ItemType; id: number }[],
  countRequest: () => void,
): Promise<Map<string, Json>> {
  const found = new Map<string, Json>();
  const byType = new Map<ItemType, Set<number>>();
  for (const { type, id } of ids) {
    const set = byType.get(type) ?? new Set<number>();
    set.add(id);
    byType.set(type, set);
  }
  for (const [type, set] of byType) {
    const route = collectionRoute(type);
    const perPage = session.index.perPageMax(route);
    const all = [...set].sort((a, b) => a - b);
    for (let start = 0; start < all.length; start += perPage) {
      const chunk = all.slice(start, start + perPage);
      const page = await session.client.listPage<Json>(route, {
        include: chunk,
        per_page: chunk.length,
        context: 'edit',
        status: [...backupStatuses(type)],
        orderby: 'id',
        order: 'asc',
      });
      countRequest();
      for (const item of page.items) {
        if (typeof item.id === 'number') found.set(keyOf(type, item.id), item);
      }
    }
  }
  return found;
}
