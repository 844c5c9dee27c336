import type { Database } from 'better-sqlite3';
import { StoreError } from '../errors.js';
import type { SchemaUpgrade } from './schema-step.js';
import { APPLICATION_ID } from './schema.js';

export interface SchemaUpgradeReport {
  /** `user_version` found on opening (0 for a new file). */
  readonly from: number;
  /** `user_version` after the run. */
  readonly to: number;
}

function readVersion(db: Database): number {
  return Number(db.pragma('user_version', { simple: true }));
}

function readApplicationId(db: Database): number {
  return Number(db.pragma('application_id', { simple: true }));
}

/** Steps must be numbered 1, 2, 3... with no gap: a gap is a packaging bug, caught early. */
function checkSequence(upgrades: readonly SchemaUpgrade[]): void {
  upgrades.forEach((upgrade, index) => {
    if (upgrade.version !== index + 1) {
      throw new Error(
        `schema upgrade at position ${index} has version ${upgrade.version}, expected ${index + 1}`,
      );
    }
  });
}

/**
 * Brings the file at `file` to the last version of `upgrades`, one transaction per step
 * (BEGIN IMMEDIATE, re-reading the version inside it, so two processes opening the same new
 * cache do not both apply a step). Refuses, without writing anything:
 * - a cache written by a newer cms-mirror (its version is above ours);
 * - a SQLite file that is not a cms-mirror cache (foreign application id, or version 0 with
 *   tables in it): we never write into someone else's database;
 * - an upgrade when `readonly` is set.
 */
export function runSchemaUpgrades(
  db: Database,
  file: string,
  upgrades: readonly SchemaUpgrade[],
  options: { readonly readonly?: boolean } = {},
): SchemaUpgradeReport {
  checkSequence(upgrades);
  const target = upgrades.length;
  const from = readVersion(db);
  const applicationId = readApplicationId(db);

  if (from > target) {
    throw new StoreError(
      file,
      `${file} was written by a newer cms-mirror (cache schema version ${from}, this version understands up to ${target}); upgrade cms-mirror or use another cache file`,
    );
  }
  if (applicationId !== 0 && applicationId !== APPLICATION_ID) {
    throw new StoreError(
      file,
      `${file} is a SQLite database of another application (application_id ${applicationId}); it was left untouched`,
    );
  }
  if (from === 0) {
    const objects = Number(
      db.prepare("SELECT count(*) FROM sqlite_master WHERE name NOT LIKE 'sqlite_%'").pluck().get(),
    );
    if (objects > 0) {
      throw new StoreError(
        file,
        `${file} is a SQLite database but not a cms-mirror cache (it already holds ${objects} tables or other objects); it was left untouched`,
      );
    }
  }
  if (from < target && options.readonly) {
    throw new StoreError(
      file,
      `${file} has cache schema version ${from} and needs an upgrade to ${target}, which a read-only open cannot do; open it once without read-only`,
    );
  }

  for (const upgrade of upgrades) {
    if (upgrade.version <= from) continue;
    const step = db.transaction(() => {
      // Another process may have applied it between our read and our lock.
      if (readVersion(db) >= upgrade.version) return;
      upgrade.up(db);
      db.pragma(`user_version = ${upgrade.version}`);
      if (readApplicationId(db) !== APPLICATION_ID) db.pragma(`application_id = ${APPLICATION_ID}`);
    });
    try {
      step.immediate();
    } catch (error) {
      if (error instanceof StoreError) throw error;
      const code = (error as { code?: unknown }).code;
      // SQLite failures (busy, read-only, disk full) are mapped by the caller; a failing step
      // is a bug, reported with which step it was.
      if (
        typeof code === 'string' &&
        code.startsWith('SQLITE_') &&
        !code.startsWith('SQLITE_ERROR')
      ) {
        throw error;
      }
      throw new Error(
        `cache migration ${upgrade.version} (${upgrade.description}) failed on ${file}: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
  }
  return { from, to: readVersion(db) };
}
