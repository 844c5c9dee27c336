import type { StoreContext } from './store-context.js';
import { fromJsonColumn, toJsonColumn } from './json-column.js';

export interface OembedEntry {
  readonly url: string;
  readonly maxwidth: number;
  /** The provider's JSON answer; null when the URL could not be resolved. */
  readonly response: unknown;
  readonly fetchedAt: string;
  /** null = never expires. */
  readonly expiresAt: string | null;
  readonly expired: boolean;
}

export interface OembedGetOptions {
  /**
   * Also return an expired entry (flagged `expired: true`), e.g. as a fallback when the
   * provider cannot be reached.
   * @default false
   */
  readonly includeExpired?: boolean;
}

interface OembedRow {
  url: string;
  maxwidth: number;
  response: string | null;
  fetched_at: string;
  expires_at: string | null;
}

/** The oEmbed cache: one answer per (url, maxwidth), honouring the provider's `cache_age`. */
export class OembedRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /** The cached answer, or undefined when absent or expired (see `includeExpired`). */
  get(url: string, maxwidth: number, options: OembedGetOptions = {}): OembedEntry | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<OembedRow>('SELECT * FROM oembed WHERE url = ? AND maxwidth = ?')
        .get(url, maxwidth),
    );
    if (row === undefined) return undefined;
    const expired = row.expires_at !== null && Date.parse(row.expires_at) <= this.#ctx.nowMs();
    if (expired && !options.includeExpired) return undefined;
    return {
      url: row.url,
      maxwidth: row.maxwidth,
      response: fromJsonColumn(row.response),
      fetchedAt: row.fetched_at,
      expiresAt: row.expires_at,
      expired,
    };
  }

  /**
   * Caches an answer (`null` = unresolved) for `ttlSeconds` from now (`null` = forever).
   * Callers pass the provider's `cache_age` when it gave one, their own default otherwise.
   */
  put(url: string, maxwidth: number, response: unknown, ttlSeconds: number | null): void {
    if (ttlSeconds !== null && !(Number.isFinite(ttlSeconds) && ttlSeconds >= 0)) {
      throw new RangeError(`ttlSeconds must be a number >= 0 or null, got ${String(ttlSeconds)}`);
    }
    const now = this.#ctx.nowMs();
    const expiresAt = ttlSeconds === null ? null : new Date(now + ttlSeconds * 1000).toISOString();
    const upsert = this.#ctx.stmt(`
      INSERT INTO oembed (url, maxwidth, response, fetched_at, expires_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (url, maxwidth) DO UPDATE SET response = excluded.response,
        fetched_at = excluded.fetched_at, expires_at = excluded.expires_at`);
    this.#ctx.write(
      () =>
        upsert.run(url, maxwidth, toJsonColumn(response), new Date(now).toISOString(), expiresAt),
      'caching an oEmbed answer',
    );
  }

  /** Removes expired entries; returns how many. */
  deleteExpired(): number {
    const remove = this.#ctx.stmt(
      'DELETE FROM oembed WHERE expires_at IS NOT NULL AND expires_at <= ?',
    );
    return this.#ctx.write(
      () => remove.run(this.#ctx.nowIso()).changes,
      'pruning the oEmbed cache',
    );
  }
}
