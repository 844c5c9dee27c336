import type { CmsClient } from '../client/index.js';
import { chunkIds } from './conflicts.js';

/** Every status an editor can see in `context=edit`, except `trash` (a trashed item is "gone"). */
export const EDITABLE_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;

/**
 * The site's current `modified_gmt` of each id, fetched with `include` in chunks of
 * `perPage` (one request per chunk, `context=edit` so drafts and private items answer too).
 * Ids missing from the answer are missing from the map.
 */
export async function fetchRemoteModified(
  client: CmsClient,
  type: 'posts' | 'pages',
  ids: readonly number[],
  perPage: number,
): Promise<Map<number, string>> {
  const found = new Map<number, string>();
  await Promise.all(
    chunkIds(ids, perPage).map(async (chunk) => {
      const page = await client.listPage<Record<string, unknown>>(`cms/v2/${type}`, {
        include: chunk,
        per_page: chunk.length,
        context: 'edit',
        status: [...EDITABLE_STATUSES],
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
