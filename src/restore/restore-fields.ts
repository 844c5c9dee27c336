import {
  checkoutFields,
  collectionOf,
  FILE_TYPE,
  isCheckoutType,
  type ItemType,
} from '../collections.js';
import { canonicalJson } from '../store/index.js';

/**
 * Which fields restore puts back, and how a field's value is read and compared: the raw text
 * of `{raw, rendered}` fields, slugs decoded, dates to the second. Pure.
 */

type Json = Readonly<Record<string, unknown>>;

/** Text fields a revision holds: what `--revision` rolls back. */
export const REVISION_FIELDS: readonly string[] = ['title', 'content', 'excerpt'];

/** The describing fields of an uploaded file that an update may change. */
const FILE_FIELDS: readonly string[] = ['title', 'caption', 'alt_text', 'description'];

/** The fields restore compares and writes for a collection. */
export function restoredFields(type: ItemType): readonly string[] {
  if (collectionOf(type).file) return FILE_FIELDS;
  const editable = isCheckoutType(type) ? checkoutFields(type) : [];
  return [...new Set([...REVISION_FIELDS, ...editable])];
}

/** The field that names another item of a collection: its page parent, its featured file. */
export function refTypeOf(type: ItemType, field: string): ItemType | undefined {
  if (field === 'parent' && collectionOf(type).hierarchical) return type;
  if (field === 'featured_media' && !collectionOf(type).file) return FILE_TYPE;
  return undefined;
}

/** A field as written back: the raw text of `{raw, rendered}`, a decoded slug, else as is. */
export function valueOf(json: Json, field: string): unknown {
  const value = json[field];
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const raw = (value as { raw?: unknown }).raw;
    if (raw !== undefined) return raw;
    const rendered = (value as { rendered?: unknown }).rendered;
    if (field !== 'content' && typeof rendered === 'string') return rendered;
  }
  if (field === 'slug' && typeof value === 'string') return decodeSlug(value);
  return value;
}

/** Two values of a field are the same as far as a restore is concerned. */
export function sameValue(field: string, wanted: unknown, site: unknown): boolean {
  if (field === 'date_gmt') return dateOf(wanted) === dateOf(site);
  return canonical(wanted) === canonical(site);
}

function dateOf(value: unknown): string {
  return typeof value === 'string' ? value.slice(0, 19) : '';
}

function canonical(value: unknown): string {
  return value === undefined || value === null ? '' : canonicalJson(value);
}

function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}
