import { existsSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../../src/config/settings.js';
import { openStore } from '../../../src/store/index.js';
import { backupCache } from '../../../src/sync/backup-cache.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';
import { openHandles } from '../../helpers/sync/pull-cache-handles.js';

/**
 * `backup --to FILE`: a copy of the cache that opens and holds what the cache held; the cache
 * is only read (a wrong path creates nothing) and is not left open after the copy.
 */
describe('backupCache', () => {
  const fixture = useClockedStore();

  function fill(): void {
    const { store } = fixture;
    store.items.upsertPage('pl', 'posts', [
      { id: 1, status: 'publish', modified_gmt: '2024-04-01T10:00:00', title: 'one' },
      { id: 2, status: 'draft', modified_gmt: '2024-04-02T10:00:00', title: 'two' },
    ]);
    store.close();
  }

  it('writes a copy holding every item of the cache, to a path relative to the working directory', async () => {
    fill();
    const { temp } = fixture;
    const target = join(temp.dir, 'copies', 'backup.sqlite');
    const result = await backupCache(
      resolveSettings({ cache: temp.file }, {}),
      relative(process.cwd(), target),
    );
    expect(result.file).toBe(target);
    expect(result.bytes).toBeGreaterThan(0);
    const copy = openStore(target, { readonly: true });
    try {
      expect([...copy.items.iterate('pl', 'posts')].map((row) => [row.id, row.status])).toEqual([
        [1, 'publish'],
        [2, 'draft'],
      ]);
    } finally {
      copy.close();
    }
  });

  it('closes the cache once the copy is written', async () => {
    fill();
    const { temp } = fixture;
    expect(openHandles(temp.file)).toBe(0);
    await backupCache(resolveSettings({ cache: temp.file }, {}), join(temp.dir, 'b.sqlite'));
    expect(openHandles(temp.file)).toBe(0);
  });

  it('closes the cache when the copy fails', async () => {
    fill();
    const { temp } = fixture;
    await expect(backupCache(resolveSettings({ cache: temp.file }, {}), temp.file)).rejects.toThrow(
      /onto itself/,
    );
    expect(openHandles(temp.file)).toBe(0);
  });

  it('refuses a cache that does not exist, naming it, and creates nothing', async () => {
    const { temp } = fixture;
    fixture.store.close();
    const missing = join(temp.dir, 'nowhere', 'cache.sqlite');
    const target = join(temp.dir, 'b.sqlite');
    await expect(backupCache(resolveSettings({ cache: missing }, {}), target)).rejects.toThrow(
      `there is no cache at ${missing}`,
    );
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(join(temp.dir, 'nowhere'))).toBe(false);
    expect(existsSync(target)).toBe(false);
  });
});
