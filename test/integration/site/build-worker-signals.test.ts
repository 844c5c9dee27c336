/**
 * What a build tells its workers, and when.
 *
 * The warm-up: a run of the theme with no pages lets Eleventy's first run overlap this thread's
 * transform and full plan, but an edit build plans in a few hundred ms and its pages then waited
 * behind it (test/bench/RESULTS.md, i-edit11). After a pull of a few changes the warm-up is sent
 * only if a language falls back to a full plan, and the render worker is asked instead to start
 * the first changed language's Eleventy run before its pages come (`JobRenderer.prepare`); a
 * build without a pull's counts warms up from its start.
 *
 * The end: after a pull of a few changes an edit build is expected (Pagefind's process started
 * on the build's thread); the render worker is let go once the last language that renders has
 * its pages back, and the search indexers once its bundles are, so that their teardown overlaps
 * the commit rather than following it (issue 17, i-edit13). A language that renders after
 * another keeps the worker until its own pages are back.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMirror, type Mirror } from '../../helpers/e2e-site.js';
import { getJson, type Json } from '../../helpers/reference.js';
import { build, pull } from '../../../src/index.js';
import { startBuildWorkers, type BuildWorkers } from '../../../src/site/build-workers.js';

interface Recorded {
  /** `lang plan` per language, in the build's order (`skipped` for one it did not build). */
  plans: string[];
  /** Every signal the build gave its workers, in order. */
  signals: string[];
}

describe('what a build tells its workers', () => {
  let mirror: Mirror;
  const postIds: Record<string, number> = {};

  beforeAll(async () => {
    mirror = await startMirror({ reference: { posts: 30 } });
    await mirror.run();
    for (const lang of ['pl', 'es']) {
      const listed = await getJson(mirror.site, lang, '/cms/v2/posts', { query: { per_page: 20 } });
      const open = (listed.body as Json[]).filter((post) => !post.content.protected);
      postIds[lang] = open[5]?.id as number;
      expect(postIds[lang]).toBeGreaterThan(0);
    }
  }, 300_000);
  afterAll(async () => {
    await mirror?.close();
  });

  /**
   * A pull, then a build on workers that record each signal in order, as a run's are (its last
   * build's: `rendersDone` and `indexingDone` stop the workers). `counted` false: the build gets
   * no counts from the pull, as `cms-mirror build`.
   */
  async function pullAndBuild(counted = true): Promise<Recorded> {
    const settings = mirror.settings();
    const pulled = await pull({ settings });
    const workers = startBuildWorkers();
    const signals: string[] = [];
    const recorded =
      <A extends unknown[], R>(name: (...args: A) => string, call: (...args: A) => R) =>
      (...args: A): R => {
        signals.push(name(...args));
        return call(...args);
      };
    const recording: BuildWorkers = {
      ...workers,
      render: recorded((input) => `render ${input.global.lang}`, workers.render),
      warmUp: recorded<[string], void>(() => 'warm-up', workers.warmUp),
      prepare: recorded(
        (target) => `prepare ${path.relative(settings.output, target.outDir)}`,
        workers.prepare,
      ),
      expectEdits: recorded(() => 'expect-edits', workers.expectEdits),
      rendersDone: recorded(() => 'renders-done', workers.rendersDone),
      indexingDone: recorded(() => 'indexing-done', workers.indexingDone),
      close: () => Promise.resolve(),
    };
    try {
      const summary = await build({
        settings,
        ...(counted ? { changed: pulled.changed } : {}),
        workers: () => recording,
      });
      const plans = Object.entries(summary.languages).map(
        ([lang, built]) => `${lang} ${(built as { plan?: string }).plan ?? 'skipped'}`,
      );
      return { plans, signals };
    } finally {
      await workers.close();
    }
  }

  /** The render worker's requests alone: its warm-up, prepared runs and renders. */
  const renderRequests = (signals: string[]): string[] =>
    signals.filter((signal) => /^(warm-up|prepare |render )/.test(signal));

  describe('the render worker’s warm-up', () => {
    it('is not sent before an edit build: the edited language’s run is prepared instead', async () => {
      mirror.site.control.updateItem('pl', 'posts', postIds['pl']!, {
        title: 'Tytuł bez rozgrzewki',
      });
      const built = await pullAndBuild();
      expect(built.plans).toContain('pl edits');
      const requests = renderRequests(built.signals);
      expect(requests.slice(0, 2)).toEqual(['prepare pl', 'render pl']);
      expect(requests).not.toContain('warm-up');
    }, 300_000);

    it('is sent once before the first render when a few changes fall back to a full plan', async () => {
      mirror.site.control.createItems('pl', 'posts', 1, { title: 'Nowy wpis z rozgrzewką' });
      const built = await pullAndBuild();
      expect(built.plans).toContain('pl full');
      const requests = renderRequests(built.signals);
      // Prepared first, as for any few changes; the warm-up then comes before any render.
      expect(requests.slice(0, 2)).toEqual(['prepare pl', 'warm-up']);
      expect(requests.filter((request) => request === 'warm-up')).toHaveLength(1);
    }, 300_000);

    it('is sent from the start of a build that has no pull’s counts', async () => {
      mirror.site.control.updateItem('pl', 'posts', postIds['pl']!, {
        title: 'Tytuł z rozgrzewką',
      });
      const built = await pullAndBuild(false);
      expect(built.signals[0]).toBe('warm-up');
      expect(built.signals.filter((signal) => signal === 'warm-up')).toHaveLength(1);
    }, 300_000);
  });

  describe('the workers of a run', () => {
    /** The signals but the prepared runs (the warm-up's tests above cover those). */
    const unprepared = (signals: string[]): string[] =>
      signals.filter((signal) => !signal.startsWith('prepare '));

    // The languages build in code order: es, then pl.
    it('expects an edit build and lets each worker go once the last language is done with it', async () => {
      mirror.site.control.updateItem('es', 'posts', postIds['es']!, { title: 'Solo es' });
      const built = await pullAndBuild();
      expect(built.plans).toEqual(['es edits', 'pl skipped']);
      expect(unprepared(built.signals)).toEqual([
        'expect-edits',
        'render es',
        'renders-done',
        'indexing-done',
      ]);
    }, 300_000);

    it('keeps the render worker for a later language that renders', async () => {
      mirror.site.control.updateItem('pl', 'posts', postIds['pl']!, { title: 'Oba języki, pl' });
      mirror.site.control.updateItem('es', 'posts', postIds['es']!, {
        title: 'Ambos idiomas, es',
      });
      const built = await pullAndBuild();
      expect(built.plans).toEqual(['es edits', 'pl edits']);
      expect(unprepared(built.signals)).toEqual([
        'expect-edits',
        'render es',
        'render pl',
        'renders-done',
        'indexing-done',
      ]);
    }, 300_000);

    it('expects no edit build without the pull’s counts: no Pagefind process of its own', async () => {
      mirror.site.control.updateItem('pl', 'posts', postIds['pl']!, { title: 'Bez liczb' });
      const built = await pullAndBuild(false);
      expect(built.signals[0]).toBe('warm-up');
      expect(built.signals).not.toContain('expect-edits');
    }, 300_000);
  });
});
