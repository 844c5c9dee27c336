import { RestError } from './rest-error.js';
import { sanitizeSlug } from './render.js';
import { parseDateTime, toEpochSeconds } from './site-dates.js';
import type { SiteState } from './site-state.js';
import type { LangStore, StoredItem } from './store.js';
import type { User } from './users.js';
import { baseItem } from './item-defaults.js';
import { trashedSlug, untrashedSlug } from './item-removal.js';

/**
 * Turning validated write parameters into a stored item: the checks the schema cannot
 * express (author, parent, featured media, sticky + password), slug derivation and
 * uniqueness, and the publish/future rule. Everything is checked before anything is changed,
 * so a rejected write leaves the item untouched.
 */
type Patch = Partial<Omit<StoredItem, 'id' | 'type'>>;

function rawText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { raw?: unknown }).raw === 'string'
  ) {
    return (value as { raw: string }).raw;
  }
  return undefined;
}

function isDescendant(store: LangStore, candidate: number, ancestor: number): boolean {
  const seen = new Set<number>();
  let current = store.getItem('page', candidate);
  while (current && !seen.has(current.id)) {
    if (current.id === ancestor) return true;
    seen.add(current.id);
    current = store.getItem('page', current.parent);
  }
  return false;
}

export function uniqueSlug(
  store: LangStore,
  item: Pick<StoredItem, 'id' | 'type' | 'parent'>,
  slug: string,
): string {
  if (slug === '') return slug;
  const taken = new Set<string>();
  for (const other of store.indexes[item.type].all) {
    if (other.id === item.id) continue;
    if (item.type === 'page' && other.parent !== item.parent) continue;
    taken.add(other.slug);
  }
  if (!taken.has(slug)) return slug;
  for (let n = 2; ; n++) {
    const candidate = `${slug}-${n}`;
    if (!taken.has(candidate)) return candidate;
  }
}

/** Computes the changes for `params`; throws RestError (400) before anything is changed. */
export function planWrite(
  site: SiteState,
  store: LangStore,
  current: StoredItem,
  params: Readonly<Record<string, unknown>>,
): Patch {
  const patch: Patch = {};
  const offset = store.settings.gmtOffset;
  const now = toEpochSeconds(site.clock());
  const title = rawText(params.title);
  if (title !== undefined) patch.title = title;
  const content = rawText(params.content);
  if (content !== undefined && current.type !== 'attachment') patch.content = content;
  const excerpt = rawText(params.excerpt);
  if (excerpt !== undefined && current.type !== 'attachment') patch.excerpt = excerpt;
  if (typeof params.status === 'string') {
    // Attachments have no publishing workflow: they are `inherit` unless made private.
    patch.status =
      current.type === 'attachment'
        ? params.status === 'private'
          ? 'private'
          : 'inherit'
        : params.status;
  }
  if (params.date_gmt !== undefined) {
    patch.dateGmt =
      params.date_gmt === null ? now : (parseDateTime(params.date_gmt as string, 0) ?? now);
  } else if (params.date !== undefined) {
    patch.dateGmt =
      params.date === null ? now : (parseDateTime(params.date as string, offset) ?? now);
  }
  if (typeof params.slug === 'string') patch.slug = sanitizeSlug(params.slug);
  if (typeof params.password === 'string' && current.type !== 'attachment')
    patch.password = params.password;
  if (typeof params.author === 'number') {
    if (!site.users.some((user) => user.id === params.author)) {
      throw new RestError(400, 'rest_invalid_author', 'Invalid author ID.');
    }
    patch.author = params.author;
  }
  if (typeof params.featured_media === 'number') {
    if (params.featured_media !== 0 && !store.getItem('attachment', params.featured_media)) {
      throw new RestError(400, 'rest_invalid_featured_media', 'Invalid featured media ID.');
    }
    patch.featuredMedia = params.featured_media;
  }
  if (typeof params.comment_status === 'string') patch.commentStatus = params.comment_status;
  if (typeof params.ping_status === 'string') patch.pingStatus = params.ping_status;
  if (typeof params.template === 'string') patch.template = params.template;
  if (current.type === 'post') planPostFields(store, params, patch);
  planParent(store, current, params, patch);
  if (params.meta !== undefined && typeof params.meta === 'object' && params.meta !== null) {
    patch.meta = { ...current.meta, ...(params.meta as Record<string, unknown>) };
  }
  settleStatusAndSlug(store, current, patch, now);
  return patch;
}

/** A post's own fields: format, sticky and term ids (unknown ids dropped, as servers do). */
function planPostFields(
  store: LangStore,
  params: Readonly<Record<string, unknown>>,
  patch: Patch,
): void {
  if (typeof params.format === 'string') patch.format = params.format;
  if (typeof params.sticky === 'boolean') patch.sticky = params.sticky;
  for (const [field, taxonomy] of [
    ['categories', 'category'],
    ['tags', 'post_tag'],
  ] as const) {
    const ids = params[field];
    if (!Array.isArray(ids)) continue;
    // Unknown term ids are dropped silently, as servers do.
    const known = (ids as number[]).filter((id) => store.termById(id)?.taxonomy === taxonomy);
    patch[field] = field === 'categories' && known.length === 0 ? [1] : [...new Set(known)];
  }
}

/** A page's parent (no loops) and menu order, or the post a media item is attached to. */
function planParent(
  store: LangStore,
  current: StoredItem,
  params: Readonly<Record<string, unknown>>,
  patch: Patch,
): void {
  if (current.type === 'page') {
    if (typeof params.parent === 'number') {
      const parent = params.parent;
      if (
        parent !== 0 &&
        (!store.getItem('page', parent) ||
          parent === current.id ||
          isDescendant(store, parent, current.id))
      ) {
        throw new RestError(400, 'rest_post_invalid_parent', 'Invalid post parent ID.');
      }
      patch.parent = parent;
    }
    if (typeof params.menu_order === 'number') patch.menuOrder = params.menu_order;
  }
  if (current.type === 'attachment' && typeof params.post === 'number') {
    const parent = store.items.get(params.post);
    if (params.post !== 0 && (!parent || parent.type === 'attachment')) {
      throw new RestError(400, 'rest_post_invalid_id', 'Invalid post ID.');
    }
    patch.parent = params.post;
  }
}

/**
 * What follows from the patched item: sticky and password exclude each other, the date
 * decides between publish and future, and a published item gets a unique slug.
 */
function settleStatusAndSlug(
  store: LangStore,
  current: StoredItem,
  patch: Patch,
  now: number,
): void {
  const sticky = patch.sticky ?? current.sticky;
  const password = patch.password ?? current.password;
  if (sticky && password !== '') {
    throw new RestError(400, 'rest_invalid_field', 'A post can not be sticky and have a password.');
  }
  // Publishing with a date in the future schedules; scheduling in the past publishes.
  const status = patch.status ?? current.status;
  const date = patch.dateGmt ?? current.dateGmt;
  if (current.type !== 'attachment' && status === 'publish' && date > now) patch.status = 'future';
  if (current.type !== 'attachment' && status === 'future' && date <= now) patch.status = 'publish';
  const finalStatus = patch.status ?? current.status;
  let slug = patch.slug ?? current.slug;
  if (current.status === 'trash' && finalStatus !== 'trash') {
    // Out of the trash: the slug it had comes back (made unique again below).
    slug = patch.slug ?? untrashedSlug(current);
    if (current.desiredSlug !== undefined) patch.desiredSlug = undefined;
  }
  if (slug === '' && !['draft', 'pending', 'auto-draft'].includes(finalStatus)) {
    slug = sanitizeSlug(patch.title ?? current.title) || String(current.id);
  }
  if (finalStatus === 'trash') {
    const trashed = current.status === 'trash' ? { slug } : trashedSlug(current, slug);
    if (trashed.slug !== current.slug) patch.slug = trashed.slug;
    if (trashed.desired !== undefined) patch.desiredSlug = trashed.desired;
    return;
  }
  const finalSlug = uniqueSlug(
    store,
    { id: current.id, type: current.type, parent: patch.parent ?? current.parent },
    slug,
  );
  if (finalSlug !== current.slug) patch.slug = finalSlug;
}

export function applyMediaFields(
  item: StoredItem,
  params: Readonly<Record<string, unknown>>,
): void {
  if (!item.media) return;
  if (typeof params.alt_text === 'string') item.media.altText = params.alt_text;
  const caption = rawText(params.caption);
  if (caption !== undefined) item.media.caption = caption;
  const description = rawText(params.description);
  if (description !== undefined) item.media.description = description;
}

export function newItem(type: StoredItem['type'], id: number, user: User, now: number): StoredItem {
  return {
    ...baseItem(id, type, now),
    status: type === 'attachment' ? 'inherit' : 'draft',
    author: user.id,
    categories: type === 'post' ? [1] : [],
  };
}

/** Records the current state of a post or page as a new revision (every create and update). */
export function recordRevision(
  store: LangStore,
  item: StoredItem,
  author: number,
  now: number,
): void {
  if (item.type === 'attachment') return;
  store.addRevision({
    id: store.allocateId(),
    parent: item.id,
    kind: 'revision',
    author,
    dateGmt: now,
    modifiedGmt: now,
    title: item.title,
    content: item.content,
    excerpt: item.excerpt,
  });
}
