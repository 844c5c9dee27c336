import { existsSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/errors.js';
import type { Store } from '../../../src/store/index.js';
import { SCHEMA_VERSION, contentHash, openStore } from '../../../src/store/index.js';
import { post } from '../../helpers/store/item-fixtures.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

const cache = useTempStore();

function fill(target: Store, from: number, count: number): void {
  for (let start = from; start < from + count; start += 100) {
    const ids = Array.from(
      { length: Math.min(100, from + count - start) },
      (_, offset) => start + offset,
    );
    // Sizeable bodies so that the file spans many pages and the backup takes several steps.
    target.items.upsertPage(
      'pl',
      'posts',
      ids.map((id) => post(id, { content: { rendered: `<p>${'x'.repeat(2000)} ${id}</p>` } })),
    );
  }
}

describe('store.backupTo', () => {
  it('writes a complete, consistent snapshot (media included) while another connection writes', async () => {
    fill(cache.store, 1, 2000);
    const blob = cache.store.media.putBlob(Buffer.from('image bytes'));
    cache.store.media.setFile({ url: 'http://127.0.0.1/a.png', sha256: blob.sha256 });

    const writer = openStore(cache.temp.file);
    let writes = 0;
    let done = false;
    // Another connection keeps committing pages while the backup copies.
    const writing = (async () => {
      while (!done && writes < 30) {
        await new Promise((resolve) => setImmediate(resolve));
        writer.items.upsertPage('pl', 'posts', [post(100_000 + writes)]);
        writes += 1;
      }
    })();
    const target = join(cache.temp.dir, 'backups', 'snapshot.sqlite');
    const result = await cache.store.backupTo(target).finally(() => {
      done = true;
    });
    await writing;
    writer.close();

    expect(writes).toBeGreaterThan(0);
    expect(result.file).toBe(target);
    expect(result.bytes).toBeGreaterThan(2000 * 2000);
    // Only the snapshot is left in the target directory: no temporary or journal files.
    expect(readdirSync(join(cache.temp.dir, 'backups'))).toEqual(['snapshot.sqlite']);

    const copy = openStore(target, { readonly: true });
    try {
      expect(copy.schemaUpgrade.to).toBe(SCHEMA_VERSION);
      expect(copy.checkIntegrity()).toEqual([]);
      const count = copy.items.count('pl', 'posts');
      expect(count).toBeGreaterThanOrEqual(2000);
      // Consistent: the extra rows present are a prefix of what the writer committed.
      const extra = copy.items.listIds('pl', 'posts').filter((entry) => entry.id >= 100_000);
      expect(extra.map((entry) => entry.id)).toEqual(extra.map((_, index) => 100_000 + index));
      for (const item of copy.items.iterate('pl', 'posts')) {
        expect(contentHash(JSON.parse(item.json))).toBe(item.contentHash);
      }
      expect(copy.media.getBlob(blob.sha256)?.toString()).toBe('image bytes');
      expect(copy.media.getFile('http://127.0.0.1/a.png')?.sha256).toBe(blob.sha256);
    } finally {
      copy.close();
    }
    // The source is still usable.
    expect(cache.store.items.upsertPage('pl', 'posts', [post(50_000)]).created).toBe(1);
  });

  it('replaces an existing backup only once the new copy is complete', async () => {
    fill(cache.store, 1, 10);
    const target = join(cache.temp.dir, 'backup.sqlite');
    await cache.store.backupTo(target);
    fill(cache.store, 11, 10);
    await cache.store.backupTo(target);
    const copy = openStore(target, { readonly: true });
    expect(copy.items.count('pl', 'posts')).toBe(20);
    copy.close();
  });

  it('fails with a StoreError and leaves nothing behind when the target cannot be written', async () => {
    const blocker = join(cache.temp.dir, 'not-a-dir');
    writeFileSync(blocker, 'file');
    const target = join(blocker, 'backup.sqlite');
    await expect(cache.store.backupTo(target)).rejects.toBeInstanceOf(StoreError);
    expect(existsSync(target)).toBe(false);
    // No temporary file anywhere: only the cache (and its WAL files) and the blocker remain.
    expect(readdirSync(cache.temp.dir).filter((name) => !name.startsWith('cache.sqlite'))).toEqual([
      'not-a-dir',
    ]);
  });

  it('refuses to back up onto the cache itself', async () => {
    await expect(cache.store.backupTo(cache.temp.file)).rejects.toThrow(/onto itself/);
  });
});
