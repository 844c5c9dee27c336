import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { callApi, type ReferenceSite } from '../../helpers/reference.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { credentialEnv } from '../../helpers/cli-args.js';
import { DOCUMENTED_COUNTER_KEYS } from '../../helpers/sync/pull-counter-keys.js';

const SUMMARY_KEYS = DOCUMENTED_COUNTER_KEYS;

describe('pull, status, verify and backup commands', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  let env: NodeJS.ProcessEnv;
  let common: string[];
  const fixture = useSiteAndCache();
  beforeEach(() => {
    ({ site, temp } = fixture);
    env = credentialEnv(site);
    const pipeline = join(temp.dir, 'pipeline.yaml');
    writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
    common = ['--pipeline', pipeline, '--site', site.url, '--lang', 'pl,es', '--cache', temp.file];
  });

  it('pull --json prints one summary per language and in total; status, verify and backup report on the cache', async () => {
    const pulled = await runCliCaptured(['pull', ...common, '--backup', '--json'], { env });
    expect(pulled.stderr).not.toMatch(/internal error/);
    expect(pulled.code).toBe(0);
    const summary = JSON.parse(pulled.stdout) as {
      languages: Record<string, Record<string, number>>;
      total: Record<string, number>;
    };
    expect(pulled.stdout.trim().split('\n')).toHaveLength(1);
    expect(Object.keys(summary.languages)).toEqual(['pl', 'es']);
    for (const counters of [summary.total, summary.languages['pl']!, summary.languages['es']!]) {
      expect(Object.keys(counters).slice(0, 8)).toEqual(SUMMARY_KEYS);
    }
    expect(summary.total.created).toBe(
      summary.languages['pl']!.created! + summary.languages['es']!.created!,
    );
    expect(summary.total.revisions).toBeGreaterThan(0);
    expect(summary.total.media_bytes).toBeGreaterThan(0);
    // Not a terminal: plain progress lines on stderr, one per phase change.
    expect(pulled.stderr).toContain('pl/posts: crawl');
    expect(pulled.stderr).toContain('es/media: done');

    const status = await runCliCaptured(['status', '--cache', temp.file, '--json']);
    expect(status.code).toBe(0);
    const report = JSON.parse(status.stdout) as {
      collections: {
        lang: string;
        collection: string;
        live: number;
        watermark: string | null;
        interrupted: boolean;
      }[];
      runs: { status: string }[];
    };
    expect(report.collections).toHaveLength(6);
    expect(
      report.collections.every((c) => c.live > 0 && c.watermark !== null && !c.interrupted),
    ).toBe(true);
    expect(report.runs[0]?.status).toBe('ok');
    const human = await runCliCaptured(['status', '--cache', temp.file]);
    expect(human.stdout).toMatch(/pl posts\s+\d+ live \(publish \d+/);
    expect(human.stdout).toContain('last pulls:');

    const verified = await runCliCaptured(['verify', ...common], { env });
    expect(verified.code).toBe(0);
    expect(verified.stdout).toContain('the cache equals the site');

    const target = join(temp.dir, 'snapshot.sqlite');
    const backup = await runCliCaptured(['backup', '--cache', temp.file, '--to', target]);
    expect(backup.code).toBe(0);
    expect(existsSync(target)).toBe(true);
    const copy = openStore(target, { readonly: true });
    const original = openStore(temp.file, { readonly: true });
    try {
      expect(copy.items.count('pl', 'posts')).toBe(original.items.count('pl', 'posts'));
      expect(copy.media.blobStats()).toEqual(original.media.blobStats());
    } finally {
      copy.close();
      original.close();
    }

    // A change on the site: verify names it and exits 3.
    const [first] = site.control
      .listItems('pl', 'posts')
      .filter((item) => item.status === 'publish');
    site.control.updateItem('pl', 'posts', first!.id, { title: 'changed' });
    const stale = await runCliCaptured(['verify', ...common], { env });
    expect(stale.code).toBe(3);
    expect(stale.stdout).toContain(`stale pl/posts/${first!.id}`);
  });

  it('never writes the credentials to the cache, its WAL, the output or the errors', async () => {
    const password = site.credentials.password;
    const secrets = [
      password,
      password.replace(/ /g, ''),
      Buffer.from(`${site.credentials.user}:${password}`).toString('base64'),
    ];
    // The WAL exists only while the cache is open: read it while the pull runs.
    const walSnapshots: Buffer[] = [];
    let running = true;
    const pulling = runCliCaptured(['pull', ...common, '--backup', '--json'], { env }).finally(
      () => {
        running = false;
      },
    );
    while (running) {
      const wal = `${temp.file}-wal`;
      if (existsSync(wal)) {
        try {
          walSnapshots.push(readFileSync(wal));
        } catch {
          // removed between the check and the read: the pull has finished
        }
      }
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
    const pulled = await pulling;
    expect(pulled.code).toBe(0);
    expect(walSnapshots.some((bytes) => bytes.length > 0)).toBe(true);
    // A run that fails on the way (wrong password) must not leak them either.
    const refused = await runCliCaptured(['pull', ...common], {
      env: credentialEnv({
        credentials: { user: site.credentials.user, password: `${password}x` },
      }),
    });
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(/refused the credentials in CMS_USER\/CMS_APP_PASSWORD/);
    const status = await runCliCaptured(['status', '--cache', temp.file, '--json']);
    const texts = [pulled.stdout, pulled.stderr, refused.stdout, refused.stderr, status.stdout];
    const files = [temp.file, `${temp.file}-wal`]
      .filter(existsSync)
      .map((file) => readFileSync(file));
    expect(files.length).toBeGreaterThan(0);
    for (const secret of secrets) {
      for (const text of texts) expect(text).not.toContain(secret);
      for (const bytes of files) expect(bytes.includes(Buffer.from(secret))).toBe(false);
    }
  });

  it('backup --to writes a consistent snapshot while a pull writes to the cache', async () => {
    expect((await runCliCaptured(['pull', ...common], { env })).code).toBe(0);
    const before = openStore(temp.file, { readonly: true });
    const countBefore = before.items.count('pl', 'posts');
    before.close();
    site.control.createItems('pl', 'posts', 400).forEach((item, n) => {
      site.control.setModified('pl', 'posts', [item.id], new Date(Date.UTC(2025, 5, 1, 0, 0, n)));
    });
    const started = site.requests.length;
    const pulling = runCliCaptured(['pull', ...common], { env });
    while (site.requests.length < started + 6)
      await new Promise((resolve) => setTimeout(resolve, 2));
    const target = join(temp.dir, 'during.sqlite');
    const backup = await runCliCaptured(['backup', '--cache', temp.file, '--to', target, '--json']);
    expect((await pulling).code).toBe(0);
    expect(backup.code).toBe(0);
    expect(JSON.parse(backup.stdout)).toMatchObject({ file: target });
    const copy = openStore(target, { readonly: true });
    try {
      expect(copy.checkIntegrity()).toEqual([]);
      const copied = copy.items.count('pl', 'posts');
      expect(copied).toBeGreaterThanOrEqual(countBefore);
      expect(copied).toBeLessThanOrEqual(countBefore + 400);
    } finally {
      copy.close();
    }
  });

  it('maps configuration problems to exit 2 with one line', async () => {
    const backupAnonymous = await runCliCaptured(['pull', ...common, '--backup']);
    expect(backupAnonymous.code).toBe(2);
    expect(backupAnonymous.stderr.trim().split('\n')).toHaveLength(1);
    expect(backupAnonymous.stderr).toContain('CMS_USER');
    const noSite = await runCliCaptured(['pull', '--cache', temp.file, '--lang', 'pl']);
    expect(noSite.code).toBe(2);
    expect(noSite.stderr).toContain('--site');
    const missing = join(temp.dir, 'missing.sqlite');
    const noCache = await runCliCaptured(['status', '--cache', missing]);
    expect(noCache.code).toBe(2);
    expect(noCache.stderr).toContain('run a pull first');
    const noBackupSource = await runCliCaptured([
      'backup',
      '--cache',
      missing,
      '--to',
      join(temp.dir, 'snapshot.sqlite'),
    ]);
    expect(noBackupSource.code).toBe(2);
    expect(noBackupSource.stderr.trim().split('\n')).toEqual([
      expect.stringContaining(`there is no cache at ${missing}`),
    ]);
    expect(existsSync(missing)).toBe(false);
    expect(existsSync(join(temp.dir, 'snapshot.sqlite'))).toBe(false);
  });

  it('a trash made on the site between two CLI pulls shows in the cache', async () => {
    expect((await runCliCaptured(['pull', ...common], { env })).code).toBe(0);
    const [victim] = site.control
      .listItems('es', 'posts')
      .filter((item) => item.status === 'publish');
    expect(
      (await callApi(site, 'es', `/cms/v2/posts/${victim!.id}`, { method: 'DELETE', auth: true }))
        .status,
    ).toBe(200);
    const second = await runCliCaptured(['pull', ...common], { env });
    expect(second.code).toBe(0);
    expect(second.stdout).toMatch(/pull es: 0 created, 1 updated, 0 deleted/);
    const store = openStore(temp.file, { readonly: true });
    try {
      expect(store.items.get('es', 'posts', victim!.id)?.status).toBe('trash');
    } finally {
      store.close();
    }
  });
});
