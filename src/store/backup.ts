import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import type { Database as Connection } from 'better-sqlite3';
import { StoreError } from '../errors.js';
import { toStoreError } from './store-errors.js';

export interface BackupResult {
  readonly file: string;
  readonly bytes: number;
  /** How many times SQLite restarted the copy because another connection wrote meanwhile. */
  readonly restarts: number;
}

/** Pages copied per step; between steps the event loop runs (other work, other writers). */
const PAGES_PER_STEP = 1000;
/**
 * After this many restarts (a writer keeps changing the source), the rest is copied in one
 * step: it blocks the event loop briefly but guarantees the backup finishes.
 */
const MAX_RESTARTS = 5;

/**
 * Copies the open database `db` (the cache at `source`) to `target` with SQLite's online
 * backup: a consistent snapshot even while other connections write. The copy is made under
 * a temporary name beside the target, checked (`quick_check`), switched to a single-file
 * journal, then renamed into place, so a half-written backup never sits at the target path.
 */
export async function backupDatabase(
  db: Connection,
  source: string,
  target: string,
): Promise<BackupResult> {
  const dir = dirname(target);
  const temp = join(
    dir,
    `.${basename(target)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`,
  );
  let restarts = 0;
  try {
    mkdirSync(dir, { recursive: true });
    let lastRemaining = Number.POSITIVE_INFINITY;
    await db.backup(temp, {
      progress: ({ remainingPages }) => {
        if (remainingPages > lastRemaining) restarts += 1;
        lastRemaining = remainingPages;
        return restarts >= MAX_RESTARTS ? 0x7fffffff : PAGES_PER_STEP;
      },
    });
    checkCopy(temp, target);
    renameSync(temp, target);
    return { file: target, bytes: statSync(target).size, restarts };
  } catch (error) {
    removeQuietly(temp);
    if (error instanceof StoreError) throw error;
    throw toStoreError(target, error, `backing up ${source}`);
  }
}

function removeQuietly(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) {
    try {
      rmSync(`${path}${suffix}`, { force: true });
    } catch {
      // The directory itself is unusable (that is why we are here): nothing was created.
    }
  }
}

/**
 * Checks the copy and turns it into a single self-contained file: the copied header says
 * WAL, which would make every reader of the backup create `-wal`/`-shm` files beside it.
 * `openStore` switches it back to WAL when the backup is used as a cache.
 */
function checkCopy(temp: string, target: string): void {
  const copy = new Database(temp, { fileMustExist: true });
  try {
    copy.pragma('journal_mode = DELETE');
    const result = copy.pragma('quick_check', { simple: true });
    if (result !== 'ok') {
      throw new StoreError(
        target,
        `the backup copy failed its integrity check (${String(result)}); nothing was written to ${target}`,
      );
    }
  } finally {
    copy.close();
  }
}
