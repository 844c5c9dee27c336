import type { Database, Statement } from 'better-sqlite3';
import { StoreError } from '../errors.js';
import { toStoreError } from './store-errors.js';

/**
 * What every repository shares: the connection, a cache of prepared statements, the clock,
 * and the two ways of touching the database (with SQLite failures mapped to `StoreError`).
 * Repositories never open transactions or prepare statements on their own.
 */
export class StoreContext {
  readonly db: Database;
  readonly file: string;
  readonly readonly: boolean;
  readonly #now: () => Date;
  /** Keyed by SQL text: each statement is compiled once per connection, on first use. */
  readonly #statements = new Map<string, Statement>();

  constructor(db: Database, file: string, now: () => Date, readonly: boolean) {
    this.db = db;
    this.file = file;
    this.readonly = readonly;
    this.#now = now;
  }

  /** The current time as stored in `*_at` columns (ISO 8601 UTC). */
  nowIso(): string {
    return this.#now().toISOString();
  }

  nowMs(): number {
    return this.#now().getTime();
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  stmt<Row = any>(sql: string): Statement<unknown[], Row> {
    let statement = this.#statements.get(sql);
    if (statement === undefined) {
      statement = this.read(() => this.db.prepare(sql), 'preparing a query');
      this.#statements.set(sql, statement);
    }
    return statement as Statement<unknown[], Row>;
  }

  /**
   * Runs `fn` in one synchronous transaction (a savepoint when nested): everything it writes
   * is committed together or not at all. `fn` must not be async: a promise would let the
   * transaction commit before the work is done, so one is refused (and rolled back).
   */
  write<T>(fn: () => T, doing = 'writing'): T {
    if (this.readonly) {
      throw new StoreError(
        this.file,
        `cannot write ${this.file} while ${doing}: it was opened read-only`,
      );
    }
    const run = this.db.transaction(() => {
      const result = fn();
      if (isThenable(result)) {
        throw new TypeError('store transactions are synchronous: do not pass an async function');
      }
      return result;
    });
    try {
      return run();
    } catch (error) {
      throw toStoreError(this.file, error, doing);
    }
  }

  /** Runs a read with SQLite failures (corrupt page, locked file) mapped to `StoreError`. */
  read<T>(fn: () => T, doing = 'reading'): T {
    try {
      return fn();
    } catch (error) {
      throw toStoreError(this.file, error, doing);
    }
  }
}

function isThenable(value: unknown): boolean {
  return (
    value !== null &&
    (typeof value === 'object' || typeof value === 'function') &&
    typeof (value as { then?: unknown }).then === 'function'
  );
}
