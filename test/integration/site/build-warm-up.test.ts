/**
 * Where a build has the render worker run the theme once with no pages (its warm-up): it lets
 * Eleventy's first run overlap this thread's transform and full plan, but an edit build plans
 * in a few hundred ms and its pages then waited behind the warm-up (test/bench/RESULTS.md,
 * i-edit11). After a pull of a few changes the warm-up is sent only if a language falls back
 * to a full plan, and the render worker is asked instead to start the first changed language's
 * Eleventy run before its pages come (`JobRenderer.prepare`); a build without a pull's counts
 * warms up from its start, as before.
 */
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startMirror, type Mirror } from '../../helpers/e2e-site.js';
import { getJson, type Json } from '../../helpers/reference.js';
import { build, pull } from '../../../src/index.js';
import { startBuildWorkers, type BuildWorkers } from '../../../src/site/build-workers.js';

describe('the render worker’s warm-up', () => {
  let mirror: Mirror;
  let postId: number;

  beforeAll(async () => {
    mirror = await startMirror({ reference: { posts: 30 } });
    await mirror.run();
    const listed = await getJson(mirror.site, 'pl', '/cms/v2/posts', { query: { per_page: 20 } });
    const open = (listed.body as Json[]).filter((post) => !post.content.protected);
    postId = open[5]?.id as number;
    expect(postId).toBeGreaterThan(0);
  }, 300_000);
  afterAll(async () => {
    await mirror?.close();
  });

  /**
   * A pull, then a build on workers that record each request in order (`warm-up`, `render`).
   * `counted` false: the build gets no counts from the pull, as `cms-mirror build`.
   */
  async function pullAndBuild(counted = true): Promise<{ plan?: string; requests: string[] }> {
    const settings = mirror.settings();
    const pulled = await pull({ settings });
    const workers = startBuildWorkers();
    const requests: string[] = [];
    const recording: BuildWorkers = {
      ...workers,
      render: (input) => {
        requests.push('render');
        return workers.render(input);
      },
      warmUp: (dir) => {
        requests.push('warm-up');
        workers.warmUp(dir);
      },
      prepare: (target) => {
        requests.push(`prepare ${path.relative(settings.output, target.outDir)}`);
        workers.prepare(target);
      },
      close: () => Promise.resolve(),
    };
    try {
      const summary = await build({
        settings,
        ...(counted ? { changed: pulled.changed } : {}),
        workers: () => recording,
      });
      const pl = summary.languages['pl'] as { plan?: string } | undefined;
      return { ...(pl?.plan !== undefined ? { plan: pl.plan } : {}), requests };
    } finally {
      await workers.close();
    }
  }

  it('is not sent before an edit build: the edited language’s run is prepared instead', async () => {
    mirror.site.control.updateItem('pl', 'posts', postId, { title: 'Tytuł bez rozgrzewki' });
    const built = await pullAndBuild();
    expect(built.plan).toBe('edits');
    expect(built.requests.slice(0, 2)).toEqual(['prepare pl', 'render']);
    expect(built.requests).not.toContain('warm-up');
  }, 300_000);

  it('is sent once before the first render when a few changes fall back to a full plan', async () => {
    mirror.site.control.createItems('pl', 'posts', 1, { title: 'Nowy wpis z rozgrzewką' });
    const built = await pullAndBuild();
    expect(built.plan).toBe('full');
    // Prepared first, as for any few changes; the warm-up then comes before any render.
    expect(built.requests.slice(0, 2)).toEqual(['prepare pl', 'warm-up']);
    expect(built.requests.filter((request) => request === 'warm-up')).toHaveLength(1);
  }, 300_000);

  it('is sent from the start of a build that has no pull’s counts', async () => {
    mirror.site.control.updateItem('pl', 'posts', postId, { title: 'Tytuł z rozgrzewką' });
    const built = await pullAndBuild(false);
    expect(built.requests[0]).toBe('warm-up');
    expect(built.requests.filter((request) => request === 'warm-up')).toHaveLength(1);
  }, 300_000);
});
