/**
 * Reading a cache file that must not change (a snapshot made by `backup --to`) even when an
 * older cms-mirror wrote it: a read-only open cannot upgrade its schema, and upgrading the
 * user's file in place would change the very backup they keep for the bad day. So a file at
 * an older schema version is copied (a consistent copy, `VACUUM INTO`, from a read-only
 * connection) into a temporary directory, the copy is upgraded and read, and removed on close.
 * Costs the file's size on the temporary disk, only for old files.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import Database from 'better-sqlite3';
import { StoreError } from '../errors.js';
import { openStore } from './open-store.js';
import { SCHEMA_VERSION } from './schema.js';
import type { Store } from './store.js';
import { toStoreError } from './store-errors.js';

/** A store opened for reading, and how to let it go (removing any temporary copy). */
export interface ReadableStore {
  readonly store: Store;
  /** Whether the store is an upgraded temporary copy of an older file. */
  readonly upgradedFrom: number | undefined;
  close(): void;
}

/** The schema version of `path`, or undefined when it cannot be read that simply. */
function versionOf(path: string): number | undefined {
  let db: Database.Database | undefined;
  try {
    db = new Database(path, { readonly: true, fileMustExist: true });
    return Number(db.pragma('user_version', { simple: true }));
  } catch {
    return undefined;
  } finally {
    db?.close();
  }
}

/**
 * Opens `file` read-only; a cache at an older schema version is read through an upgraded
 * temporary copy, and `file` itself is never written. Other failures are `openStore`'s.
 */
export function openStoreToRead(file: string): ReadableStore {
  const path = resolve(file);
  const version = existsSync(path) ? versionOf(path) : undefined;
  if (version === undefined || version === 0 || version >= SCHEMA_VERSION) {
    const store = openStore(path, { readonly: true });
    return { store, upgradedFrom: undefined, close: () => store.close() };
  }
  const dir = mkdtempSync(join(tmpdir(), 'cms-mirror-upgraded-'));
  const remove = (): void => rmSync(dir, { recursive: true, force: true });
  try {
    const copy = join(dir, basename(path));
    copyConsistently(path, copy);
    const store = upgradeCopy(copy, path);
    return {
      store,
      upgradedFrom: version,
      close: () => {
        try {
          store.close();
        } finally {
          remove();
        }
      },
    };
  } catch (error) {
    remove();
    throw error;
  }
}

/** Upgrades the copy and opens it read-only; errors name the user's file, not the copy. */
function upgradeCopy(copy: string, path: string): Store {
  try {
    openStore(copy).close();
    return openStore(copy, { readonly: true });
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    throw new StoreError(path, error.message.replaceAll(copy, path), {
      cause: error,
      exitCode: error.exitCode,
    });
  }
}

function copyConsistently(path: string, copy: string): void {
  let source: Database.Database | undefined;
  try {
    source = new Database(path, { readonly: true, fileMustExist: true });
    source.prepare('VACUUM INTO ?').run(copy);
  } catch (error) {
    throw toStoreError(path, error, 'copying the cache to upgrade the copy');
  } finally {
    source?.close();
  }
}
