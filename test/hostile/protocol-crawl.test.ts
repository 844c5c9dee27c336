/**
 * Hostile lists (issue 14, point 1): servers that ignore or loosen `modified_after`,
 * `modified_before`, `orderby` and `page`, lie in their total headers or fill pages with junk.
 * Every case pulls through the CLI into a copy of a good cache (or an empty one) and asserts:
 * the posts crawl sends at most 3·⌈N/100⌉ + 10 list requests; the pull either mirrors the
 * site exactly (exit 0) or stops with exit 2 and one line naming the URL; nothing the cache
 * held is lost.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCache, type TempCache } from '../helpers/temp-cache.js';
import { startHostileServer } from '../helpers/hostile/hostile-server.js';
import type { HostileServer } from '../helpers/hostile/hostile-server.js';
import { BULK_SECOND, CASES, type SiteShape } from '../helpers/hostile/protocol-crawl-cases.js';
import {
  cachedIds,
  copyCache,
  errorLine,
  guarded,
  itemsDigest,
  listBound,
  publishedIds,
  pullThrough,
  writePipeline,
} from '../helpers/hostile/protocol-harness.js';

describe('hostile lists: bounded crawl, exact mirror or exit 2, nothing lost', () => {
  let server: HostileServer;
  let temp: TempCache;
  let pipeline: string;
  let warm: string;
  let original: Map<number, number>;
  let caseNo = 0;

  const shape = (to: SiteShape): void => {
    const control = server.site.control;
    if (to === 'one-second') {
      control.setModified('pl', 'posts', [...original.keys()], BULK_SECOND);
      return;
    }
    for (const [id, epoch] of original) {
      control.setModified('pl', 'posts', [id], new Date(epoch * 1000));
    }
  };

  beforeAll(async () => {
    server = await startHostileServer({ languages: ['pl'], posts: 150 });
    temp = tempCache('cms-mirror-hostile-crawl-');
    pipeline = writePipeline(temp.dir, 'pipeline.yaml', { retries: 1, timeoutMs: 10_000 });
    original = new Map(
      server.site.control.listItems('pl', 'posts').map((item) => [item.id, item.modifiedGmt]),
    );
    warm = join(temp.dir, 'warm.sqlite');
    const good = await pullThrough(server, warm, pipeline);
    expect(good.code, good.stderr).toBe(0);
    expect(cachedIds(warm, 'pl', 'posts')).toEqual(publishedIds(server, 'pl', 'posts'));
  }, 60_000);

  afterAll(async () => {
    await server.close();
    temp.cleanup();
  });

  for (const c of CASES) {
    for (const start of ['empty', 'warm'] as const) {
      it(`${c.name}, ${start} cache`, async () => {
        shape(c.shape);
        const cache = join(temp.dir, `case-${(caseNo += 1)}.sqlite`);
        if (start === 'warm') copyCache(warm, cache);
        const before = start === 'warm' ? itemsDigest(cache) : undefined;
        const heldBefore = start === 'warm' ? cachedIds(cache, 'pl', 'posts') : [];
        server.clearLog();
        server.setScenario(
          guarded(server, (ctx) =>
            ctx.request.list?.collection === 'posts' ? c.posts(ctx) : undefined,
          ),
        );
        const result = await pullThrough(server, cache, pipeline);
        server.setScenario(undefined);
        const n = Math.max(original.size, heldBefore.length);
        expect(server.listRequests('posts')).toBeLessThanOrEqual(listBound(n));
        if (c.outcome === 'mirror') {
          expect(result.code, result.stderr).toBe(0);
          expect(cachedIds(cache, 'pl', 'posts')).toEqual(publishedIds(server, 'pl', 'posts'));
          const summary = JSON.parse(result.stdout) as { total: { requests: number } };
          expect(summary.total.requests).toBeGreaterThan(0);
        } else if (c.outcome === 'kept') {
          expect(result.code, result.stderr).toBe(0);
          const live = cachedIds(cache, 'pl', 'posts');
          for (const id of heldBefore) expect(live).toContain(id);
          // The shortfall is what the site counts but cannot list (recorded as such by the
          // deletion check); the next full listing reads again.
          expect(live.length).toBeGreaterThan(0);
        } else if (c.outcome === 'skip') {
          expect(result.code, result.stderr).toBe(0);
          const summary = JSON.parse(result.stdout) as { total: { skipped: number } };
          const published = publishedIds(server, 'pl', 'posts').length;
          if (start === 'empty') expect(summary.total.skipped).toBe(published);
          else expect(summary.total.skipped).toBeGreaterThan(0);
          expect(cachedIds(cache, 'pl', 'posts')).toEqual(heldBefore);
        } else {
          expect(result.code, result.stderr).toBe(2);
          const line = errorLine(result);
          expect(line).toContain(`${server.url}/pl/cms-json/cms/v2/posts`);
          expect(line).toMatch(c.message ?? /./);
          // Nothing the cache held is lost; a refused run left it exactly as it was when the
          // site did not change (the one-second cases change every post's modified_gmt).
          for (const id of heldBefore) expect(cachedIds(cache, 'pl', 'posts')).toContain(id);
          if (before !== undefined && c.shape === 'spread' && c.storesRecords !== true) {
            expect(itemsDigest(cache)).toBe(before);
          }
        }
      });
    }
  }
});
