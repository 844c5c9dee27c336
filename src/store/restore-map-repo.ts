import type { StoreContext } from './store-context.js';
import type { ItemType } from './types.js';

/** An item `restore` re-created: `oldId` (deleted for good) came back as `newId`. */
export interface RestoreMapping {
  readonly lang: string;
  readonly type: ItemType;
  readonly oldId: number;
  readonly newId: number;
  readonly runId: number | null;
  /** Old URL → new URL: the item's link (a file: its URL and each size's), for relinking. */
  readonly urls: readonly (readonly [string, string])[];
  readonly createdAt: string;
}

interface MapRow {
  lang: string;
  type: ItemType;
  old_id: number;
  new_id: number;
  run_id: number | null;
  urls: string;
  created_at: string;
}

function fromRow(row: MapRow): RestoreMapping {
  return {
    lang: row.lang,
    type: row.type,
    oldId: row.old_id,
    newId: row.new_id,
    runId: row.run_id,
    urls: JSON.parse(row.urls) as [string, string][],
    createdAt: row.created_at,
  };
}

/**
 * `restore_map` (schema upgrade 12): restore records each re-created item here right after
 * the site's answer (a batch's answers in one transaction), and reads it before planning, so
 * nothing is created twice.
 */
export class RestoreMapRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /** Records (or replaces) the new id of a re-created item. */
  set(mapping: Omit<RestoreMapping, 'createdAt'>): void {
    const upsert = this.#ctx.stmt(`
      INSERT INTO restore_map (lang, type, old_id, new_id, run_id, urls, created_at)
      VALUES (?, ?, ?, ?, ?, ?, ?)
      ON CONFLICT (lang, type, old_id) DO UPDATE SET
        new_id = excluded.new_id, run_id = excluded.run_id, urls = excluded.urls,
        created_at = excluded.created_at`);
    const m = mapping;
    this.#ctx.write(
      () =>
        upsert.run(
          m.lang,
          m.type,
          m.oldId,
          m.newId,
          m.runId,
          JSON.stringify(m.urls),
          this.#ctx.nowIso(),
        ),
      'recording a restored item',
    );
  }

  /** Every re-created item of a language, by type and old id. */
  list(lang: string): RestoreMapping[] {
    const sql = 'SELECT * FROM restore_map WHERE lang = ? ORDER BY type, old_id';
    return this.#ctx.read(() => this.#ctx.stmt<MapRow>(sql).all(lang).map(fromRow));
  }
}
