/**
 * A build whose manifest stays in the cache (issue 17): the last build's rows are looked up in
 * `build_outputs`, this build's rows staged in `build_staged` as its files are staged, and
 * recorded in one transaction after the switch. What it records and writes must be what a build
 * with the manifest in memory returns; and each search bundle is staged as soon as Pagefind
 * returns it, not held until every page is written.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildFromModel, type BuildReport } from '../../../src/site/build-site.js';
import { inProcessWorkers, type BuildWorkers } from '../../../src/site/build-workers.js';
import type { SiteModel } from '../../../src/site/site-model.js';
import {
  currentHeader,
  recordStoredBuild,
  storedRecord,
} from '../../../src/site/stored-manifest.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { fixtureModel } from '../../helpers/fixture-model.js';

let tmp: string;
let store: Store;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-stored-'));
  store = openStore(path.join(tmp, 'cache.sqlite'));
});

afterEach(() => {
  store.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

const SOURCES = {
  siteDigest: 's',
  sourcesAt: '2024-01-01T00:00:00Z',
  transformVersion: 't',
  pathsDigest: 'p',
};

/** A build of `pl` as a run makes it: the record read from the cache, trusted, then recorded. */
async function storedBuild(
  model: SiteModel,
  outDir: string,
  extra: Partial<Parameters<typeof buildFromModel>[1]> = {},
): Promise<BuildReport> {
  const previous = currentHeader(store.buildState.getState('pl'));
  const report = await buildFromModel(model, {
    outDir,
    search: false,
    stored: storedRecord(store, 'pl', previous, previous !== undefined),
    ...extra,
  });
  recordStoredBuild(store, 'pl', report, SOURCES);
  return report;
}

function recordedFiles(): Record<string, unknown> {
  return { ...store.buildState.get('pl')?.manifest.files };
}

describe('a build with its manifest in the cache', () => {
  it('records, writes and removes what a build with the manifest in memory does', async () => {
    const memoryOut = path.join(tmp, 'memory', 'pl');
    const storedOut = path.join(tmp, 'stored', 'pl');
    const first = await buildFromModel(fixtureModel({ posts: 25 }), {
      outDir: memoryOut,
      search: false,
    });
    const firstStored = await storedBuild(fixtureModel({ posts: 25 }), storedOut);
    expect(firstStored).toMatchObject({ written: first.written, pages: first.pages });
    expect(firstStored.manifest.files).toEqual({});
    expect(recordedFiles()).toEqual(first.manifest.files);
    expect(store.buildStaged.count('pl')).toBe(0);

    // An edit, a post gone: the same files written and removed, the record follows.
    const edited = (): SiteModel => {
      const model = fixtureModel({ posts: 25 });
      model.posts = model.posts.filter((post) => post.id !== 105);
      model.posts.find((post) => post.id === 123)!.html = '<p>New body</p>';
      return model;
    };
    const second = await buildFromModel(edited(), {
      outDir: memoryOut,
      search: false,
      previous: first.manifest,
    });
    const secondStored = await storedBuild(edited(), storedOut);
    expect(secondStored).toMatchObject({
      written: second.written,
      unchanged: second.unchanged,
      removed: second.removed,
      rendered: second.rendered,
      pages: second.pages,
    });
    expect(second.removed).toBeGreaterThan(0);
    expect(recordedFiles()).toEqual(second.manifest.files);
    expect(fs.existsSync(path.join(storedOut, '2024/06/post-5/index.html'))).toBe(false);

    // Nothing changed: skipped, the record kept whole.
    const third = await storedBuild(edited(), storedOut, { changed: { items: 0, site: false } });
    expect(third).toMatchObject({
      skipped: true,
      written: 0,
      unchanged: second.written + second.unchanged,
    });
    expect(recordedFiles()).toEqual(second.manifest.files);
  });

  it('keeps the rows of files unchanged as they were recorded (only changed rows rewritten)', async () => {
    const outDir = path.join(tmp, 'out', 'pl');
    await storedBuild(fixtureModel({ posts: 12 }), outDir);
    const before = store.buildOutputs.get('pl', '2024/02/post-1/index.html');
    const model = fixtureModel({ posts: 12 });
    model.posts.find((post) => post.id === 106)!.html = '<p>Changed</p>';
    await storedBuild(model, outDir);
    expect(store.buildOutputs.get('pl', '2024/02/post-1/index.html')).toEqual(before);
    const changed = store.buildOutputs.get('pl', '2024/07/post-6/index.html');
    expect(changed?.hash).not.toBe(undefined);
  });

  it('drops rows a failed build staged: the next build records only its own', async () => {
    const outDir = path.join(tmp, 'out', 'pl');
    store.buildStaged.add('pl', [
      { path: 'left-over.html', hash: 'h', input: 'i', bytes: 1, written: true },
    ]);
    await storedBuild(fixtureModel({ posts: 3 }), outDir);
    expect(recordedFiles()).not.toHaveProperty('left-over.html');
  });
});

describe('search bundles in a build', () => {
  it('stages each bundle as soon as it is built, while pages still render', async () => {
    const outDir = path.join(tmp, 'out', 'pl');
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
    const report = await buildFromModel(fixtureModel({ posts: 30 }), {
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
    expect(
      Object.keys(report.manifest.files).filter((file) => file.startsWith('pagefind/')).length,
    ).toBe(report.writtenFiles.filter((file) => file.startsWith('pagefind/')).length);
  }, 60_000);
});
