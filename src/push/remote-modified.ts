import type { CmsClient } from '../client/index.js';
import { collectionOf, collectionRoute, type CheckoutType } from '../collections.js';
import { chunkIds } from './conflicts.js';

/**
 * The site's current `modified_gmt` of each id, fetched with `include` in chunks of
 * `perPage` (one request per chunk, `context=edit` so drafts and private items answer too).
 * Ids missing from the answer are missing from the map.
 */
export async function fetchRemoteModified(
  client: CmsClient,
  type: CheckoutType,
  ids: readonly number[],
  perPage: number,
): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  await Promise.all(
    chunkIds(ids, perPage).map(async (chunk) => {
      const page = await client.listPage<Record<string, unknown>>(collectionRoute(type), {
        include: chunk,
        per_page: chunk.length,
        context: 'edit',
        // Every status an editor sees, except `trash` (a trashed item is "gone").
        status: [...collectionOf(type).statuses.edit],
        orderby: 'id',
        order: 'asc',
      });
      for (const item of page.items) {
        if (typeof item.id === 'number' && typeof item.modified_gmt === 'string')
          found.set(item.id, item.modified_gmt);
      }
    }),
  );
  return found;
}
