/**
 * Reading a cache where nothing can be written (a read-only mount, a backup on a CD): SQLite
 * opens a WAL-mode file read-only only if it can create the `-shm` file beside it, which it
 * cannot there. Nobody can write such a file either, so reading a snapshot of it in memory
 * gives the same answers. Costs the file's size in memory; used only when the normal
 * read-only open failed and the directory is not writable.
 */
import { accessSync, constants, readFileSync, statSync } from 'node:fs';
import Database from 'better-sqlite3';
import type { Database as Connection } from 'better-sqlite3';
import { StoreError } from '../errors.js';

/** Whether `dir` cannot be written by this process (read-only mount or permissions). */
export function isUnwritableDir(dir: string): boolean {
  try {
    accessSync(dir, constants.W_OK);
    return false;
  } catch {
    return true;
  }
}

/**
 * Opens an in-memory, read-only snapshot of the cache at `path`.
 * @throws {StoreError} when a non-empty `-wal` file holds commits the snapshot would miss.
 */
export function openReadOnlySnapshot(path: string, busyTimeoutMs: number): Connection {
  let walBytes = 0;
  try {
    walBytes = statSync(`${path}-wal`).size;
  } catch {
    // No -wal file: every commit is in the main file.
  }
  if (walBytes > 0) {
    throw new StoreError(
      path,
      `${path} is on a read-only file system and its -wal file holds recent writes SQLite cannot read there; copy the cache and its -wal file to a writable place`,
    );
  }
  const bytes = readFileSync(path);
  // Bytes 18-19 say "WAL" (2); an in-memory copy has no WAL, so it reads as a rollback file (1).
  if (bytes.length >= 20 && bytes[18] === 2 && bytes[19] === 2) {
    bytes[18] = 1;
    bytes[19] = 1;
  }
  return new Database(bytes, { readonly: true, timeout: busyTimeoutMs });
}
