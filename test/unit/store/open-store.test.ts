import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { StoreError } from '../../../src/errors.js';
import type { SchemaUpgrade } from '../../../src/store/index.js';
import {
  APPLICATION_ID,
  SCHEMA_UPGRADES,
  SCHEMA_VERSION,
  openStore,
  openStoreWith,
} from '../../../src/store/index.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { tempCache } from '../../helpers/temp-cache.js';
import { post } from '../../helpers/store/item-fixtures.js';

let temp: TempCache;
beforeEach(() => {
  temp = tempCache();
});
afterEach(() => {
  temp.cleanup();
});

function tables(file: string): string[] {
  const db = new Database(file, { readonly: true });
  try {
    return db
      .prepare(
        "SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name NOT LIKE 'sqlite_%' ORDER BY name",
      )
      .pluck()
      .all() as string[];
  } finally {
    db.close();
  }
}

function catchError(fn: () => unknown): unknown {
  try {
    fn();
  } catch (error) {
    return error;
  }
  throw new Error('expected a throw');
}

function expectStoreError(error: unknown, file: string, pattern: RegExp, exitCode = 1): void {
  expect(error).toBeInstanceOf(StoreError);
  const storeError = error as StoreError;
  expect(storeError.code).toBe('E_STORE');
  expect(storeError.exitCode).toBe(exitCode);
  expect(storeError.message).toContain(file);
  expect(storeError.message).not.toContain('\n');
  expect(storeError.message).toMatch(pattern);
}

describe('openStore', () => {
  it('creates a new cache (and its directory) at the current schema version, in WAL mode', () => {
    const file = join(temp.dir, 'nested', 'deeper', 'cache.sqlite');
    const store = openStore(file);
    expect(store.schemaUpgrade).toEqual({ from: 0, to: SCHEMA_VERSION });
    store.close();

    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('application_id', { simple: true })).toBe(APPLICATION_ID);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
    expect(tables(file)).toEqual([
      'autosaves',
      'build_outputs',
      'build_placement',
      'build_placement_chunks',
      'build_placement_facts',
      'build_staged',
      'build_state',
      'checkouts',
      'cms_items',
      'edits',
      'id_map',
      'item_versions',
      'items',
      'media_blobs',
      'media_files',
      'nunjucks_compiles',
      'oembed',
      'restore_map',
      'revisions',
      'runs',
      'site_info',
      'site_paths',
      'site_paths_changes',
      'site_paths_logging',
      'site_paths_state',
      'sync_queue',
      'sync_state',
      'transform_changes',
      'transform_logging',
      'transformed',
    ]);
  });

  it('gives the connection the page cache it is asked for, 32 MiB unless told', () => {
    const pragma = vi.spyOn(Database.prototype, 'pragma');
    try {
      openStore(temp.file).close();
      expect(pragma).toHaveBeenCalledWith('cache_size = -32768');
      pragma.mockClear();
      openStore(temp.file, { pageCacheMib: 2 }).close();
      expect(pragma).toHaveBeenCalledWith('cache_size = -2048');
      expect(pragma).not.toHaveBeenCalledWith('cache_size = -32768');
    } finally {
      pragma.mockRestore();
    }
  });

  it('enforces foreign keys on the connection it opens', () => {
    const store = openStore(temp.file);
    // A revision of a parent that is not in items violates the foreign key.
    expect(() => store.revisions.upsertMany('pl', 'posts', 999, [{ id: 5 }])).toThrow(
      /FOREIGN KEY/,
    );
    expect(store.revisions.count('pl')).toBe(0);
    store.close();
  });

  it('reopens an up-to-date cache without migrating and keeps its data', () => {
    const first = openStore(temp.file);
    first.items.upsertPage('pl', 'posts', [post(1)]);
    first.close();
    const second = openStore(temp.file);
    expect(second.schemaUpgrade).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION });
    expect(second.items.get('pl', 'posts', 1)?.slug).toBe('post-1');
    second.close();
  });

  it('upgrades a version-6 cache: queued work kept, children of moved pages queued, stale items indexed', () => {
    const v6 = openStoreWith(temp.file, {}, SCHEMA_UPGRADES.slice(0, 6));
    v6.items.upsertPage('pl', 'posts', [post(7)]);
    v6.syncQueue.add('pl', 'assets', 'posts', [7]);
    v6.syncQueue.add('pl', 'revisions', 'posts', [7]);
    expect(() => v6.syncQueue.add('pl', 'children', 'pages', [3])).toThrow();
    v6.close();

    const store = openStore(temp.file);
    expect(store.schemaUpgrade).toEqual({ from: 6, to: SCHEMA_VERSION });
    expect(store.syncQueue.next('pl', 'assets', 'posts', 0, 10)).toEqual([7]);
    expect(store.syncQueue.next('pl', 'revisions', 'posts', 0, 10)).toEqual([7]);
    store.syncQueue.add('pl', 'children', 'pages', [3]);
    expect(store.syncQueue.next('pl', 'children', 'pages', 0, 10)).toEqual([3]);
    // Stale items are read through the index migration 8 adds (a query naming it fails without).
    expect(store.transformed.countStale('pl', '1')).toBe(1);
    expect([...store.transformed.iterateStale('pl', '1')].map((item) => item.id)).toEqual([7]);
    store.close();
  });

  it('upgrades a version-1 cache to the current version, keeping its data', () => {
    const v1 = openStoreWith(temp.file, {}, SCHEMA_UPGRADES.slice(0, 1));
    v1.items.upsertPage('pl', 'posts', [post(7)]);
    v1.close();
    expect(tables(temp.file)).not.toContain('build_outputs');

    const store = openStore(temp.file);
    expect(store.schemaUpgrade).toEqual({ from: 1, to: SCHEMA_VERSION });
    expect(store.items.get('pl', 'posts', 7)?.title).toBe('Post 7');
    store.buildOutputs.replace('pl', [{ path: 'index.html', hash: 'a'.repeat(64), bytes: 10 }]);
    expect(store.buildOutputs.list('pl').map((entry) => entry.path)).toEqual(['index.html']);
    store.close();
  });

  it('rolls back a failing migration step entirely and keeps the previous version', () => {
    const broken: SchemaUpgrade = {
      version: SCHEMA_VERSION + 1,
      description: 'broken step',
      up(db) {
        db.exec('CREATE TABLE half_done (x INTEGER)');
        db.exec('THIS IS NOT SQL');
      },
    };
    openStore(temp.file).close();
    expect(() => openStoreWith(temp.file, {}, [...SCHEMA_UPGRADES, broken])).toThrow(
      /migration .* \(broken step\) failed/,
    );
    expect(tables(temp.file)).not.toContain('half_done');
    const store = openStore(temp.file);
    expect(store.schemaUpgrade.from).toBe(SCHEMA_VERSION);
    store.close();
  });

  it('refuses a cache written by a newer version, without changing it', () => {
    openStore(temp.file).close();
    const db = new Database(temp.file);
    db.pragma(`user_version = ${SCHEMA_VERSION + 3}`);
    db.close();
    const before = readFileSync(temp.file);

    const error = catchError(() => openStore(temp.file));
    expectStoreError(
      error,
      temp.file,
      new RegExp(`newer cms-mirror .*version ${SCHEMA_VERSION + 3}.* up to ${SCHEMA_VERSION}`),
    );
    expect(readFileSync(temp.file).equals(before)).toBe(true);
  });

  it('refuses a file that is not SQLite, naming it, and never writes to it', () => {
    const garbage = Buffer.from('this is a text file, not a database\n'.repeat(200));
    writeFileSync(temp.file, garbage);
    const error = catchError(() => openStore(temp.file));
    expectStoreError(error, temp.file, /is not a SQLite database.*left untouched/);
    expect(readFileSync(temp.file).equals(garbage)).toBe(true);
    expect(existsSync(`${temp.file}-wal`)).toBe(false);
  });

  it('reports a corrupt cache as a StoreError and leaves the file as it was', () => {
    const store = openStore(temp.file);
    store.items.upsertPage(
      'pl',
      'posts',
      Array.from({ length: 300 }, (_, index) => post(index + 1)),
    );
    store.close();
    // Clobber every page after the first (the header stays valid, the b-trees do not).
    const bytes = readFileSync(temp.file);
    const pageSize = bytes.readUInt16BE(16);
    for (let offset = pageSize; offset < bytes.length; offset += 1) bytes[offset] = 0xa5;
    writeFileSync(temp.file, bytes);

    const error = catchError(() => openStore(temp.file));
    expectStoreError(error, temp.file, /corrupt|not a SQLite database/);
    expect(readFileSync(temp.file).equals(bytes)).toBe(true);
  });

  it('refuses a SQLite database of some other application', () => {
    const db = new Database(temp.file);
    db.exec('CREATE TABLE customers (id INTEGER PRIMARY KEY)');
    db.close();
    const before = readFileSync(temp.file);
    const error = catchError(() => openStore(temp.file));
    expectStoreError(error, temp.file, /not a cms-mirror cache.*left untouched/);
    expect(readFileSync(temp.file).equals(before)).toBe(true);
    expect(tables(temp.file)).toEqual(['customers']);
  });

  it('refuses a directory given as the cache file', () => {
    const error = catchError(() => openStore(temp.dir));
    expectStoreError(error, temp.dir, /is a directory/);
  });
});

describe('openStore with readonly', () => {
  it('reads an existing cache and refuses every write with a StoreError', () => {
    const writer = openStore(temp.file);
    writer.items.upsertPage('pl', 'posts', [post(1)]);
    writer.close();

    const store = openStore(temp.file, { readonly: true });
    expect(store.items.count('pl', 'posts')).toBe(1);
    const error = catchError(() => store.items.upsertPage('pl', 'posts', [post(2)]));
    expectStoreError(error, temp.file, /opened read-only/);
    store.close();
  });

  it('does not create a missing cache', () => {
    const error = catchError(() => openStore(temp.file, { readonly: true }));
    // A wrong path is a configuration error: exit 2, as the README says.
    expectStoreError(error, temp.file, /there is no cache/, 2);
    expect(existsSync(temp.file)).toBe(false);
  });

  it('refuses to open an older cache read-only (it would need an upgrade)', () => {
    openStoreWith(temp.file, {}, SCHEMA_UPGRADES.slice(0, 1)).close();
    const error = catchError(() => openStore(temp.file, { readonly: true }));
    expectStoreError(error, temp.file, /needs an upgrade/);
  });
});
