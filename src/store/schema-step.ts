import type { Database } from 'better-sqlite3';

/**
 * One numbered schema step. `up` runs inside a transaction that also sets
 * `PRAGMA user_version = version`, so a step is applied entirely or not at all.
 * Steps are append-only: once released, a step is never edited; a change is a new step.
 */
export interface SchemaUpgrade {
  readonly version: number;
  /** One line, shown when a step fails. */
  readonly description: string;
  up(db: Database): void;
}
