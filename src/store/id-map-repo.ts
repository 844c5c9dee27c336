import type { StoreContext } from './store-context.js';

/** One migrated object: `sourceId` on the source site became `targetId` on the target. */
export interface IdMapping {
  /** `{site-url}#{lang}` of the source. */
  readonly sourceKey: string;
  /** `posts`, `pages`, `media`, `users`...: whatever kind of id is mapped. */
  readonly type: string;
  readonly sourceId: number;
  readonly targetKey: string;
  readonly targetId: number;
  readonly createdAt: string;
}

/** What `set` did: `unchanged` is the idempotent re-run. */
export type IdMapSetOutcome = 'inserted' | 'unchanged' | 'updated';

interface IdMapRow {
  source_key: string;
  type: string;
  source_id: number;
  target_key: string;
  target_id: number;
  created_at: string;
}

function fromRow(row: IdMapRow): IdMapping {
  return {
    sourceKey: row.source_key,
    type: row.type,
    sourceId: row.source_id,
    targetKey: row.target_key,
    targetId: row.target_id,
    createdAt: row.created_at,
  };
}

/**
 * `id_map`: a migration looks here before creating anything on the target, and records each
 * creation right after it, so a re-run (or a resumed run) never creates an item twice.
 */
export class IdMapRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /** The target id of a source object, or undefined when it was not migrated yet. */
  get(sourceKey: string, type: string, sourceId: number, targetKey: string): number | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<{ target_id: number }>(
          'SELECT target_id FROM id_map WHERE source_key = ? AND type = ? AND source_id = ? AND target_key = ?',
        )
        .get(sourceKey, type, sourceId, targetKey),
    );
    return row?.target_id;
  }

  /**
   * Records a mapping. Recording the same mapping again changes nothing (`unchanged`, the
   * original `created_at` kept); a different target id replaces the old one (`updated`),
   * e.g. after the target item was deleted and created again.
   */
  set(
    sourceKey: string,
    type: string,
    sourceId: number,
    targetKey: string,
    targetId: number,
  ): IdMapSetOutcome {
    const upsert = this.#ctx.stmt(`
      INSERT INTO id_map (source_key, type, source_id, target_key, target_id, created_at)
      VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (source_key, type, source_id, target_key) DO UPDATE SET
        target_id = excluded.target_id, created_at = excluded.created_at
      WHERE target_id <> excluded.target_id`);
    return this.#ctx.write(() => {
      const before = this.get(sourceKey, type, sourceId, targetKey);
      if (before === targetId) return 'unchanged';
      upsert.run(sourceKey, type, sourceId, targetKey, targetId, this.#ctx.nowIso());
      return before === undefined ? 'inserted' : 'updated';
    }, 'recording an id mapping');
  }

  /** Every mapping from one source to one target, optionally of one type, by type and id. */
  list(sourceKey: string, targetKey: string, type?: string): IdMapping[] {
    const rows = this.#ctx.read(() =>
      type === undefined
        ? this.#ctx
            .stmt<IdMapRow>(
              'SELECT * FROM id_map WHERE source_key = ? AND target_key = ? ORDER BY type, source_id',
            )
            .all(sourceKey, targetKey)
        : this.#ctx
            .stmt<IdMapRow>(
              'SELECT * FROM id_map WHERE source_key = ? AND target_key = ? AND type = ? ORDER BY source_id',
            )
            .all(sourceKey, targetKey, type),
    );
    return rows.map(fromRow);
  }
}
