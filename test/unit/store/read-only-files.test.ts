import { execFileSync } from 'node:child_process';
import { chmodSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/errors.js';
import { openStore } from '../../../src/store/index.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { tempCache } from '../../helpers/temp-cache.js';
import { post } from '../../helpers/store/item-fixtures.js';

/**
 * Makes a path truly unwritable for this process. Permission bits do not stop root (CI
 * containers often run as root), so root gets the immutable attribute instead, which
 * stops root too. Returns the undo.
 */
function protect(path: string): () => void {
  if (process.getuid?.() === 0) {
    execFileSync('chattr', ['+i', path]);
    return () => execFileSync('chattr', ['-i', path]);
  }
  const isDir = path === temp.dir;
  chmodSync(path, isDir ? 0o555 : 0o444);
  return () => chmodSync(path, isDir ? 0o755 : 0o644);
}

let temp: TempCache;
let undo: (() => void) | undefined;
beforeEach(() => {
  temp = tempCache();
});
afterEach(() => {
  undo?.();
  undo = undefined;
  temp.cleanup();
});

function openError(file: string): StoreError {
  try {
    openStore(file).close();
  } catch (error) {
    expect(error).toBeInstanceOf(StoreError);
    return error as StoreError;
  }
  throw new Error('expected openStore to fail');
}

describe('openStore on read-only files', () => {
  it('refuses a write-protected cache file with a clear one-line StoreError', () => {
    const store = openStore(temp.file);
    store.items.upsertPage('pl', 'posts', [post(1)]);
    store.close();
    const before = readFileSync(temp.file);
    undo = protect(temp.file);

    const error = openError(temp.file);
    expect(error.code).toBe('E_STORE');
    expect(error.message).toContain(temp.file);
    expect(error.message).toMatch(/read-only/);
    expect(error.message).not.toContain('\n');
    expect(readFileSync(temp.file).equals(before)).toBe(true);
  });

  it('still opens a write-protected cache with readonly: true', () => {
    const store = openStore(temp.file);
    store.items.upsertPage('pl', 'posts', [post(1)]);
    store.close();
    undo = protect(temp.file);
    const reader = openStore(temp.file, { readonly: true });
    expect(reader.items.count('pl', 'posts')).toBe(1);
    reader.close();
  });

  it('refuses a cache in a read-only directory (WAL files cannot be created there)', () => {
    openStore(temp.file).close();
    undo = protect(temp.dir);
    const error = openError(temp.file);
    expect(error.message).toMatch(/read-only/);
    expect(error.message).toContain(temp.file);
  });

  it('refuses to create a new cache in a read-only directory', () => {
    undo = protect(temp.dir);
    const error = openError(join(temp.dir, 'new.sqlite'));
    expect(error.message).toMatch(/read-only/);
  });
});
