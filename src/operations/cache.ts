import type { Settings } from '../config/index.js';
import type { BackupResult as StoreBackupResult } from '../store/index.js';
import type { CacheStatus, VerifyReport } from '../sync/index.js';

/** What the cache holds per language and collection, and the last pulls (`cms-mirror status`). */
export interface StatusOptions {
  readonly settings: Settings;
  /** How many of the latest pulls to list. @default 5 */
  readonly runs?: number;
}

export type StatusResult = CacheStatus;

export async function status(options: StatusOptions): Promise<StatusResult> {
  const [sync, { openStore }] = await Promise.all([
    import('../sync/index.js'),
    import('../store/index.js'),
  ]);
  const store = openStore(options.settings.cache, { readonly: true });
  try {
    return sync.status(store, options.runs !== undefined ? { runs: options.runs } : {});
  } finally {
    store.close();
  }
}

export interface VerifyOptions {
  readonly settings: Settings;
}

export type VerifyResult = VerifyReport;

/** Compares the cache with the site: counts and each item's modified_gmt (`cms-mirror verify`). */
export async function verify(options: VerifyOptions): Promise<VerifyResult> {
  const sync = await import('../sync/index.js');
  return sync.verify(options.settings);
}

export interface BackupOptions {
  readonly settings: Settings;
  /** The snapshot file to write (absolute, or relative to the working directory). */
  readonly to: string;
}

export type BackupResult = StoreBackupResult;

/** A consistent snapshot of the cache, safe while a pull runs (`cms-mirror backup`). */
export async function backup(options: BackupOptions): Promise<BackupResult> {
  const [sync, path] = await Promise.all([import('../sync/index.js'), import('node:path')]);
  return sync.backupCache(options.settings, path.resolve(options.to));
}
