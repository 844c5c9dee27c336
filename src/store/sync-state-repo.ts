import type { StoreContext } from './store-context.js';
import type { FetchContext } from './types.js';
import { fromJsonColumn, toJsonColumn } from './json-column.js';

/** The crawl's memory for one language x collection. */
export interface SyncState {
  readonly lang: string;
  /** `posts`, `pages`, `media`, or any name the sync stage uses (`revisions:posts`...). */
  readonly collection: string;
  /** Latest `modified_gmt` fully committed; the next pull asks for changes after it. */
  readonly watermarkGmt: string | null;
  readonly context: FetchContext | null;
  readonly remoteTotal: number | null;
  readonly localTotal: number | null;
  /**
   * Items the site counted (`X-CMS-Total`) but did not list to this reader at the last full
   * listing; null when unknown (no full listing yet, or no count header).
   */
  readonly unlisted: number | null;
  /** Pulls since the last full listing of the collection; null before the first. */
  readonly pullsSinceListing: number | null;
  /** Resume point of an interrupted crawl (JSON owned by the sync stage); null when done. */
  readonly cursor: unknown;
  readonly updatedAt: string;
}

/** Fields to change; `undefined` (absent) keeps the stored value, `null` clears it. */
export type SyncStatePatch = Partial<
  Pick<
    SyncState,
    | 'watermarkGmt'
    | 'context'
    | 'remoteTotal'
    | 'localTotal'
    | 'unlisted'
    | 'pullsSinceListing'
    | 'cursor'
  >
>;

interface SyncStateRow {
  lang: string;
  collection: string;
  watermark_gmt: string | null;
  context: FetchContext | null;
  remote_total: number | null;
  local_total: number | null;
  unlisted: number | null;
  pulls_since_listing: number | null;
  cursor: string | null;
  updated_at: string;
}

function fromRow(row: SyncStateRow): SyncState {
  return {
    lang: row.lang,
    collection: row.collection,
    watermarkGmt: row.watermark_gmt,
    context: row.context,
    remoteTotal: row.remote_total,
    localTotal: row.local_total,
    unlisted: row.unlisted,
    pullsSinceListing: row.pulls_since_listing,
    cursor: fromJsonColumn(row.cursor),
    updatedAt: row.updated_at,
  };
}

/**
 * `sync_state`. To make a page and its cursor atomic, call `set` inside the same
 * `store.transaction()` as `items.upsertPage`.
 */
export class SyncStateRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  get(lang: string, collection: string): SyncState | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<SyncStateRow>('SELECT * FROM sync_state WHERE lang = ? AND collection = ?')
        .get(lang, collection),
    );
    return row === undefined ? undefined : fromRow(row);
  }

  /** Merges `patch` into the stored state (creating it) and returns the result. */
  set(lang: string, collection: string, patch: SyncStatePatch): SyncState {
    const upsert = this.#ctx.stmt(`
      INSERT INTO sync_state (lang, collection, watermark_gmt, context, remote_total, local_total,
                              unlisted, pulls_since_listing, cursor, updated_at)
      VALUES (@lang, @collection, @watermarkGmt, @context, @remoteTotal, @localTotal, @unlisted,
              @pullsSinceListing, @cursor, @updatedAt)
      ON CONFLICT (lang, collection) DO UPDATE SET
        watermark_gmt = excluded.watermark_gmt, context = excluded.context,
        remote_total = excluded.remote_total, local_total = excluded.local_total,
        unlisted = excluded.unlisted, pulls_since_listing = excluded.pulls_since_listing,
        cursor = excluded.cursor, updated_at = excluded.updated_at`);
    return this.#ctx.write(() => {
      const old = this.get(lang, collection);
      const pick = <K extends keyof SyncStatePatch>(key: K): SyncStatePatch[K] | null =>
        patch[key] !== undefined ? patch[key] : (old?.[key] ?? null);
      const next: SyncState = {
        lang,
        collection,
        watermarkGmt: pick('watermarkGmt') ?? null,
        context: pick('context') ?? null,
        remoteTotal: pick('remoteTotal') ?? null,
        localTotal: pick('localTotal') ?? null,
        unlisted: pick('unlisted') ?? null,
        pullsSinceListing: pick('pullsSinceListing') ?? null,
        cursor: pick('cursor') ?? null,
        updatedAt: this.#ctx.nowIso(),
      };
      upsert.run({ ...next, cursor: toJsonColumn(next.cursor) });
      return next;
    }, 'saving the sync state');
  }

  /** Every state, optionally of one language, by lang then collection. */
  list(lang?: string): SyncState[] {
    const rows = this.#ctx.read(() =>
      lang === undefined
        ? this.#ctx.stmt<SyncStateRow>('SELECT * FROM sync_state ORDER BY lang, collection').all()
        : this.#ctx
            .stmt<SyncStateRow>('SELECT * FROM sync_state WHERE lang = ? ORDER BY collection')
            .all(lang),
    );
    return rows.map(fromRow);
  }

  /** Forgets a state (the next pull of that collection starts from scratch). */
  clear(lang: string, collection: string): boolean {
    const remove = this.#ctx.stmt('DELETE FROM sync_state WHERE lang = ? AND collection = ?');
    return this.#ctx.write(
      () => remove.run(lang, collection).changes > 0,
      'clearing the sync state',
    );
  }
}
