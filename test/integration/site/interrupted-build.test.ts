/**
 * Issue 4, crash-proof runs: whether a language is built is decided from the cache, not from
 * what this process's pull counted. A build that failed after its pull committed, a run that
 * died between its pull and its build, or an output directory deleted by hand are all finished
 * by the next `cms-mirror run`, and what it leaves is byte for byte what a full build of the
 * same cache writes. The crash is simulated by making Pagefind fail once the pages are written.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pageFileOf, sitePathOfLink, startMirror, type Mirror } from '../../helpers/e2e-site.js';
import { walkFiles } from '../../helpers/link-check.js';
import { getJson, type Json } from '../../helpers/reference.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import type * as BuildWorkers from '../../../src/site/build-workers.js';

const faults = vi.hoisted(() => ({ failSearch: false }));

// The run's search workers are threads a mock cannot reach: this file's runs index on the
// test's thread instead, where the fault can be switched on.
vi.mock('../../../src/site/build-workers.js', async (importOriginal) => {
  const original = await importOriginal<typeof BuildWorkers>();
  const onThisThread: BuildWorkers.BuildWorkers = {
    ...original.inProcessWorkers,
    indexShards: (...args) =>
      faults.failSearch
        ? Promise.reject(new Error('simulated crash while indexing'))
        : original.inProcessWorkers.indexShards(...args),
    stageShards: (...args) =>
      faults.failSearch
        ? Promise.reject(new Error('simulated crash while indexing'))
        : original.inProcessWorkers.stageShards(...args),
  };
  // `run` takes its workers from a kept set it starts early (operations/early-workers.ts).
  const kept: BuildWorkers.KeptBuildWorkers = {
    warm: () => undefined,
    take: () => onThisThread,
    close: () => Promise.resolve(),
  };
  return { ...original, startBuildWorkers: () => onThisThread, keptBuildWorkers: () => kept };
});

describe('cms-mirror run after an interrupted build', () => {
  let mirror: Mirror;
  let posts: { id: number; file: string }[];

  beforeAll(async () => {
    mirror = await startMirror();
    const listed = await getJson(mirror.site, 'pl', '/cms/v2/posts', { query: { per_page: 50 } });
    posts = (listed.body as Json[])
      .filter((post) => !post.content.protected)
      .map((post) => ({
        id: post.id as number,
        file: pageFileOf(sitePathOfLink(mirror.site, 'pl', post.link as string)),
      }));
    expect(posts.length).toBeGreaterThan(5);
    await mirror.run();
  });
  afterAll(async () => {
    faults.failSearch = false;
    await mirror?.close();
  });

  /** A full build of the same cache into a fresh directory, compared file by file. */
  async function expectSameAsFullBuild(): Promise<void> {
    const fullOut = path.join(mirror.temp.dir, `full-${Date.now()}`);
    const full = await runCliCaptured(
      [
        'build',
        ...['--pipeline', path.join(mirror.temp.dir, 'pipeline.yaml')],
        ...['--lang', 'pl,es', '--cache', mirror.cacheFile, '--out', fullOut, '--json'],
      ],
      { env: mirror.env, cwd: mirror.temp.dir },
    );
    expect(full.code, full.stderr).toBe(0);
    for (const lang of ['pl', 'es']) {
      const incremental = path.join(mirror.outDir, lang);
      const fresh = path.join(fullOut, lang);
      const files = walkFiles(fresh).sort();
      expect(walkFiles(incremental).sort()).toEqual(files);
      const differing = files.filter(
        (file) =>
          !fs
            .readFileSync(path.join(incremental, file))
            .equals(fs.readFileSync(path.join(fresh, file))),
      );
      expect(differing, lang).toEqual([]);
    }
    fs.rmSync(fullOut, { recursive: true, force: true });
  }

  it('finishes a build that failed after its pull committed, though the next pull finds nothing', async () => {
    const target = posts[1] as (typeof posts)[number];
    const title = 'Tytuł po przerwanym budowaniu';
    mirror.site.control.updateItem('pl', 'posts', target.id, { title });
    faults.failSearch = true;
    await expect(mirror.run()).rejects.toThrow(/simulated crash while indexing/);
    faults.failSearch = false;

    const run = await mirror.run();
    expect(run.pull.total).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    expect(run.build.languages['pl']?.skipped).toBe(false);
    expect(run.build.languages['es']?.skipped).toBe(true);
    const page = fs.readFileSync(path.join(mirror.outDir, 'pl', target.file), 'utf8');
    expect(page).toContain(title);
    await expectSameAsFullBuild();

    // Now the record is complete: the next run has nothing to do.
    const again = await mirror.run();
    for (const lang of ['pl', 'es']) {
      expect(again.build.languages[lang]).toMatchObject({ skipped: true, written: 0 });
    }
  });

  it('builds what a pull stored when the run died before building', async () => {
    const target = posts[3] as (typeof posts)[number];
    const title = 'Título tras una ejecución interrumpida';
    mirror.site.control.updateItem('pl', 'posts', target.id, { title });
    // The pull of a run that was killed before its build started.
    const pulled = await runCliCaptured(
      [
        'pull',
        ...['--pipeline', path.join(mirror.temp.dir, 'pipeline.yaml'), '--site', mirror.site.url],
        ...['--lang', 'pl,es', '--cache', mirror.cacheFile, '--json'],
      ],
      { env: mirror.env, cwd: mirror.temp.dir },
    );
    expect(pulled.code, pulled.stderr).toBe(0);

    const run = await mirror.run();
    expect(run.pull.total).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    expect(run.build.languages['pl']).toMatchObject({ skipped: false });
    expect(run.build.languages['pl']?.written).toBeGreaterThan(0);
    expect(fs.readFileSync(path.join(mirror.outDir, 'pl', target.file), 'utf8')).toContain(title);
    await expectSameAsFullBuild();
  });

  it('builds in full an edited language whose top-level file was deleted by hand', async () => {
    // An edit build writes only what the edit touches: it would leave the file missing.
    const target = posts[2]!;
    mirror.site.control.updateItem('pl', 'posts', target.id, { title: 'Po ręcznym usunięciu' });
    fs.rmSync(path.join(mirror.outDir, 'pl', 'robots.txt'));
    const run = await mirror.run();
    expect(run.pull.languages['pl']?.['updated']).toBe(1);
    expect((run.build.languages['pl'] as { plan?: string } | undefined)?.plan).toBe('full');
    expect(fs.existsSync(path.join(mirror.outDir, 'pl', 'robots.txt'))).toBe(true);
    await expectSameAsFullBuild();
  });

  it('rebuilds a language whose output directory was deleted', async () => {
    fs.rmSync(path.join(mirror.outDir, 'es', 'pagefind'), { recursive: true });
    fs.rmSync(path.join(mirror.outDir, 'es', 'index.html'));
    const run = await mirror.run();
    expect(run.build.languages['pl']?.skipped).toBe(true);
    expect(run.build.languages['es']?.skipped).toBe(false);
    expect(fs.existsSync(path.join(mirror.outDir, 'es', 'index.html'))).toBe(true);
    await expectSameAsFullBuild();
  });
});
