import type { Query } from '../client/index.js';
import type { ItemType, ParentType } from '../store/index.js';

/**
 * What the pull mirrors per language, and with which filters. Anonymous pulls see published
 * content (`context=view`, the server's default statuses); with credentials every status a
 * backup needs is asked for in `context=edit` (raw fields).
 */
export type PullMode = 'view' | 'edit';

export const COLLECTIONS: readonly ItemType[] = ['posts', 'pages', 'media'];

/** The collections that have revisions and autosaves. */
export const PARENT_TYPES: readonly ParentType[] = ['posts', 'pages'];

/** Statuses asked for in edit mode. Drafts and trash are part of a backup; `auto-draft` is not. */
export const EDIT_STATUSES: Readonly<Record<ItemType, readonly string[]>> = {
  posts: ['publish', 'future', 'draft', 'pending', 'private', 'trash'],
  pages: ['publish', 'future', 'draft', 'pending', 'private', 'trash'],
  media: ['inherit', 'private', 'trash'],
};

/** The route of a collection, relative to the API root. */
export function collectionRoute(type: ItemType): string {
  return `cms/v2/${type}`;
}

/**
 * The filter every request about a collection carries (crawl pages, counts, probes), so that
 * the counts compared are counts of the same set. View mode leaves `status` to the server's
 * default (`publish`; `inherit` for media).
 */
export function collectionFilter(type: ItemType, mode: PullMode): Query {
  return mode === 'edit'
    ? { context: 'edit', status: [...EDIT_STATUSES[type]] }
    : { context: 'view' };
}
