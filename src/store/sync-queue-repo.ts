import type { StoreContext } from './store-context.js';
import type { ItemType } from './types.js';

/**
 * What the pull still has to fetch for an item it stored: its revisions, the assets it uses,
 * or (for a page whose link changed) its children, whose links changed with it.
 */
export type SyncTask = 'revisions' | 'assets' | 'children';

/** Pending tasks of one language, by task and collection. */
export interface SyncQueueCount {
  readonly lang: string;
  readonly task: SyncTask;
  readonly type: ItemType;
  readonly count: number;
}

/**
 * `sync_queue`: per-item work left over from a pull. Call `add` inside the same
 * `store.transaction()` as `items.upsertPage`, so an item and its pending work commit together.
 */
export class SyncQueueRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /** Queues `task` for these items; an item already queued for it stays queued once. */
  add(lang: string, task: SyncTask, type: ItemType, ids: readonly number[]): number {
    if (ids.length === 0) return 0;
    const insert = this.#ctx.stmt(
      'INSERT INTO sync_queue (lang, task, type, id, queued_at) VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING',
    );
    return this.#ctx.write(() => {
      const now = this.#ctx.nowIso();
      let added = 0;
      for (const id of ids) added += insert.run(lang, task, type, id, now).changes;
      return added;
    }, 'queueing sync work');
  }

  /** Up to `limit` queued ids greater than `afterId`, in id order (keyset: skips failed ones). */
  next(lang: string, task: SyncTask, type: ItemType, afterId: number, limit: number): number[] {
    return this.#ctx.read(() =>
      this.#ctx
        .stmt<{ id: number }>(
          'SELECT id FROM sync_queue WHERE lang = ? AND task = ? AND type = ? AND id > ? ORDER BY id LIMIT ?',
        )
        .all(lang, task, type, afterId, limit)
        .map((row) => row.id),
    );
  }

  /** Marks work as done. */
  remove(lang: string, task: SyncTask, type: ItemType, ids: readonly number[]): number {
    if (ids.length === 0) return 0;
    const remove = this.#ctx.stmt(
      'DELETE FROM sync_queue WHERE lang = ? AND task = ? AND type = ? AND id = ?',
    );
    return this.#ctx.write(() => {
      let removed = 0;
      for (const id of ids) removed += remove.run(lang, task, type, id).changes;
      return removed;
    }, 'dequeueing sync work');
  }

  /** Pending work per language, task and collection (only non-zero counts). */
  counts(lang?: string): SyncQueueCount[] {
    const sql = `SELECT lang, task, type, count(*) AS count FROM sync_queue${lang === undefined ? '' : ' WHERE lang = ?'} GROUP BY lang, task, type ORDER BY lang, task, type`;
    return this.#ctx.read(() =>
      this.#ctx.stmt<SyncQueueCount>(sql).all(...(lang === undefined ? [] : [lang])),
    );
  }
}
