import { chmodSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/settings.js';
import { openStore } from '../../src/store/index.js';
import { backupCache, pull } from '../../src/sync/index.js';
import { useSiteAndCache } from '../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../helpers/reference.js';
import {
  cacheFingerprints,
  expectCacheEqualsSite,
  RELIABILITY_TYPES,
  type ItemFingerprint,
} from '../helpers/reliability-compare.js';
import { smallDisk, withFileSizeLimit, type SmallDisk } from '../helpers/reliability-disk.js';
import { runChild, type ChildResult } from '../helpers/reliability-process.js';
import type { TempCache } from '../helpers/temp-cache.js';
import { credentialEnv } from '../helpers/cli-args.js';

type Snapshot = Record<string, Map<number, ItemFingerprint>>;

/**
 * The cache's disk in trouble: read-only, full, corrupt. Each time `pull` must stop with one
 * clear line (no stack trace), exit non-zero, and leave the last good state as it was: the
 * cache still opens and holds exactly what it held before (a corrupt file is left byte for
 * byte as it was, and the backup taken before still opens). Where the trouble can be undone,
 * the next pull completes and the cache equals the site.
 */
describe('reliability: disk trouble under the cache', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  let disk: SmallDisk | undefined;
  const fixture = useSiteAndCache({ languages: ['pl'] }, 'cms-mirror-rel-');
  beforeEach(() => {
    ({ site, temp } = fixture);
  });
  afterEach(() => {
    disk?.unmount();
    disk = undefined;
  });

  const env = () => credentialEnv(site);

  async function goodPull(cache: string): Promise<void> {
    const settings = resolveSettings({ site: site.url, lang: 'pl', cache }, env());
    settings.http = { ...settings.http, requestsPerSecond: 0 };
    expect((await pull(settings)).status).toBe('ok');
  }

  function snapshot(cache: string): Snapshot {
    const store = openStore(cache, { readonly: true });
    try {
      expect(store.checkIntegrity()).toEqual([]);
      return Object.fromEntries(
        RELIABILITY_TYPES.map((type) => [type, cacheFingerprints(store, 'pl', type)]),
      );
    } finally {
      store.close();
    }
  }

  /** Changes on the site, so the failing pull has something to write. */
  function changeSite(): void {
    const [post] = site.control.listItems('pl', 'posts');
    site.control.updateItem('pl', 'posts', post!.id, { title: 'Zmiana przed awarią dysku' });
    site.control.createItems('pl', 'posts', 5);
    site.control.createItems('pl', 'media', 1);
  }

  function pullChild(
    cache: string,
    extra: Partial<Parameters<typeof runChild>[1]> = {},
  ): Promise<ChildResult> {
    const pipeline = join(temp.dir, 'pipeline.yaml');
    writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
    return runChild(
      [
        'pull',
        '--pipeline',
        pipeline,
        '--site',
        site.url,
        '--lang',
        'pl',
        '--cache',
        cache,
        '--json',
      ],
      { env: env(), cwd: temp.dir, site, ...extra },
    );
  }

  /** One clear line naming the file, no stack, a non-zero exit; `--json` gets the error object. */
  function expectClearFailure(run: ChildResult, cache: string, reason: RegExp): void {
    expect(run.code, run.stderr).not.toBe(0);
    expect(run.signal).toBeNull();
    expect(run.stderr).toContain(cache);
    expect(run.stderr).toMatch(reason);
    expect(run.stderr).not.toMatch(/internal error|\n\s+at /);
    const printed = JSON.parse(run.stdout) as { error: { message: string; exit: number } };
    expect(printed.error.exit).toBe(run.code);
    expect(printed.error.message).toContain(cache);
    expect(printed.error.message).toMatch(reason);
  }

  async function expectRecovers(cache: string): Promise<void> {
    await goodPull(cache);
    const store = openStore(cache, { readonly: true });
    try {
      await expectCacheEqualsSite(store, site, { languages: ['pl'] });
    } finally {
      store.close();
    }
  }

  it('a read-only cache: a clear error, and the cache as it was', async () => {
    disk = smallDisk(temp.dir, 32 * 1024 * 1024);
    const cache = join(disk.dir, 'cache.sqlite');
    await goodPull(cache);
    const before = snapshot(cache);
    changeSite();
    let run: ChildResult;
    if (disk.mounted) {
      disk.remount('ro');
      run = await pullChild(cache);
      disk.remount('rw');
    } else {
      // No mount allowed: a write-protected file (root ignores modes, so run as nobody).
      chmodSync(temp.dir, 0o755);
      chmodSync(disk.dir, 0o555);
      chmodSync(cache, 0o444);
      const asNobody = process.getuid?.() === 0 ? { uid: 65534, gid: 65534 } : {};
      run = await pullChild(cache, asNobody);
      chmodSync(disk.dir, 0o755);
      chmodSync(cache, 0o644);
    }
    expectClearFailure(run, cache, /read-only/);
    expect(snapshot(cache)).toEqual(before);
    await expectRecovers(cache);
  });

  it('a full disk: a clear error, and the cache as it was', async () => {
    disk = smallDisk(temp.dir, 16 * 1024 * 1024);
    const cache = join(disk.dir, 'cache.sqlite');
    await goodPull(cache);
    const before = snapshot(cache);
    changeSite();
    let run: ChildResult;
    if (disk.mounted) {
      const filler = disk.fill();
      run = await pullChild(cache);
      rmSync(filler);
      expectClearFailure(run, cache, /disk .*is full/);
    } else {
      // No mount allowed: no file may grow past 1 KiB, so the first write fails (EFBIG).
      run = await pullChild(cache, { wrap: withFileSizeLimit(1) });
      expectClearFailure(run, cache, /input\/output error|disk .*is full/);
    }
    expect(snapshot(cache)).toEqual(before);
    await expectRecovers(cache);
  });

  for (const damage of [
    { what: 'its header', at: 0, length: 100, reason: /not a SQLite database|corrupt/ },
    { what: 'its schema page', at: 100, length: 3000, reason: /corrupt|not a SQLite database/ },
  ]) {
    it(`a cache corrupt in ${damage.what}: a clear error, the file and the backup untouched`, async () => {
      const cache = temp.file;
      await goodPull(cache);
      const before = snapshot(cache);
      const backup = join(temp.dir, 'backup.sqlite');
      await backupCache(resolveSettings({ cache }, {}), backup);
      const bytes = readFileSync(cache);
      for (let i = damage.at; i < damage.at + damage.length; i++) bytes[i] = (i * 151 + 7) & 0xff;
      writeFileSync(cache, bytes);
      changeSite();
      const run = await pullChild(cache);
      expectClearFailure(run, cache, damage.reason);
      expect(readFileSync(cache).equals(bytes), 'the corrupt file is left as it was').toBe(true);
      expect(snapshot(backup)).toEqual(before);
    });
  }
});
