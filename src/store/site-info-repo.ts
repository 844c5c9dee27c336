import type { StoreContext } from './store-context.js';
import { fromJsonColumn } from './json-column.js';

export interface SiteInfo {
  readonly lang: string;
  /** What the sync stage stored: the index summary and the seo site representation. */
  readonly data: unknown;
  readonly fetchedAt: string;
}

/** `site_info`: one JSON document per language. */
export class SiteInfoRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  get(lang: string): SiteInfo | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<{ lang: string; json: string; fetched_at: string }>(
          'SELECT * FROM site_info WHERE lang = ?',
        )
        .get(lang),
    );
    return row === undefined
      ? undefined
      : { lang: row.lang, data: fromJsonColumn(row.json), fetchedAt: row.fetched_at };
  }

  /** Replaces the language's document. `data` must be JSON-serialisable. */
  set(lang: string, data: unknown): void {
    const json = JSON.stringify(data ?? null);
    const upsert = this.#ctx.stmt(`
      INSERT INTO site_info (lang, json, fetched_at) VALUES (?, ?, ?)
      ON CONFLICT (lang) DO UPDATE SET json = excluded.json, fetched_at = excluded.fetched_at`);
    this.#ctx.write(() => upsert.run(lang, json, this.#ctx.nowIso()), 'saving site information');
  }
}
