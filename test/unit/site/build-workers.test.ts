/**
 * The build's worker threads: a build through them writes the same bytes as one on the calling
 * thread, a broken theme still fails with `E_INPUT` naming the templates directory (the error
 * crosses the thread boundary as its own class), every bundle is indexed by one Pagefind
 * process, and closing them leaves no Pagefind process behind, not even an exited one waiting
 * to be collected (a long `watch` builds many times).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BuildOptions } from '../../../src/site/build-site.js';
import {
  keptBuildWorkers,
  startBuildWorkers,
  type BuildWorkers,
} from '../../../src/site/build-workers.js';
import { InputError } from '../../../src/errors.js';
import { walkFiles } from '../../helpers/link-check.js';
import { fixtureModel } from '../../helpers/fixture-model.js';
import { storedBuild } from '../../helpers/site/stored-build.js';
import { useTempStore } from '../../helpers/store/temp-store.js';
import type { SiteModel } from '../../../src/site/site-model.js';
import { pagefindChildren as pagefindChildrenOf } from '../../helpers/pagefind-children.js';

const cache = useTempStore();
let tmp: string;
let workers: BuildWorkers | undefined;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-workers-'));
});
afterEach(async () => {
  await workers?.close();
  workers = undefined;
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** A build with its record in the test's cache. */
function buildFromModel(model: SiteModel, options: Omit<BuildOptions, 'stored'>) {
  return storedBuild(cache.store, model, options);
}

const pagefindChildren = (): string[] => pagefindChildrenOf({ withState: true });

describe('build workers', () => {
  it('write byte for byte what a build on this thread writes, search index included', async () => {
    // Enough posts for two search bundles, indexed at once by the search worker.
    const model = fixtureModel({ posts: 30 });
    const here = path.join(tmp, 'here');
    const there = path.join(tmp, 'there');
    await buildFromModel(model, { outDir: here, searchDocsPerShard: 10 });
    workers = startBuildWorkers();
    const report = await buildFromModel(model, { outDir: there, searchDocsPerShard: 10, workers });
    expect(report.rendered).toBeGreaterThan(30);
    const files = walkFiles(here).sort();
    expect(files.filter((file) => file.startsWith('pagefind/s1/')).length).toBeGreaterThan(0);
    expect(walkFiles(there).sort()).toEqual(files);
    const differing = files.filter(
      (file) =>
        !fs.readFileSync(path.join(here, file)).equals(fs.readFileSync(path.join(there, file))),
    );
    expect(differing).toEqual([]);
  });

  it('fail with E_INPUT naming the templates directory when the theme is broken', async () => {
    const templatesDir = path.join(tmp, 'theme');
    fs.cpSync(path.resolve('templates'), templatesDir, { recursive: true });
    fs.writeFileSync(path.join(templatesDir, 'broken.njk'), '{% if %}');
    workers = startBuildWorkers();
    const failure = await buildFromModel(fixtureModel({ posts: 2 }), {
      outDir: path.join(tmp, 'out'),
      templatesDir,
      workers,
    }).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(InputError);
    expect(failure).toMatchObject({ code: 'E_INPUT', file: templatesDir, exitCode: 2 });
    expect((failure as Error).message).toContain(templatesDir);
  });

  it('index every bundle of a build with one Pagefind process', async () => {
    const before = pagefindChildren();
    workers = startBuildWorkers();
    const outDir = path.join(tmp, 'out');
    await buildFromModel(fixtureModel({ posts: 40 }), {
      outDir,
      searchDocsPerShard: 5,
      workers,
    });
    const bundles = fs.readdirSync(path.join(outDir, 'pagefind'));
    expect(bundles.length).toBeGreaterThanOrEqual(4);
    // Each Pagefind process holds ~35 MB before its first document (issue 17).
    const started = pagefindChildren().filter((child) => !before.includes(child));
    expect(started).toHaveLength(1);
  });

  it('leave no Pagefind process behind once closed', async () => {
    // A build on this thread keeps its one Pagefind process for the life of the process.
    const before = pagefindChildren();
    for (let round = 0; round < 2; round++) {
      const started = startBuildWorkers();
      await buildFromModel(fixtureModel({ posts: 20 }), {
        outDir: path.join(tmp, `out-${round}`),
        searchDocsPerShard: 10,
        workers: started,
      });
      await started.close();
    }
    expect(pagefindChildren()).toEqual(before);
  });

  it('kept for a session: builds share them, a fresh set every few builds, none left once closed', async () => {
    const before = pagefindChildren();
    const kept = keptBuildWorkers(2);
    const taken: BuildWorkers[] = [];
    for (let round = 0; round < 3; round++) {
      const lent = kept.take();
      taken.push(lent);
      await buildFromModel(fixtureModel({ posts: 20 }), {
        outDir: path.join(tmp, `out-${round}`),
        searchDocsPerShard: 10,
        workers: lent,
      });
      // A build closes what it was given; a kept set stays up for the next build.
      await lent.close();
    }
    expect(taken[1]?.render).toBe(taken[0]?.render);
    expect(taken[2]?.render).not.toBe(taken[0]?.render);
    expect(walkFiles(path.join(tmp, 'out-2'))).toEqual(walkFiles(path.join(tmp, 'out-0')));
    await kept.close();
    expect(pagefindChildren()).toEqual(before);
  });
});
