import type { FetchContext, ItemType } from './types.js';

/**
 * How a row of `items` is read: the stored columns, their mapping to a `StoredItem`, and the
 * SQL fragments every reader of the table shares (which columns, which items are public,
 * which statuses).
 */

/** One row of `items`. `json` is the item exactly as fetched (parse it when needed). */
export interface StoredItem {
  readonly lang: string;
  readonly type: ItemType;
  readonly id: number;
  readonly status: string | null;
  readonly slug: string | null;
  readonly parent: number | null;
  readonly menuOrder: number | null;
  readonly sticky: boolean | null;
  readonly author: number | null;
  readonly featuredMedia: number | null;
  readonly dateGmt: string | null;
  readonly modifiedGmt: string | null;
  readonly link: string | null;
  readonly title: string | null;
  readonly json: string;
  readonly contentHash: string;
  readonly context: FetchContext;
  readonly fetchedAt: string;
  /** Set when the item left the remote set (deleted, trashed, unpublished); else null. */
  readonly deletedAt: string | null;
}

// Database row as SQLite returns it (snake_case columns).
export interface ItemRow {
  lang: string;
  type: ItemType;
  id: number;
  status: string | null;
  slug: string | null;
  parent: number | null;
  menu_order: number | null;
  sticky: number | null;
  author: number | null;
  featured_media: number | null;
  date_gmt: string | null;
  modified_gmt: string | null;
  link: string | null;
  title: string | null;
  json: string;
  content_hash: string;
  context: FetchContext;
  fetched_at: string;
  deleted_at: string | null;
}

export function itemFromRow(row: ItemRow): StoredItem {
  return {
    lang: row.lang,
    type: row.type,
    id: row.id,
    status: row.status,
    slug: row.slug,
    parent: row.parent,
    menuOrder: row.menu_order,
    sticky: row.sticky === null ? null : row.sticky === 1,
    author: row.author,
    featuredMedia: row.featured_media,
    dateGmt: row.date_gmt,
    modifiedGmt: row.modified_gmt,
    link: row.link,
    title: row.title,
    json: row.json,
    contentHash: row.content_hash,
    context: row.context,
    fetchedAt: row.fetched_at,
    deletedAt: row.deleted_at,
  };
}

/**
 * The public-item rule of `src/transform/publication.ts` (`isPublic`) in SQL, for the items
 * table as `alias`: published, live, and neither `content.protected`/`excerpt.protected` true
 * nor a non-empty `password` string. The rule is the `is_public` column (schema upgrade 9,
 * generated from the row), so a pass over every public item reads the `items_public_entries` index
 * instead of every item's JSON. Tested against `isPublic`.
 */
export function publicItemSql(alias: string): string {
  return `${alias}.is_public = 1`;
}

/**
 * The stored columns of `items`, for `SELECT`: `*` would also compute `is_public` (the JSON
 * of every row read, a third more time for a scan of every item).
 */
export function itemColumnsSql(alias?: string): string {
  const prefix = alias === undefined ? '' : `${alias}.`;
  return ITEM_COLUMNS.map((column) => `${prefix}${column}`).join(', ');
}

const ITEM_COLUMNS = [
  'lang',
  'type',
  'id',
  'status',
  'slug',
  'parent',
  'menu_order',
  'sticky',
  'author',
  'featured_media',
  'date_gmt',
  'modified_gmt',
  'link',
  'title',
  'json',
  'content_hash',
  'context',
  'fetched_at',
  'deleted_at',
];

/** Builds `AND status IN (...)` with one parameter per status; '' when no filter. */
export function statusClause(column: string, statuses: readonly string[] | undefined): string {
  if (statuses === undefined) return '';
  if (statuses.length === 0) return ' AND 0';
  return ` AND ${column} IN (${statuses.map(() => '?').join(', ')})`;
}
