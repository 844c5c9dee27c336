import { collectionOf } from '../collections.js';
import type { MigrateType } from './planner.js';

/**
 * Whether an item on the target is a copy a migration made of a source item. A crash can
 * leave items on the target that the cache never recorded (killed between the create and the
 * `id_map` write, or a cache restored from before the run), and the target may hold a
 * person's items with the same slug and date. Slug and date cannot tell them apart; what a
 * person's item does not share is the text the migration sent: the title, the date and the
 * content and excerpt of the source, changed only where the migration rewrites (URLs, ids of
 * media and items). So both sides are compared with those parts masked. Pure.
 */

type Json = Readonly<Record<string, unknown>>;

export function isOwnCopy(type: MigrateType, source: Json, target: Json): boolean {
  if (!sameDate(source, target)) return false;
  if (text(source.title) !== text(target.title)) return false;
  if (collectionOf(type).file) {
    return (
      masked(text(source.caption)) === masked(text(target.caption)) &&
      masked(raw(source.description)) === masked(raw(target.description)) &&
      (source.alt_text ?? '') === (target.alt_text ?? '') &&
      (source.mime_type ?? '') === (target.mime_type ?? '')
    );
  }
  return (
    masked(text(source.content)) === masked(text(target.content)) &&
    masked(raw(source.excerpt)) === masked(raw(target.excerpt))
  );
}

/**
 * Text with what a migration rewrites masked: absolute URLs, the values of `href`, `src` and
 * `srcset`, and every run of digits (ids in classes, block comments and short links). `\/`
 * (block comments' escaped slashes) is read as `/` first.
 */
export function masked(html: string): string {
  return html
    .replace(/\\\//g, '/')
    .replace(/\b(href|src|srcset)=(["'])[^"']*\2/gi, '$1=$2#$2')
    .replace(/https?:\/\/[^\s"'<>)\]]*/g, '#')
    .replace(/\d+/g, '0');
}

function sameDate(source: Json, target: Json): boolean {
  if (typeof source.date_gmt !== 'string' || typeof target.date_gmt !== 'string') return true;
  return source.date_gmt.slice(0, 19) === target.date_gmt.slice(0, 19);
}

/** The raw text of a field (`{raw, rendered}` or a string); rendered only when no raw. */
function text(value: unknown): string {
  if (typeof value === 'string') return value;
  const field = value as { raw?: unknown; rendered?: unknown } | null | undefined;
  if (typeof field?.raw === 'string') return field.raw;
  return typeof field?.rendered === 'string' ? field.rendered : '';
}

/** Only a raw excerpt is sent; a target without one has an empty raw excerpt. */
function raw(value: unknown): string {
  const field = value as { raw?: unknown } | null | undefined;
  return typeof field?.raw === 'string' ? field.raw : '';
}
