import { fromRow as recordFromRow, type RowOf } from './row-fields.js';
import type { StoreContext } from './store-context.js';
import type { ItemType } from './types.js';

/**
 * One row of `item_versions`: a version of an item that a `--backup` pull stored, or (with
 * `gone`) the pull that first missed the item. `json` is the item exactly as fetched.
 */
export interface ItemVersion {
  /** Append order: a later row of the same item has a larger `seq`. */
  readonly seq: number;
  readonly lang: string;
  readonly type: ItemType;
  readonly id: number;
  /** `runs.id` of the pull that saw it; null when not recorded. */
  readonly runId: number | null;
  /** When that pull stored this version, or first missed the item (ISO 8601 UTC). */
  readonly seenAt: string;
  readonly gone: boolean;
  readonly status: string | null;
  readonly modifiedGmt: string | null;
  /** null when `gone`. */
  readonly contentHash: string | null;
  /** null when `gone`. */
  readonly json: string | null;
}

/** `gone` is stored as 0 or 1. */
type VersionRow = RowOf<Omit<ItemVersion, 'gone'>> & { gone: number };

function fromRow(row: VersionRow): ItemVersion {
  return { ...recordFromRow<Omit<ItemVersion, 'gone'>>(row), gone: row.gone === 1 };
}

/** The latest history row of the item `i` (an `items` alias) as a scalar subquery on `column`. */
function latestOf(column: 'content_hash' | 'gone'): string {
  return `(SELECT v.${column} FROM item_versions v
     WHERE v.lang = i.lang AND v.type = i.type AND v.id = i.id ORDER BY v.seq DESC LIMIT 1)`;
}

/**
 * Copies the `items` rows of the given ids into the history, unless the item's latest version
 * has the same content (a change of `context` alone, or a page stored twice in one pull).
 */
const RECORD_STORED_SQL = `
  INSERT INTO item_versions (lang, type, id, run_id, seen_at, gone, status, modified_gmt,
                             content_hash, json)
  SELECT i.lang, i.type, i.id, ?, i.fetched_at, 0, i.status, i.modified_gmt, i.content_hash, i.json
  FROM items i
  WHERE i.lang = ? AND i.type = ? AND i.id IN (SELECT value FROM json_each(?))
    AND i.deleted_at IS NULL
    AND coalesce(${latestOf('content_hash')}, '') <> i.content_hash`;

/** A `gone` row for each given tombstoned item whose latest history row is not `gone` already. */
const RECORD_GONE_SQL = `
  INSERT INTO item_versions (lang, type, id, run_id, seen_at, gone, status, modified_gmt)
  SELECT i.lang, i.type, i.id, ?, i.deleted_at, 1, i.status, i.modified_gmt
  FROM items i
  WHERE i.lang = ? AND i.type = ? AND i.id IN (SELECT value FROM json_each(?))
    AND i.deleted_at IS NOT NULL
    AND coalesce(${latestOf('gone')}, 0) = 0`;

const COLUMNS = `seq, lang, type, id, run_id, seen_at, gone, status, modified_gmt, content_hash, json`;

/**
 * `item_versions`: the kept history of a backup cache (schema upgrade 11). Written by the pull
 * in `--backup` mode right after it stores items or tombstones them, in the same transaction;
 * read by `diff --since` (and restore).
 */
export class ItemVersionsRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /**
   * Appends the stored version of each of `ids` (as `items` holds it now) seen by pull
   * `runId`; an item whose latest version has the same content hash adds nothing. Call it
   * after `items.upsertPage`, in the same transaction. Returns the rows added.
   */
  recordStored(lang: string, type: ItemType, ids: readonly number[], runId: number): number {
    if (ids.length === 0) return 0;
    const insert = this.#ctx.stmt(RECORD_STORED_SQL);
    return this.#ctx.write(
      () => insert.run(runId, lang, type, JSON.stringify(ids)).changes,
      'keeping item history',
    );
  }

  /**
   * Appends a `gone` row for each of `ids` that `items` holds as a tombstone, at the time it
   * was tombstoned, unless its latest row says gone already. Call it after `items.tombstone`.
   */
  recordGone(lang: string, type: ItemType, ids: readonly number[], runId: number): number {
    if (ids.length === 0) return 0;
    const insert = this.#ctx.stmt(RECORD_GONE_SQL);
    return this.#ctx.write(
      () => insert.run(runId, lang, type, JSON.stringify(ids)).changes,
      'keeping item history',
    );
  }

  /** Every history row of one item, oldest first. */
  versionsOf(lang: string, type: ItemType, id: number): ItemVersion[] {
    const sql = `SELECT ${COLUMNS} FROM item_versions WHERE lang = ? AND type = ? AND id = ? ORDER BY seq`;
    return this.#ctx.read(() => this.#ctx.stmt<VersionRow>(sql).all(lang, type, id).map(fromRow));
  }

  /** The item's latest row seen at or before `at` (ISO 8601 UTC); undefined when none. */
  versionAt(lang: string, type: ItemType, id: number, at: string): ItemVersion | undefined {
    const sql = `SELECT ${COLUMNS} FROM item_versions
      WHERE lang = ? AND type = ? AND id = ? AND seen_at <= ? ORDER BY seq DESC LIMIT 1`;
    const row = this.#ctx.read(() => this.#ctx.stmt<VersionRow>(sql).get(lang, type, id, at));
    return row === undefined ? undefined : fromRow(row);
  }

  /** Items of `lang` with a history row seen after `at`, by type and id. */
  changedAfter(lang: string, at: string): { type: ItemType; id: number }[] {
    const sql = `SELECT DISTINCT type, id FROM item_versions
      WHERE lang = ? AND seen_at > ? ORDER BY type, id`;
    return this.#ctx.read(() => this.#ctx.stmt<{ type: ItemType; id: number }>(sql).all(lang, at));
  }

  /**
   * The pull that started the kept history of `lang` (the first that recorded a row), with
   * the time it started; undefined when the language has no history.
   */
  historyStart(lang: string): { runId: number; startedAt: string } | undefined {
    const sql = `SELECT r.id AS run_id, r.started_at FROM runs r
      WHERE r.id = (SELECT min(run_id) FROM item_versions WHERE lang = ?)`;
    const row = this.#ctx.read(() =>
      this.#ctx.stmt<{ run_id: number; started_at: string }>(sql).get(lang),
    );
    return row === undefined ? undefined : { runId: row.run_id, startedAt: row.started_at };
  }
}
