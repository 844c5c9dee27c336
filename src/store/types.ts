/**
 * Shared vocabulary of the cache: the collections we mirror and the shapes callers hand in.
 * Row shapes returned by each repository live next to the repository.
 */

/** The three collections the cache mirrors per language; the `items.type` column holds one. */
export type ItemType = 'posts' | 'pages' | 'media';

/** Types that have revisions and autosaves on the remote site. */
export type ParentType = 'posts' | 'pages';

/** The `context` an item was fetched with: `edit` carries raw fields, `view` only rendered ones. */
export type FetchContext = 'view' | 'edit';

export const ITEM_TYPES: readonly ItemType[] = ['posts', 'pages', 'media'];

/**
 * An item exactly as the remote sent it. Only `id` is required by the store; every other
 * field is read, when present and of the expected type, into a derived column.
 */
export interface CmsItem {
  readonly id: number;
  readonly [field: string]: unknown;
}

/** Per-item result of an upsert: `content_hash` decides between `updated` and `unchanged`. */
export type UpsertOutcome = 'created' | 'updated' | 'unchanged';

export interface ItemUpsertOutcome {
  readonly id: number;
  readonly outcome: UpsertOutcome;
  /** True when the row was a tombstone: it counts as `created` and `deleted_at` is cleared. */
  readonly undeleted: boolean;
}

export interface UpsertResult {
  /** One entry per input item, in input order. */
  readonly outcomes: readonly ItemUpsertOutcome[];
  readonly created: number;
  readonly updated: number;
  readonly unchanged: number;
}
