import { accessSync, constants, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as Connection } from 'better-sqlite3';
import { StoreError } from '../errors.js';
import type { StoreOptions } from './store-options.js';
import type { SchemaUpgrade } from './schema-step.js';
import { SCHEMA_UPGRADES } from './schema.js';
import { runSchemaUpgrades } from './schema-upgrade.js';
import { toStoreError } from './store-errors.js';
import { isUnwritableDir, openReadOnlySnapshot } from './read-only-copy.js';
import { Store } from './store.js';
import { cacheSizePragma } from './store-options.js';

/**
 * Opens (creating if missing, with its directory) the cache at `file`, configures the
 * connection (WAL, foreign keys, busy timeout) and brings its schema up to date.
 * Every failure a user can fix is a one-line `StoreError` naming the file; a file that is
 * not a cms-mirror cache, or is corrupt, is never written to.
 */
export function openStore(file: string, options: StoreOptions = {}): Store {
  return openStoreWith(file, options, SCHEMA_UPGRADES);
}

/**
 * `openStore` with an explicit list of upgrades. For tests that need a cache at an older
 * version (open with the first N steps, then with all of them).
 */
export function openStoreWith(
  file: string,
  options: StoreOptions,
  upgrades: readonly SchemaUpgrade[],
): Store {
  const path = resolve(file);
  const readonly = options.readonly ?? false;
  const busyTimeoutMs = options.busyTimeoutMs ?? 5000;
  checkFileSystem(path, readonly);

  let db: Connection | undefined;
  try {
    db = new Database(path, { readonly, fileMustExist: readonly, timeout: busyTimeoutMs });
    // A WAL cache on a read-only file system opens, then fails at the first read.
    if (readonly) db.prepare('SELECT count(*) FROM sqlite_master').pluck().get();
  } catch (error) {
    db?.close();
    if (!readonly || !isUnwritableDir(dirname(path))) {
      throw toStoreError(path, error, 'opening the cache');
    }
    try {
      db = openReadOnlySnapshot(path, busyTimeoutMs);
    } catch (snapshotError) {
      throw toStoreError(path, snapshotError, 'opening the cache');
    }
  }
  try {
    // Read before writing anything: a file that is not SQLite, or is corrupt, fails here and
    // no pragma below gets a chance to touch it.
    db.prepare('SELECT count(*) FROM sqlite_master').pluck().get();
    db.pragma('foreign_keys = ON');
    // 32 MiB of page cache by default (SQLite's is 2 MiB): index pages of a 10^5-item cache
    // stay in memory during a pull.
    db.pragma(cacheSizePragma(options.pageCacheMib ?? 32));
    const upgrade = runSchemaUpgrades(db, path, upgrades, { readonly });
    if (!readonly) {
      // WAL: readers (build, status, backup) never block the writer (pull) and vice versa.
      const mode = db.pragma('journal_mode = WAL', { simple: true });
      if (mode !== 'wal') {
        throw new StoreError(
          path,
          `${path} could not be switched to WAL mode (got ${String(mode)})`,
        );
      }
      // In WAL mode NORMAL cannot corrupt the file; a power cut may lose the last commits,
      // which the next pull fetches again.
      db.pragma('synchronous = NORMAL');
    }
    return new Store(db, path, {
      readonly,
      now: options.now ?? (() => new Date()),
      schemaUpgrade: upgrade,
    });
  } catch (error) {
    db.close();
    throw toStoreError(path, error, 'opening the cache');
  }
}

/**
 * SQLite silently opens a write-protected file read-only and only fails at the first write,
 * and WAL needs to create `-wal`/`-shm` files beside the cache: check both up front so the
 * user gets one clear message instead of a failure halfway through a pull.
 */
function checkFileSystem(path: string, readonly: boolean): void {
  const dir = dirname(path);
  let exists = true;
  try {
    const stat = statSync(path);
    if (stat.isDirectory()) {
      throw new StoreError(path, `${path} is a directory, not a cache file; give a file path`);
    }
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ENOENT')
      throw toStoreError(path, error, 'opening the cache');
    exists = false;
  }
  if (readonly) {
    if (!exists)
      throw new StoreError(
        path,
        `there is no cache at ${path}; run a pull first or check the path`,
        { exitCode: 2 }, // a wrong path is a configuration error (README: exit 2)
      );
    return;
  }
  try {
    if (!exists) mkdirSync(dir, { recursive: true });
    accessSync(dir, constants.W_OK);
    if (exists) accessSync(path, constants.R_OK | constants.W_OK);
  } catch (error) {
    throw toStoreError(path, error, 'opening the cache');
  }
}
