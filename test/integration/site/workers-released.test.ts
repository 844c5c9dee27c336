/**
 * When a run's build tells its workers what is coming and what is over: after a pull of a few
 * changes, an edit build is expected (Pagefind's process started on the build's thread, no
 * warm-up); the render worker is let go once the last language that renders has its pages
 * back, and the search indexers once its bundles are back, so that their teardown overlaps
 * the commit rather than following it (issue 17, i-edit13). A language that renders after
 * another keeps the worker until its own pages are back.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMirror, type Mirror } from '../../helpers/e2e-site.js';
import { getJson, type Json } from '../../helpers/reference.js';
import { build, pull } from '../../../src/index.js';
import { startBuildWorkers, type BuildWorkers } from '../../../src/site/build-workers.js';

describe('the build workers of a run', () => {
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
   * A pull, then a build on workers that record each signal in order, as a run's are (its
   * last build's: `rendersDone` and `indexingDone` stop the workers). `counted` false: the
   * build gets no counts from the pull, as `cms-mirror build`.
   */
  async function pullAndBuild(counted = true): Promise<{ plans: string[]; signals: string[] }> {
    const settings = mirror.settings();
    const pulled = await pull({ settings });
    const workers = startBuildWorkers();
    const signals: string[] = [];
    const recording: BuildWorkers = {
      ...workers,
      render: (input) => {
        signals.push(`render ${input.global.lang}`);
        return workers.render(input);
      },
      warmUp: (dir) => {
        signals.push('warm-up');
        workers.warmUp(dir);
      },
      expectEdits: () => {
        signals.push('expect-edits');
        workers.expectEdits?.();
      },
      rendersDone: () => {
        signals.push('renders-done');
        workers.rendersDone?.();
      },
      indexingDone: () => {
        signals.push('indexing-done');
        workers.indexingDone?.();
      },
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

  // The languages build in code order: es, then pl.
  it('expects an edit build and lets each worker go once the last language is done with it', async () => {
    mirror.site.control.updateItem('es', 'posts', postIds['es']!, { title: 'Solo es' });
    const built = await pullAndBuild();
    expect(built.plans).toEqual(['es edits', 'pl skipped']);
    expect(built.signals).toEqual(['expect-edits', 'render es', 'renders-done', 'indexing-done']);
  }, 300_000);

  it('keeps the render worker for a later language that renders', async () => {
    mirror.site.control.updateItem('pl', 'posts', postIds['pl']!, { title: 'Oba języki, pl' });
    mirror.site.control.updateItem('es', 'posts', postIds['es']!, { title: 'Ambos idiomas, es' });
    const built = await pullAndBuild();
    expect(built.plans).toEqual(['es edits', 'pl edits']);
    expect(built.signals).toEqual([
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
