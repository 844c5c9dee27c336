import type { StoreContext } from './store-context.js';
import type { CmsItem, FetchContext, ItemType, ItemUpsertOutcome, UpsertResult } from './types.js';
import {
  itemColumnsSql,
  itemFromRow,
  publicItemSql,
  statusClause,
  type ItemRow,
  type StoredItem,
} from './item-rows.js';
import { contentHash } from './canonical-json.js';
import { assertItemId, deriveItemColumns } from './item-columns.js';

/** Id, status and last change of one item: what deletion probes and planners need. */
export interface ItemIdStatus {
  readonly id: number;
  readonly status: string | null;
  readonly modifiedGmt: string | null;
  readonly deleted: boolean;
}

export interface ItemFilter {
  /**
   * Include tombstoned rows.
   * @default false
   */
  readonly includeDeleted?: boolean;
  /** Only these statuses (`publish`, `draft`, `inherit`...). @default all statuses */
  readonly statuses?: readonly string[];
}

export interface IterateItemsOptions extends ItemFilter {
  /** Only items with `modified_gmt` strictly after this value. @default no bound */
  readonly modifiedAfterGmt?: string;
  /**
   * Rows read per query. Iteration reads chunk by chunk (keyset on id) instead of holding a
   * SQLite cursor open, so the caller may write to the store between rows (an open
   * better-sqlite3 iterator would make every write fail with "connection is busy").
   * @default 500
   */
  readonly chunkSize?: number;
}

export interface UpsertItemsOptions {
  /**
   * The `context` the page was fetched with.
   * @default 'view'
   */
  readonly context?: FetchContext;
}

interface ExistingRow {
  id: number;
  content_hash: string;
  context: string;
  deleted_at: string | null;
}

const UPSERT_SQL = `
  INSERT INTO items (lang, type, id, status, slug, parent, menu_order, sticky, author,
                     featured_media, date_gmt, modified_gmt, link, title, json, content_hash,
                     context, fetched_at, deleted_at)
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, NULL)
  ON CONFLICT (lang, type, id) DO UPDATE SET
    status = excluded.status, slug = excluded.slug, parent = excluded.parent,
    menu_order = excluded.menu_order, sticky = excluded.sticky, author = excluded.author,
    featured_media = excluded.featured_media, date_gmt = excluded.date_gmt,
    modified_gmt = excluded.modified_gmt, link = excluded.link, title = excluded.title,
    json = excluded.json, content_hash = excluded.content_hash, context = excluded.context,
    fetched_at = excluded.fetched_at, deleted_at = NULL`;

/** What deciding site paths needs of a public item. */
export interface PublicItemSummary {
  readonly type: ItemType;
  readonly id: number;
  readonly link: string | null;
  readonly contentHash: string;
}

/** The `items` table: the mirrored posts, pages and media of every language. */
export class ItemsRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /**
   * Writes one fetched page of items in ONE transaction and says, per item, whether it was
   * new, changed or the same. `content_hash` (sha256 of the canonical JSON) decides; a change
   * of `context` alone also counts as `updated`. An unchanged row is not rewritten. A
   * tombstoned item that comes back is `created` with `undeleted: true`. Items are validated
   * (positive integer `id`) before anything is written.
   */
  upsertPage(
    lang: string,
    type: ItemType,
    items: readonly CmsItem[],
    options: UpsertItemsOptions = {},
  ): UpsertResult {
    items.forEach((item, index) => assertItemId(item, index));
    const context = options.context ?? 'view';
    // One query for the page's current rows instead of one per item.
    const select = this.#ctx.stmt<ExistingRow>(
      `SELECT id, content_hash, context, deleted_at FROM items
       WHERE lang = ? AND type = ? AND id IN (SELECT value FROM json_each(?))`,
    );
    const upsert = this.#ctx.stmt(UPSERT_SQL);
    return this.#ctx.write(() => {
      const fetchedAt = this.#ctx.nowIso();
      const existing = new Map<number, ExistingRow>();
      for (const row of select.all(lang, type, JSON.stringify(items.map((item) => item.id)))) {
        existing.set(row.id, row);
      }
      const outcomes: ItemUpsertOutcome[] = [];
      let created = 0;
      let updated = 0;
      let unchanged = 0;
      for (const item of items) {
        const hash = contentHash(item);
        const before = existing.get(item.id);
        const undeleted = before !== undefined && before.deleted_at !== null;
        if (
          before !== undefined &&
          !undeleted &&
          before.content_hash === hash &&
          before.context === context
        ) {
          unchanged += 1;
          outcomes.push({ id: item.id, outcome: 'unchanged', undeleted: false });
          continue;
        }
        const columns = deriveItemColumns(type, item);
        // Positional parameters: binding by name costs a property lookup per column per row.
        upsert.run(
          lang,
          type,
          item.id,
          columns.status,
          columns.slug,
          columns.parent,
          columns.menuOrder,
          columns.sticky,
          columns.author,
          columns.featuredMedia,
          columns.dateGmt,
          columns.modifiedGmt,
          columns.link,
          columns.title,
          JSON.stringify(item),
          hash,
          context,
          fetchedAt,
        );
        // An id twice in one page (the remote changed during the crawl) compares with the
        // first copy, as if the pages had been stored one by one.
        existing.set(item.id, { id: item.id, content_hash: hash, context, deleted_at: null });
        if (before === undefined || undeleted) {
          created += 1;
          outcomes.push({ id: item.id, outcome: 'created', undeleted });
        } else {
          updated += 1;
          outcomes.push({ id: item.id, outcome: 'updated', undeleted: false });
        }
      }
      return { outcomes, created, updated, unchanged };
    }, 'storing items');
  }

  /**
   * Marks items as gone from the remote (`deleted_at` = now). Returns how many live rows
   * became tombstones; unknown ids and rows already tombstoned are left as they are.
   */
  tombstone(lang: string, type: ItemType, ids: readonly number[]): number {
    const mark = this.#ctx.stmt(
      'UPDATE items SET deleted_at = ? WHERE lang = ? AND type = ? AND id = ? AND deleted_at IS NULL',
    );
    return this.#ctx.write(() => {
      const now = this.#ctx.nowIso();
      let changed = 0;
      for (const id of ids) changed += mark.run(now, lang, type, id).changes;
      return changed;
    }, 'tombstoning items');
  }

  /** One item, tombstoned or not; undefined when it was never stored. */
  get(lang: string, type: ItemType, id: number): StoredItem | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<ItemRow>(
          `SELECT ${itemColumnsSql()} FROM items WHERE lang = ? AND type = ? AND id = ?`,
        )
        .get(lang, type, id),
    );
    return row === undefined ? undefined : itemFromRow(row);
  }

  /** Live items (and tombstones with `includeDeleted`) with this slug. Slugs are data: any text. */
  findBySlug(lang: string, type: ItemType, slug: string, filter: ItemFilter = {}): StoredItem[] {
    const deleted = filter.includeDeleted ? '' : ' AND deleted_at IS NULL';
    const sql = `SELECT ${itemColumnsSql()} FROM items WHERE lang = ? AND type = ? AND slug = ?${deleted}${statusClause('status', filter.statuses)} ORDER BY id`;
    const rows = this.#ctx.read(() =>
      this.#ctx.stmt<ItemRow>(sql).all(lang, type, slug, ...(filter.statuses ?? [])),
    );
    return rows.map(itemFromRow);
  }

  /** Every id with its status, ordered by id: the local side of a deletion probe. */
  listIds(lang: string, type: ItemType, filter: ItemFilter = {}): ItemIdStatus[] {
    const deleted = filter.includeDeleted ? '' : ' AND deleted_at IS NULL';
    const sql = `SELECT id, status, modified_gmt, deleted_at FROM items WHERE lang = ? AND type = ?${deleted}${statusClause('status', filter.statuses)} ORDER BY id`;
    const rows = this.#ctx.read(() =>
      this.#ctx
        .stmt<{
          id: number;
          status: string | null;
          modified_gmt: string | null;
          deleted_at: string | null;
        }>(sql)
        .all(lang, type, ...(filter.statuses ?? [])),
    );
    return rows.map((row) => ({
      id: row.id,
      status: row.status,
      modifiedGmt: row.modified_gmt,
      deleted: row.deleted_at !== null,
    }));
  }

  /**
   * Up to `limit` ids of live items after `afterId`, in id order: the local side of a deletion
   * probe read a chunk at a time, so that it costs the same memory whatever the cache holds.
   */
  liveIdsAfter(lang: string, type: ItemType, afterId: number, limit: number): number[] {
    const sql =
      'SELECT id FROM items WHERE lang = ? AND type = ? AND id > ? AND deleted_at IS NULL ORDER BY id LIMIT ?';
    return this.#ctx.read(() =>
      this.#ctx
        .stmt<{ id: number }>(sql)
        .all(lang, type, afterId, limit)
        .map((row) => row.id),
    );
  }

  /** Number of live items (plus tombstones with `includeDeleted`), optionally of some statuses. */
  count(lang: string, type: ItemType, filter: ItemFilter = {}): number {
    const deleted = filter.includeDeleted ? '' : ' AND deleted_at IS NULL';
    const sql = `SELECT count(*) AS n FROM items WHERE lang = ? AND type = ?${deleted}${statusClause('status', filter.statuses)}`;
    return this.#ctx.read(
      () => this.#ctx.stmt<{ n: number }>(sql).get(lang, type, ...(filter.statuses ?? []))?.n ?? 0,
    );
  }

  /** The latest `modified_gmt` of the live items of a lang x type; undefined when none. */
  maxModifiedGmt(lang: string, type: ItemType): string | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<{ m: string | null }>(
          'SELECT max(modified_gmt) AS m FROM items WHERE lang = ? AND type = ? AND deleted_at IS NULL',
        )
        .get(lang, type),
    );
    return row?.m ?? undefined;
  }

  /**
   * Public items (see `publicItemSql`) of a lang x type in id order, without their JSON: what
   * assigning site paths needs, read in one query.
   */
  publicSummaries(lang: string, type: ItemType): PublicItemSummary[] {
    const sql = `SELECT type, id, link, content_hash FROM items i
      WHERE i.lang = ? AND i.type = ? AND ${publicItemSql('i')} ORDER BY id`;
    return this.#ctx.read(() =>
      this.#ctx
        .stmt<{ type: ItemType; id: number; link: string | null; content_hash: string }>(sql)
        .all(lang, type)
        .map((row) => ({
          type: row.type,
          id: row.id,
          link: row.link,
          contentHash: row.content_hash,
        })),
    );
  }

  /**
   * `publicSummaries` read `chunkSize` rows a query, for a caller that must not hold every
   * public item of a large site at once. The caller may write between rows.
   */
  *iteratePublicSummaries(
    lang: string,
    type: ItemType,
    chunkSize = 2000,
  ): Generator<PublicItemSummary> {
    const sql = `SELECT type, id, link, content_hash FROM items i
      WHERE i.lang = ? AND i.type = ? AND ${publicItemSql('i')} AND i.id > ? ORDER BY id LIMIT ?`;
    let after = Number.MIN_SAFE_INTEGER;
    for (;;) {
      const rows = this.#ctx.read(() =>
        this.#ctx
          .stmt<{ type: ItemType; id: number; link: string | null; content_hash: string }>(sql)
          .all(lang, type, after, chunkSize),
      );
      for (const row of rows) {
        yield { type: row.type, id: row.id, link: row.link, contentHash: row.content_hash };
      }
      const last = rows.at(-1);
      if (last === undefined || rows.length < chunkSize) return;
      after = last.id;
    }
  }

  /**
   * The latest time anything of a language was written (`fetched_at`: content stored) or
   * tombstoned (`deleted_at`); undefined when the language has no items. Two index look-ups.
   */
  lastChangeAt(lang: string): string | undefined {
    const latest = (column: 'fetched_at' | 'deleted_at'): string | null =>
      this.#ctx.read(
        () =>
          this.#ctx
            .stmt<{ m: string | null }>(`SELECT max(${column}) AS m FROM items WHERE lang = ?`)
            .get(lang)?.m ?? null,
      );
    const fetched = latest('fetched_at');
    const deleted = latest('deleted_at');
    if (fetched === null) return deleted ?? undefined;
    return deleted !== null && deleted > fetched ? deleted : fetched;
  }

  /**
   * Languages that have at least one item row, sorted. Found by seeking the next language in
   * an index (a few page reads per language), not by reading every row's index entry as
   * `DISTINCT` does: every `run` asks, even one that builds nothing.
   */
  langs(): string[] {
    return this.#ctx.read(() =>
      this.#ctx
        .stmt<{ lang: string }>(
          `WITH RECURSIVE found(lang) AS (
             SELECT min(lang) FROM items
             UNION ALL
             SELECT (SELECT min(lang) FROM items WHERE lang > found.lang) FROM found
             WHERE found.lang IS NOT NULL)
           SELECT lang FROM found WHERE lang IS NOT NULL ORDER BY lang`,
        )
        .all()
        .map((row) => row.lang),
    );
  }

  /**
   * Items of a lang x type in id order, read `chunkSize` rows at a time so that memory stays
   * flat whatever the cache holds, and so that the caller may write between rows.
   */
  *iterate(lang: string, type: ItemType, options: IterateItemsOptions = {}): Generator<StoredItem> {
    const chunkSize = options.chunkSize ?? 500;
    if (!Number.isSafeInteger(chunkSize) || chunkSize < 1) {
      throw new RangeError(`chunkSize must be a positive integer, got ${String(chunkSize)}`);
    }
    const deleted = options.includeDeleted ? '' : ' AND deleted_at IS NULL';
    const after = options.modifiedAfterGmt === undefined ? '' : ' AND modified_gmt > ?';
    const sql = `SELECT ${itemColumnsSql()} FROM items WHERE lang = ? AND type = ? AND id > ?${deleted}${after}${statusClause('status', options.statuses)} ORDER BY id LIMIT ?`;
    const params: unknown[] = [
      ...(options.modifiedAfterGmt === undefined ? [] : [options.modifiedAfterGmt]),
      ...(options.statuses ?? []),
    ];
    let lastId = 0; // ids are positive (checked on upsert)
    for (;;) {
      const rows = this.#ctx.read(() =>
        this.#ctx.stmt<ItemRow>(sql).all(lang, type, lastId, ...params, chunkSize),
      );
      for (const row of rows) yield itemFromRow(row);
      const last = rows.at(-1);
      if (last === undefined || rows.length < chunkSize) return;
      lastId = last.id;
    }
  }
}
