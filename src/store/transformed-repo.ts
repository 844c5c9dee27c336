import { BUILT_TYPES } from '../collections.js';
import type { StoreContext } from './store-context.js';
import type { ItemType } from './types.js';
import type { ItemRow, StoredItem } from './item-rows.js';
import { itemColumnsSql, itemFromRow, publicItemSql } from './item-rows.js';
import { fromJsonColumn, toJsonColumn } from './json-column.js';
import { fromRow as recordFromRow, type RowOf } from './row-fields.js';
import {
  PUBLISHED_SELECT,
  publishedFromRow,
  type PublishedEntryRow,
  type PublishedRow,
} from './published-order.js';

export type { PublishedEntryRow } from './published-order.js';

/** The transform stage's output for one item. */
export interface Transformed {
  readonly lang: string;
  readonly type: ItemType;
  readonly id: number;
  /** The transform version that produced it; a newer version makes the row stale. */
  readonly transformVersion: string;
  /** `items.content_hash` of the content it was made from. */
  readonly sourceHash: string;
  readonly html: string;
  readonly excerpt: string | null;
  /** Anything else the transform derived (headings, media used, links...). JSON. */
  readonly meta: unknown;
  readonly transformedAt: string;
}

export type TransformedInput = Omit<Transformed, 'transformedAt' | 'excerpt' | 'meta'> & {
  readonly excerpt?: string | null;
  readonly meta?: unknown;
};

export interface StaleOptions {
  /** Only these types. @default all types */
  readonly types?: readonly ItemType[];
  /** Rows read per query (see `ItemsRepo.iterate`). @default 500 */
  readonly chunkSize?: number;
}

/** `meta` is stored as JSON text. */
type TransformedRow = RowOf<Omit<Transformed, 'meta'>> & { meta: string | null };

function fromRow(row: TransformedRow): Transformed {
  return { ...recordFromRow<Omit<Transformed, 'meta'>>(row), meta: fromJsonColumn(row.meta) };
}

// Live items whose output is missing, made from other content, or by another version. Read
// through `items_live_hashes` (schema upgrade 8), which holds every column this needs of an item.
const STALE_WHERE = `
  i.lang = ? AND i.deleted_at IS NULL
  AND (t.id IS NULL OR t.source_hash <> i.content_hash OR t.transform_version <> ?)`;

/**
 * The rows of `transformed_lacking_facts` (schema upgrade 15), word for word: SQLite uses a
 * partial index only for a query whose `WHERE` states the index's.
 */
const LACKING_FACTS_WHERE = `CASE WHEN json_valid(t.meta) THEN json_type(t.meta, '$.htmlDigest') IS NOT 'text'
        OR json_type(t.meta, '$.media') IS NOT 'array' ELSE 1 END`;

/** `transformed`: per-item HTML keyed by transform version, so unchanged items are never redone. */
export class TransformedRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  get(lang: string, type: ItemType, id: number): Transformed | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<TransformedRow>('SELECT * FROM transformed WHERE lang = ? AND type = ? AND id = ?')
        .get(lang, type, id),
    );
    return row === undefined ? undefined : fromRow(row);
  }

  /** Only the HTML of an item's output; undefined when there is none. */
  getHtml(lang: string, type: ItemType, id: number): string | undefined {
    return this.#ctx.read(
      () =>
        this.#ctx
          .stmt<{ html: string }>(
            'SELECT html FROM transformed WHERE lang = ? AND type = ? AND id = ?',
          )
          .get(lang, type, id)?.html,
    );
  }

  /**
   * Every public item of a lang x type (the rule of `publicItemSql`) with its transform output
   * but not the HTML, in id order, in one query.
   */
  listPublished(lang: string, type: ItemType): PublishedEntryRow[] {
    const sql = `${PUBLISHED_SELECT}
      WHERE i.lang = ? AND i.type = ? AND ${publicItemSql('i')} ORDER BY i.id`;
    return this.#ctx.read(() =>
      this.#ctx
        .stmt<PublishedRow>(sql)
        .all(lang, type)
        .map((row) => publishedFromRow(type, row)),
    );
  }

  /**
   * `meta.sitePath` of the output of every public page and post of a language that has one,
   * by `type:id`: where another language's pages link to for this item.
   */
  publicSitePaths(lang: string): Map<string, string> {
    // Per type and in id order, so that SQLite walks the `items_public_entries` index.
    const sql = `SELECT i.type, i.id,
        CASE WHEN json_valid(t.meta) THEN json_extract(t.meta, '$.sitePath') END AS site_path
      FROM items i JOIN transformed t ON t.lang = i.lang AND t.type = i.type AND t.id = i.id
      WHERE i.lang = ? AND i.type = ? AND ${publicItemSql('i')} ORDER BY i.id`;
    const paths = new Map<string, string>();
    this.#ctx.read(() => {
      for (const type of BUILT_TYPES) {
        for (const row of this.#ctx
          .stmt<{ type: string; id: number; site_path: unknown }>(sql)
          .all(lang, type)) {
          if (typeof row.site_path === 'string') paths.set(`${row.type}:${row.id}`, row.site_path);
        }
      }
    });
    return paths;
  }

  /** The latest `transformed_at` of a language; undefined when nothing was transformed. */
  lastTransformedAt(lang: string): string | undefined {
    return (
      this.#ctx.read(
        () =>
          this.#ctx
            .stmt<{ m: string | null }>(
              'SELECT max(transformed_at) AS m FROM transformed WHERE lang = ?',
            )
            .get(lang)?.m,
      ) ?? undefined
    );
  }

  /** Stores (replaces) an item's output. The item must be in the cache (foreign key). */
  put(input: TransformedInput): void {
    const upsert = this.#ctx.stmt(`
      INSERT INTO transformed (lang, type, id, transform_version, source_hash, html, excerpt,
                               meta, transformed_at)
      VALUES (@lang, @type, @id, @transformVersion, @sourceHash, @html, @excerpt, @meta, @now)
      ON CONFLICT (lang, type, id) DO UPDATE SET
        transform_version = excluded.transform_version, source_hash = excluded.source_hash,
        html = excluded.html, excerpt = excluded.excerpt, meta = excluded.meta,
        transformed_at = excluded.transformed_at`);
    this.#ctx.write(
      () =>
        upsert.run({
          lang: input.lang,
          type: input.type,
          id: input.id,
          transformVersion: input.transformVersion,
          sourceHash: input.sourceHash,
          html: input.html,
          excerpt: input.excerpt ?? null,
          meta: toJsonColumn(input.meta),
          now: this.#ctx.nowIso(),
        }),
      'storing transformed HTML',
    );
  }

  /** How many live items of a language need transforming with `transformVersion`. */
  countStale(lang: string, transformVersion: string, options: StaleOptions = {}): number {
    const types = options.types ?? [];
    const sql = `SELECT count(*) AS n FROM items i INDEXED BY items_live_hashes
      LEFT JOIN transformed t ON t.lang = i.lang AND t.type = i.type AND t.id = i.id
      WHERE ${STALE_WHERE}${typeClauseOf(types)}`;
    return this.#ctx.read(
      () => this.#ctx.stmt<{ n: number }>(sql).get(lang, transformVersion, ...types)?.n ?? 0,
    );
  }

  /**
   * Live items needing a transform, by type then id, read in chunks: the caller may `put`
   * each result while iterating (a row put is no longer stale and is not seen again).
   */
  iterateStale(
    lang: string,
    transformVersion: string,
    options: StaleOptions = {},
  ): Generator<StoredItem> {
    const types = options.types ?? [];
    const sql = `SELECT ${itemColumnsSql('i')} FROM items i INDEXED BY items_live_hashes
      LEFT JOIN transformed t ON t.lang = i.lang AND t.type = i.type AND t.id = i.id
      WHERE ${STALE_WHERE}${typeClauseOf(types)} AND (i.type, i.id) > (?, ?)
      ORDER BY i.type, i.id LIMIT ?`;
    return this.#staleChunks(sql, [lang, transformVersion, ...types], options.chunkSize);
  }

  /**
   * `iterateStale` among the items logged as changed up to `upTo` (`loggedChanges`): every
   * stale item when the language's last complete transform used `transformVersion`.
   */
  iterateStaleLogged(
    lang: string,
    transformVersion: string,
    upTo: number,
    options: StaleOptions = {},
  ): Generator<StoredItem> {
    const types = options.types ?? [];
    const sql = `SELECT ${itemColumnsSql('i')}
      FROM (SELECT DISTINCT type, id FROM transform_changes WHERE lang = ? AND seq <= ?) c
      JOIN items i ON i.lang = ? AND i.type = c.type AND i.id = c.id
      LEFT JOIN transformed t ON t.lang = i.lang AND t.type = i.type AND t.id = i.id
      WHERE ${STALE_WHERE}${typeClauseOf(types)} AND (i.type, i.id) > (?, ?)
      ORDER BY i.type, i.id LIMIT ?`;
    const params = [lang, upTo, lang, lang, transformVersion, ...types];
    return this.#staleChunks(sql, params, options.chunkSize);
  }

  /**
   * The last change logged for `lang` (0 when none) when its last complete transform used
   * `transformVersion` and its changes have been logged since (schema upgrade 20); undefined
   * otherwise: every live item must be read.
   */
  loggedChanges(lang: string, transformVersion: string): { upTo: number } | undefined {
    return this.#ctx.read(() => {
      const logged = this.#ctx
        .stmt('SELECT transform_version FROM transform_logging WHERE lang = ?')
        .pluck()
        .get(lang) as string | undefined;
      if (logged !== transformVersion) return undefined;
      const last = this.#ctx
        .stmt('SELECT max(seq) FROM transform_changes WHERE lang = ?')
        .pluck()
        .get(lang) as number | null;
      return { upTo: last ?? 0 };
    });
  }

  /**
   * Starts a pass over every live item of `lang`: its log emptied (the pass reads it all),
   * its changes logged from here on, and no pass complete until `finishLoggedPass`.
   */
  startLoggedPass(lang: string): void {
    this.#ctx.write(() => {
      this.#ctx.stmt('DELETE FROM transform_changes WHERE lang = ?').run(lang);
      this.#ctx
        .stmt('INSERT OR REPLACE INTO transform_logging (lang, transform_version) VALUES (?, ?)')
        .run(lang, '');
    }, 'starting a transform log');
  }

  /**
   * Records a complete transform of `lang` with `transformVersion`: the changes logged up to
   * `upTo` are done with; later ones are read by the next transform.
   */
  finishLoggedPass(lang: string, transformVersion: string, upTo: number): void {
    this.#ctx.write(() => {
      this.#ctx.stmt('DELETE FROM transform_changes WHERE lang = ? AND seq <= ?').run(lang, upTo);
      this.#ctx
        .stmt('INSERT OR REPLACE INTO transform_logging (lang, transform_version) VALUES (?, ?)')
        .run(lang, transformVersion);
    }, 'ending a transform log');
  }

  /** Rows of `sql` (its last three parameters: the last type, id, and the chunk's size). */
  *#staleChunks(sql: string, params: readonly unknown[], chunkSize = 500): Generator<StoredItem> {
    if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) {
      throw new RangeError(`chunkSize must be a positive integer, got ${String(chunkSize)}`);
    }
    let lastType = '';
    let lastId = 0;
    for (;;) {
      const rows = this.#ctx.read(() =>
        this.#ctx.stmt<ItemRow>(sql).all(...params, lastType, lastId, chunkSize),
      );
      for (const row of rows) yield itemFromRow(row);
      const last = rows.at(-1);
      if (last === undefined || rows.length < chunkSize) return;
      lastType = last.type;
      lastId = last.id;
    }
  }

  /**
   * Public items of some types of a language whose output is current (made from their content
   * by `transformVersion`) but stored without the facts of its HTML (no `htmlDigest` string or
   * no `media` array: an older transform), by type then id, `chunkSize` rows a query. Read from
   * an index of those rows only: a cache whose rows all have facts costs one empty lookup. The
   * caller may `put` each result while iterating (a row with facts leaves the index).
   */
  *lackingFacts(
    lang: string,
    transformVersion: string,
    types: readonly ItemType[],
    chunkSize = 2000,
  ): Generator<{ type: ItemType; id: number }> {
    if (types.length === 0) return;
    // INDEXED BY: a query that stopped stating the index's condition fails instead of scanning.
    const sql = `SELECT t.type, t.id FROM transformed t INDEXED BY transformed_lacking_facts
      JOIN items i ON i.lang = t.lang AND i.type = t.type AND i.id = t.id
      WHERE t.lang = ? AND ${LACKING_FACTS_WHERE}
        AND t.type IN (${types.map(() => '?').join(', ')}) AND (t.type, t.id) > (?, ?)
        AND t.transform_version = ? AND t.source_hash = i.content_hash AND ${publicItemSql('i')}
      ORDER BY t.type, t.id LIMIT ?`;
    let last: { type: string; id: number } = { type: '', id: 0 };
    for (;;) {
      const rows = this.#ctx.read(() =>
        this.#ctx
          .stmt<{ type: ItemType; id: number }>(sql)
          .all(lang, ...types, last.type, last.id, transformVersion, chunkSize),
      );
      yield* rows;
      if (rows.length < chunkSize) return;
      last = rows.at(-1) ?? last;
    }
  }

  /** Drops outputs of tombstoned items (their pages are removed by the build). */
  deleteForDeletedItems(lang: string): number {
    const remove = this.#ctx.stmt(`
      DELETE FROM transformed WHERE lang = ? AND EXISTS (
        SELECT 1 FROM items i WHERE i.lang = transformed.lang AND i.type = transformed.type
          AND i.id = transformed.id AND i.deleted_at IS NOT NULL)`);
    return this.#ctx.write(() => remove.run(lang).changes, 'pruning transformed HTML');
  }
}

/** `AND i.type IN (...)` with one parameter a type; '' for every type. */
function typeClauseOf(types: readonly ItemType[]): string {
  return types.length > 0 ? ` AND i.type IN (${types.map(() => '?').join(', ')})` : '';
}
