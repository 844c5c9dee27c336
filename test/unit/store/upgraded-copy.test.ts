import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  openStore,
  openStoreToRead,
  openStoreWith,
  SCHEMA_UPGRADES,
  SCHEMA_VERSION,
} from '../../../src/store/index.js';
import { post } from '../../helpers/store/item-fixtures.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

/**
 * `openStoreToRead`: a cache at the current version is opened read-only as it is; an older one
 * is read through an upgraded temporary copy, removed on close; the file never changes, and
 * errors name it, not the copy.
 */
let temp: TempCache;
beforeEach(() => {
  temp = tempCache('cms-mirror-open-to-read-');
});
afterEach(() => temp.cleanup());

const hash = (file: string): string =>
  createHash('sha256').update(readFileSync(file)).digest('hex');
const copies = (): string[] =>
  readdirSync(tmpdir()).filter((name) => name.startsWith('cms-mirror-upgraded-'));

describe('openStoreToRead', () => {
  it('opens a current cache directly', () => {
    openStore(temp.file).close();
    const opened = openStoreToRead(temp.file);
    try {
      expect(opened.upgradedFrom).toBeUndefined();
      expect(opened.store.file).toBe(temp.file);
    } finally {
      opened.close();
    }
  });

  it('reads an older cache through an upgraded copy and leaves the file as it was', () => {
    const old = openStoreWith(temp.file, {}, SCHEMA_UPGRADES.slice(0, 5));
    old.items.upsertPage('pl', 'posts', [post(7)]);
    old.close();
    const before = hash(temp.file);
    const existing = copies();
    const opened = openStoreToRead(temp.file);
    try {
      expect(opened.upgradedFrom).toBe(5);
      expect(opened.store.items.get('pl', 'posts', 7)?.title).toBe('Post 7');
      expect(opened.store.itemVersions.historyStart('pl')).toBeUndefined();
      expect(copies().length).toBe(existing.length + 1);
    } finally {
      opened.close();
    }
    expect(copies()).toEqual(existing);
    expect(hash(temp.file)).toBe(before);
    const db = new Database(temp.file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(5);
    db.close();
    expect(SCHEMA_VERSION).toBeGreaterThan(5);
  });

  it("names the user's file, not the copy, when the copy cannot be upgraded", () => {
    const db = new Database(temp.file);
    db.pragma('user_version = 3');
    db.pragma('application_id = 12345');
    db.exec('CREATE TABLE foreign_data (x)');
    db.close();
    const existing = copies();
    let message = '';
    try {
      openStoreToRead(temp.file).close();
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(temp.file);
    expect(message).toMatch(/another application/);
    expect(message).not.toContain('cms-mirror-upgraded-');
    expect(copies()).toEqual(existing);
  });
});
