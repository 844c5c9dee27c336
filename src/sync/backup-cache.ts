import { resolve } from 'node:path';
import type { Settings } from '../config/settings.js';
import { openStore, type BackupResult } from '../store/index.js';

/**
 * `backup --to FILE`: a consistent snapshot of the cache (items, revisions, media blobs,
 * everything) through SQLite's online backup, safe while a pull writes to the cache. The copy
 * is written under a temporary name and renamed into place.
 */
export async function backupCache(settings: Settings, to: string): Promise<BackupResult> {
  const store = openStore(settings.cache, { readonly: true });
  try {
    return await store.backupTo(resolve(to));
  } finally {
    store.close();
  }
}
