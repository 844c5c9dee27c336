/**
 * The public items of a language in the build's order, a chunk at a time: posts newest first
 * (by `date_gmt`, then the larger id, then the type's place in the list given), so that a
 * build can make its model and plan per chunk instead of holding every row. The order is
 * read once as two small numbers per item (its type's index and its id, in typed arrays); each
 * chunk's rows are read by id when asked for. No index on the date is needed: one sort of the
 * public items per build, not one per chunk.
 */
import type { StoreContext } from './store-context.js';
import { publicItemSql } from './item-rows.js';
import { fromJsonColumn } from './json-column.js';
import type { ItemType } from './types.js';

/**
 * A public item with its transform output but without the HTML (read on demand with
 * `TransformedRepo.getHtml`): what a site model needs of every entry.
 */
export interface PublishedEntryRow {
  readonly type: ItemType;
  readonly id: number;
  readonly title: string | null;
  readonly status: string | null;
  readonly sticky: boolean | null;
  readonly parent: number | null;
  readonly menuOrder: number | null;
  readonly featuredMedia: number | null;
  readonly dateGmt: string | null;
  readonly modifiedGmt: string | null;
  readonly link: string | null;
  /** `items.content_hash`. */
  readonly contentHash: string;
  /** Null when the item was never transformed. */
  readonly transformVersion: string | null;
  readonly sourceHash: string | null;
  readonly excerpt: string | null;
  readonly meta: unknown;
}

export interface PublishedRow {
  id: number;
  title: string | null;
  status: string | null;
  sticky: number | null;
  parent: number | null;
  menu_order: number | null;
  featured_media: number | null;
  date_gmt: string | null;
  modified_gmt: string | null;
  link: string | null;
  content_hash: string;
  transform_version: string | null;
  source_hash: string | null;
  excerpt: string | null;
  meta: string | null;
}

/** The columns and join of a published row; `WHERE` follows. */
export const PUBLISHED_SELECT = `SELECT i.id, i.title, i.status, i.sticky, i.parent,
    i.menu_order, i.featured_media, i.date_gmt, i.modified_gmt, i.link, i.content_hash,
    t.transform_version, t.source_hash, t.excerpt, t.meta
  FROM items i
  LEFT JOIN transformed t ON t.lang = i.lang AND t.type = i.type AND t.id = i.id`;

export function publishedFromRow(type: ItemType, row: PublishedRow): PublishedEntryRow {
  return {
    type,
    id: row.id,
    title: row.title,
    status: row.status,
    sticky: row.sticky === null ? null : row.sticky === 1,
    parent: row.parent,
    menuOrder: row.menu_order,
    featuredMedia: row.featured_media,
    dateGmt: row.date_gmt,
    modifiedGmt: row.modified_gmt,
    link: row.link,
    contentHash: row.content_hash,
    transformVersion: row.transform_version,
    sourceHash: row.source_hash,
    excerpt: row.excerpt,
    meta: fromJsonColumn(row.meta),
  };
}

/** The public items of some types of a language, in the build's order. */
export interface PublishedOrder {
  readonly count: number;
  /** The rows, `chunkSize` at a time, in order. */
  chunks(chunkSize: number): Generator<PublishedEntryRow[]>;
  /**
   * The rows at the places `start` to `end` (excluded) of the order, each at its place (an item
   * removed since the order was read is undefined): a build reads a window of the order again.
   */
  rows(start: number, end: number): (PublishedEntryRow | undefined)[];
  /** The rows at these places of the order, in the order given (as `rows`). */
  rowsAt(places: ArrayLike<number>): (PublishedEntryRow | undefined)[];
  /** The id of the item at a place (undefined past the end), from the order read once. */
  idAt(place: number): number | undefined;
}

/** Reads the order of a language's public items (see the module's comment). */
export class PublishedOrderReader {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /** Newest first: `date_gmt` descending, then id descending, then `types` order. */
  newestFirst(lang: string, types: readonly ItemType[]): PublishedOrder {
    const { typeIndex, idOf } = this.#order(lang, types);
    return {
      count: idOf.length,
      chunks: (chunkSize) => this.#chunks(lang, types, typeIndex, idOf, chunkSize),
      rows: (start, end) => {
        const places: number[] = [];
        for (let at = Math.max(0, start); at < Math.min(idOf.length, end); at++) places.push(at);
        return this.#rows(lang, types, { typeIndex, ids: idOf }, places);
      },
      rowsAt: (places) => this.#rows(lang, types, { typeIndex, ids: idOf }, places),
      idAt: (place) => idOf[place],
    };
  }

  /**
   * Two numbers an item for the whole build: 9 bytes, whatever its content. Read in a function
   * of its own: the arrays it fills would otherwise live as long as the closures returned
   * beside them (~20 MB at 1,000,000 posts, found in a heap snapshot of a build).
   */
  #order(lang: string, types: readonly ItemType[]): { typeIndex: Uint8Array; idOf: Float64Array } {
    const rank = types.map((_, index) => `WHEN ? THEN ${index}`).join(' ');
    const sql = `SELECT CASE i.type ${rank} END AS r, i.id FROM items i
      WHERE i.lang = ? AND i.type IN (${types.map(() => '?').join(', ')}) AND ${publicItemSql('i')}
      ORDER BY coalesce(i.date_gmt, '') DESC, i.id DESC, r`;
    const ranks: number[] = [];
    const ids: number[] = [];
    if (types.length > 0) {
      this.#ctx.read(() => {
        // Arrays, not an object per row; this statement is only ever used raw.
        const statement = this.#ctx.stmt<[number, number]>(sql).raw(true);
        for (const [r, id] of statement.iterate(...types, lang, ...types) as Iterable<
          [number, number]
        >) {
          ranks.push(r);
          ids.push(id);
        }
      });
    }
    return { typeIndex: Uint8Array.from(ranks), idOf: Float64Array.from(ids) };
  }

  *#chunks(
    lang: string,
    types: readonly ItemType[],
    typeIndex: Uint8Array,
    ids: Float64Array,
    chunkSize: number,
  ): Generator<PublishedEntryRow[]> {
    if (!Number.isSafeInteger(chunkSize) || chunkSize < 1)
      throw new RangeError(`chunkSize must be a positive integer, got ${String(chunkSize)}`);
    for (let start = 0; start < ids.length; start += chunkSize) {
      const end = Math.min(ids.length, start + chunkSize);
      const chunk: PublishedEntryRow[] = [];
      // An item removed since the order was read is skipped.
      const places: number[] = [];
      for (let at = start; at < end; at++) places.push(at);
      for (const row of this.#rows(lang, types, { typeIndex, ids }, places))
        if (row !== undefined) chunk.push(row);
      yield chunk;
    }
  }

  #rows(
    lang: string,
    types: readonly ItemType[],
    order: { typeIndex: Uint8Array; ids: Float64Array },
    places: ArrayLike<number>,
  ): (PublishedEntryRow | undefined)[] {
    const { typeIndex, ids } = order;
    const sql = `${PUBLISHED_SELECT}
      WHERE i.lang = ? AND i.type = ? AND i.id IN (SELECT value FROM json_each(?))
        AND ${publicItemSql('i')}`;
    const byKey = new Map<string, PublishedEntryRow>();
    types.forEach((type, index) => {
      const wanted: number[] = [];
      for (let at = 0; at < places.length; at++) {
        const place = places[at]!;
        if (typeIndex[place] === index) wanted.push(ids[place]!);
      }
      if (wanted.length === 0) return;
      const rows = this.#ctx.read(() =>
        this.#ctx.stmt<PublishedRow>(sql).all(lang, type, JSON.stringify(wanted)),
      );
      for (const row of rows) byKey.set(`${index}:${row.id}`, publishedFromRow(type, row));
    });
    const rows: (PublishedEntryRow | undefined)[] = [];
    for (let at = 0; at < places.length; at++) {
      const place = places[at]!;
      rows.push(
        place >= 0 && place < ids.length
          ? byKey.get(`${typeIndex[place]}:${ids[place]}`)
          : undefined,
      );
    }
    return rows;
  }
}
