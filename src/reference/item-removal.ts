import type { LangStore, StoredItem } from './store.js';

/**
 * Trashing and deleting for good as deployed servers do them (observed-behaviour.md, Items):
 * a trashed item's slug gets `__trashed` appended, the slug it had is kept and comes back when
 * a status update takes it out of the trash; an item deleted for good leaves no dangling
 * references behind. None of these side effects changes anyone's `modified`, as on those
 * servers (they are direct record updates there, not edits).
 */
export const TRASHED_SUFFIX = '__trashed';

/** The slug of an item moved to the trash; remembers the one it had (empty slugs stay empty). */
export function trashedSlug(item: StoredItem, slug: string): { slug: string; desired?: string } {
  if (slug === '' || slug.endsWith(TRASHED_SUFFIX)) return { slug, desired: item.desiredSlug };
  return { slug: `${slug}${TRASHED_SUFFIX}`, desired: slug };
}

/** The slug an item taken out of the trash asks for: the one it had before. */
export function untrashedSlug(item: StoredItem): string {
  if (item.desiredSlug !== undefined) return item.desiredSlug;
  return item.slug.endsWith(TRASHED_SUFFIX)
    ? item.slug.slice(0, -TRASHED_SUFFIX.length)
    : item.slug;
}

/**
 * What deleting `item` for good does to the others: its child pages and its media move up one
 * level (to its own parent), and a deleted media item is no longer anyone's featured image.
 */
export function detachRemoved(store: LangStore, item: StoredItem): void {
  for (const other of store.items.values()) {
    if (other.id === item.id) continue;
    const child =
      other.parent === item.id && (other.type === item.type || other.type === 'attachment');
    const featuring = item.type === 'attachment' && other.featuredMedia === item.id;
    if (!child && !featuring) continue;
    store.mutate(other, (target) => {
      if (child) target.parent = item.parent;
      if (featuring) target.featuredMedia = 0;
    });
  }
}
