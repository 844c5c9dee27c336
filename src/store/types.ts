/**
 * Shared vocabulary of the cache: the collections we mirror (from the registry,
 * src/collections.ts) and the shapes callers hand in. Row shapes returned by each repository
 * live next to the repository.
 */

/** The collections the cache mirrors per language (`items.type`) and those with revisions. */
export type { ItemType, ParentType } from '../collections.js';
export { ITEM_TYPES } from '../collections.js';

/** The `context` an item was fetched with: `edit` carries raw fields, `view` only rendered ones. */
export type FetchContext = 'view' | 'edit';

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
