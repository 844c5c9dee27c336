/**
 * A build whose manifest stays in the cache (issue 17): the last build's rows are looked up in
 * `build_outputs`, this build's rows staged in `build_staged` as its files are staged, and
 * recorded in one transaction after the switch. What it records must be what the folder holds
 * (every file, its sha256 and size, read back from the disk); and each search bundle is staged
 * as soon as Pagefind returns it, not held until every page is written.
 */
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { BuildOptions } from '../../../src/site/build-site.js';
import { inProcessWorkers, type BuildWorkers } from '../../../src/site/build-workers.js';
import { openStaging } from '../../../src/site/output-switch.js';
import { writeOutputs } from '../../../src/site/output-writer.js';
import { StagedRows } from '../../../src/site/stored-manifest.js';
import type { SiteModel } from '../../../src/site/site-model.js';
import { fixtureModel } from '../../helpers/fixture-model.js';
import { walkFiles } from '../../helpers/link-check.js';
import {
  recordedFiles as recordedOf,
  storedBuild as buildWithRecord,
  type StoredBuild,
} from '../../helpers/site/stored-build.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

const cache = useTempStore({ prefix: 'cms-stored-' });

/** A build of `pl` as a run makes it: the record read from the cache, trusted, then recorded. */
function storedBuild(
  model: SiteModel,
  outDir: string,
  extra: Partial<Omit<BuildOptions, 'stored'>> = {},
): Promise<StoredBuild> {
  const trusted = cache.store.buildState.getState('pl') !== undefined;
  return buildWithRecord(
    cache.store,
    model,
    { outDir, search: false, ...extra },
    { lang: 'pl', trusted },
  );
}

function recordedFiles(): Record<string, unknown> {
  return recordedOf(cache.store, 'pl');
}

/** What a record of the folder must say: every file on disk, its sha256 and its size. */
function filesOf(outDir: string): Record<string, { hash: string; bytes: number }> {
  return Object.fromEntries(
    walkFiles(outDir).map((file) => {
      const bytes = fs.readFileSync(path.join(outDir, file));
      const hash = createHash('sha256').update(bytes).digest('hex');
      return [file, { hash, bytes: bytes.byteLength }];
    }),
  );
}

/** The recorded rows without their input digests. */
function recordedBytes(): Record<string, { hash: string; bytes: number }> {
  return Object.fromEntries(
    Object.entries(recordedOf(cache.store, 'pl')).map(([file, row]) => [
      file,
      { hash: row.hash, bytes: row.bytes },
    ]),
  );
}

describe('a build with its manifest in the cache', () => {
  it('records every file it writes and removes, and stages nothing past its record', async () => {
    const outDir = path.join(cache.temp.dir, 'stored', 'pl');
    const first = await storedBuild(fixtureModel({ posts: 25 }), outDir);
    // The report says what the build was made from; its files are in the cache only.
    expect(Object.keys(first.manifest).sort()).toEqual([
      'buildVersion',
      'modelDigest',
      'templatesHash',
      'version',
    ]);
    expect(first.written).toBe(walkFiles(outDir).length);
    expect(first.stagedFiles).toEqual(walkFiles(outDir).sort());
    expect(recordedBytes()).toEqual(filesOf(outDir));
    expect(cache.store.buildStaged.count('pl')).toBe(0);

    // An edit, a post gone: only the changed files written, the page removed, the record follows.
    const edited = (): SiteModel => {
      const model = fixtureModel({ posts: 25 });
      model.posts = model.posts.filter((post) => post.id !== 105);
      model.posts.find((post) => post.id === 123)!.html = '<p>New body</p>';
      return model;
    };
    const second = await storedBuild(edited(), outDir);
    expect(second.removed).toBeGreaterThan(0);
    expect(second.written).toBeLessThan(first.written / 2);
    expect(second.written + second.unchanged).toBe(walkFiles(outDir).length);
    expect(second.stagedFiles).toContain('2024/12/post-23/index.html');
    expect(recordedBytes()).toEqual(filesOf(outDir));
    expect(fs.existsSync(path.join(outDir, '2024/06/post-5/index.html'))).toBe(false);
    const recorded = recordedFiles();

    // Nothing changed: skipped, the record kept whole.
    const third = await storedBuild(edited(), outDir, { changed: { items: 0, site: false } });
    expect(third).toMatchObject({
      skipped: true,
      written: 0,
      unchanged: second.written + second.unchanged,
    });
    expect(recordedFiles()).toEqual(recorded);
  });

  it('keeps the rows of files unchanged as they were recorded (only changed rows rewritten)', async () => {
    const outDir = path.join(cache.temp.dir, 'out', 'pl');
    await storedBuild(fixtureModel({ posts: 12 }), outDir);
    const before = cache.store.buildOutputs.get('pl', '2024/02/post-1/index.html');
    const model = fixtureModel({ posts: 12 });
    model.posts.find((post) => post.id === 106)!.html = '<p>Changed</p>';
    await storedBuild(model, outDir);
    expect(cache.store.buildOutputs.get('pl', '2024/02/post-1/index.html')).toEqual(before);
    const changed = cache.store.buildOutputs.get('pl', '2024/07/post-6/index.html');
    expect(changed?.hash).not.toBe(undefined);
  });

  it('drops rows a failed build staged: the next build records only its own', async () => {
    const outDir = path.join(cache.temp.dir, 'out', 'pl');
    cache.store.buildStaged.add('pl', [
      { path: 'left-over.html', hash: 'h', input: 'i', bytes: 1, written: true },
    ]);
    await storedBuild(fixtureModel({ posts: 3 }), outDir);
    expect(recordedFiles()).not.toHaveProperty('left-over.html');
  });
});

describe('search bundles in a build', () => {
  it('stages each bundle as soon as it is built, while pages still render', async () => {
    const outDir = path.join(cache.temp.dir, 'out', 'pl');
    let bundleStaged: () => void = () => undefined;
    const staged = new Promise<void>((resolve) => (bundleStaged = resolve));
    let stagedBeforePages = false;
    const workers: BuildWorkers = {
      ...inProcessWorkers,
      // The pages wait (a bounded time) for a bundle to reach the staging area.
      async render(input) {
        const waited = await Promise.race([
          staged.then(() => true),
          new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 20_000)),
        ]);
        stagedBeforePages ||= waited;
        return inProcessWorkers.render(input);
      },
    };
    const report = await buildWithRecord(cache.store, fixtureModel({ posts: 30 }), {
      outDir,
      searchDocsPerShard: 10,
      workers,
      trace: (line) => {
        if (line.startsWith('stage pl pagefind/')) bundleStaged();
      },
    });
    expect(stagedBeforePages).toBe(true);
    const bundles = fs.readdirSync(path.join(outDir, 'pagefind'));
    expect(bundles.length).toBeGreaterThan(1);
    for (const bundle of bundles)
      expect(fs.existsSync(path.join(outDir, 'pagefind', bundle, 'pagefind-entry.json'))).toBe(
        true,
      );
    const indexFiles = walkFiles(outDir).filter((file) => file.startsWith('pagefind/'));
    expect(indexFiles.length).toBeGreaterThan(bundles.length);
    expect(
      Object.keys(recordedOf(cache.store, 'pl'))
        .filter((file) => file.startsWith('pagefind/'))
        .sort(),
    ).toEqual(indexFiles.sort());
    expect(report.stagedFiles.filter((file) => file.startsWith('pagefind/'))).toEqual(
      indexFiles.sort(),
    );
  }, 60_000);

  it('refuses a file produced twice with no look-up in the cache for each file', () => {
    const rows = new StagedRows(cache.store, 'pl');
    const staging = openStaging(path.join(cache.temp.dir, 'twice', 'pl'), () => undefined, false);
    const lookups = vi.spyOn(cache.store.buildStaged, 'get');
    const write = (files: string[]) =>
      writeOutputs(
        staging,
        files.map((file) => ({ file, input: 'i', content: file })),
        new Map(),
        new Set(),
        { files: rows, removeStale: false },
      );
    // More files than one batch of rows: the first batch is in the cache, not in memory.
    const result = write(Array.from({ length: 1200 }, (_, at) => `p${at}.html`));
    expect(result.written).toBe(1200);
    expect(lookups).not.toHaveBeenCalled();
    // A file of the batch still held again, then one of the first batch: each refused.
    expect(() => write(['p1100.html'])).toThrow(/p1100\.html is produced twice/);
    expect(() => {
      write(['p3.html']);
      rows.flush();
    }).toThrow(/p3\.html is produced twice/);
    staging.discard();
  });
});
