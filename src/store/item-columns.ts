import { collectionOf } from '../collections.js';
import type { CmsItem, ItemType } from './types.js';
import { plainText } from './plain-text.js';

/**
 * The columns of `items` that are derived from the item JSON. They exist so that queries
 * (counts per status, slug look-ups, watermarks, page trees) never parse JSON; the JSON
 * itself stays the source of truth. A field of the wrong type becomes NULL instead of an
 * error: remote data is untrusted and the verbatim JSON still holds it.
 */
export interface ItemColumns {
  readonly status: string | null;
  readonly slug: string | null;
  readonly parent: number | null;
  readonly menuOrder: number | null;
  /** 1/0 for posts, NULL where the type has no `sticky`. */
  readonly sticky: 0 | 1 | null;
  readonly author: number | null;
  readonly featuredMedia: number | null;
  readonly dateGmt: string | null;
  readonly modifiedGmt: string | null;
  readonly link: string | null;
  /** `title.rendered` as plain text (falls back to `title.raw`, then a string `title`). */
  readonly title: string | null;
}

function str(value: unknown): string | null {
  return typeof value === 'string' ? value : null;
}

function int(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

function titleOf(value: unknown): string | null {
  if (typeof value === 'string') return plainText(value);
  if (value !== null && typeof value === 'object') {
    const title = value as { rendered?: unknown; raw?: unknown };
    if (typeof title.rendered === 'string') return plainText(title.rendered);
    if (typeof title.raw === 'string') return plainText(title.raw);
  }
  return null;
}

/** Pure: the derived columns of one item. */
export function deriveItemColumns(type: ItemType, item: CmsItem): ItemColumns {
  // A page's parent is `parent`; an attachment's is the post it is attached to (`post`).
  const parent = int(item['parent']) ?? (collectionOf(type).file ? int(item['post']) : null);
  const sticky = item['sticky'];
  return {
    status: str(item['status']),
    slug: str(item['slug']),
    parent,
    menuOrder: int(item['menu_order']),
    sticky: typeof sticky === 'boolean' ? (sticky ? 1 : 0) : null,
    author: int(item['author']),
    featuredMedia: int(item['featured_media']),
    dateGmt: str(item['date_gmt']),
    modifiedGmt: str(item['modified_gmt']),
    link: str(item['link']),
    title: titleOf(item['title']),
  };
}

/** Throws a TypeError (a bug in the caller: remote records are validated before storing). */
export function assertItemId(item: unknown, index: number): asserts item is CmsItem {
  const id = (item as { id?: unknown } | null)?.id;
  if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
    throw new TypeError(
      `item at index ${index} has no positive integer id (got ${JSON.stringify(id) ?? 'undefined'})`,
    );
  }
}
