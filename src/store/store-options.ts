/** Options of `openStore`. */
export interface StoreOptions {
  /**
   * Open without writing anything: no schema upgrade, no WAL switch, every write refused with a
   * `StoreError`. For `status`, `verify` and queries on a backup. The file must exist and be
   * at the current schema version.
   * @default false
   */
  readonly readonly?: boolean;
  /**
   * How long a statement waits for another process's lock before failing with a
   * `StoreError` (SQLite `busy_timeout`).
   * @default 5000
   */
  readonly busyTimeoutMs?: number;
  /**
   * SQLite's page cache for this connection, in MiB (`cache_size`). A pull keeps index pages
   * in memory with the default; a build reads each row about once, and a full page cache was
   * ~25 MB of its peak RSS (test/bench/RESULTS.md, i-render-mem).
   * @default 32
   */
  readonly pageCacheMib?: number;
  /**
   * The clock for `*_at` columns and oEmbed expiry (tests inject a fixed one).
   * @default () => new Date()
   */
  readonly now?: () => Date;
}

/** SQLite's `cache_size` for a page cache of `mib` MiB (negative: KiB, not pages). */
export function cacheSizePragma(mib: number): string {
  return `cache_size = -${Math.round(mib * 1024)}`;
}
