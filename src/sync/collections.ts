import type { Query } from '../client/index.js';
import { backupStatuses, type ItemType } from '../collections.js';

/**
 * What the pull mirrors per language, and with which filters. Anonymous pulls see published
 * content (`context=view`, the server's default statuses); with credentials every status a
 * backup needs is asked for in `context=edit` (raw fields).
 */
export type PullMode = 'view' | 'edit';

/**
 * The filter every request about a collection carries (crawl pages, counts, probes), so that
 * the counts compared are counts of the same set. View mode leaves `status` to the server's
 * default (the collection's `statuses.view`).
 */
export function collectionFilter(type: ItemType, mode: PullMode): Query {
  return mode === 'edit'
    ? { context: 'edit', status: [...backupStatuses(type)] }
    : { context: 'view' };
}
