import type { ItemType } from '../store/index.js';

/** One side of a compared item: what the cache, a snapshot, the history or the site holds. */
export interface ItemState {
  readonly type: ItemType;
  readonly id: number;
  readonly status: string | null;
  readonly contentHash: string | undefined;
  /** The item as fetched (edit context: raw fields present). */
  readonly json: Readonly<Record<string, unknown>>;
}

/** An item on both sides of a diff; a side without it is undefined (absent or deleted). */
export interface ItemPair {
  readonly type: ItemType;
  readonly id: number;
  readonly before: ItemState | undefined;
  readonly after: ItemState | undefined;
}

/** The text fields shown as a line diff, in this order. */
export const TEXT_FIELDS = ['title', 'excerpt', 'content'] as const;
export type TextField = (typeof TEXT_FIELDS)[number];

/**
 * Fields that change with every edit and say nothing of their own (`modified`) or that are
 * the site's navigation, not content (`_links`): left out of "other changed fields".
 */
export const QUIET_FIELDS: ReadonlySet<string> = new Set([
  'modified',
  'modified_gmt',
  '_links',
  ...TEXT_FIELDS,
]);

/**
 * The text of `title`, `excerpt` or `content`: the raw text when the item was fetched in edit
 * context (what the author typed), else the rendered HTML; a plain string as it is.
 */
export function textOf(json: Readonly<Record<string, unknown>>, field: TextField): string {
  const value = json[field];
  if (typeof value === 'string') return value;
  if (value !== null && typeof value === 'object') {
    const parts = value as { raw?: unknown; rendered?: unknown };
    if (typeof parts.raw === 'string') return parts.raw;
    if (typeof parts.rendered === 'string') return parts.rendered;
  }
  return '';
}

/** Parses a stored JSON column into a state; a JSON that is not an object counts as `{}`. */
export function stateFromJson(
  type: ItemType,
  id: number,
  status: string | null,
  contentHash: string | undefined,
  json: string,
): ItemState {
  const parsed: unknown = JSON.parse(json);
  const object =
    parsed !== null && typeof parsed === 'object' && !Array.isArray(parsed)
      ? (parsed as Record<string, unknown>)
      : {};
  return { type, id, status, contentHash, json: object };
}
