/**
 * Hostile bodies (issue 14, points 2 and 6a): compressed bodies nobody asked for, bytes that
 * are not UTF-8, JSON cut short or padded with junk, bodies too large or nested too deep to
 * process, odd content types. Each case pulls through the CLI into a copy of a good cache and
 * asserts the exit code, ONE error line naming the URL (and saying what the body is), the
 * cache's rows untouched when the pull is refused, and the posts bound on list requests.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempCache, type TempCache } from '../helpers/temp-cache.js';
import { startHostileServer } from '../helpers/hostile/hostile-server.js';
import type { HostileServer, ScenarioContext } from '../helpers/hostile/hostile-server.js';
import { CASES } from '../helpers/hostile/protocol-body-cases.js';
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

describe('hostile bodies: a clear error naming the URL, or an exact mirror', () => {
  let server: HostileServer;
  let temp: TempCache;
  let warm: string;
  let caseNo = 0;

  beforeAll(async () => {
    server = await startHostileServer({ languages: ['pl'], posts: 30 });
    temp = tempCache('cms-mirror-hostile-body-');
    warm = join(temp.dir, 'warm.sqlite');
    const pipeline = writePipeline(temp.dir, 'good.yaml', { retries: 1 });
    const good = await pullThrough(server, warm, pipeline);
    expect(good.code, good.stderr).toBe(0);
    // Every case starts the crawl from the beginning: the bad answer is the first page.
  }, 60_000);

  afterAll(async () => {
    await server.close();
    temp.cleanup();
  });

  for (const c of CASES) {
    it(c.name, async () => {
      const n = (caseNo += 1);
      const pipeline = writePipeline(temp.dir, `p-${n}.yaml`, {
        retries: 1,
        timeoutMs: 10_000,
        ...c.http,
      });
      const cache = join(temp.dir, `case-${n}.sqlite`);
      copyCache(warm, cache);
      // A new post makes the warm pull fetch a page of posts (the case's bad answer).
      const created = server.site.control.createItems('pl', 'posts', 1);
      const before = itemsDigest(cache);
      server.clearLog();
      server.setScenario(
        guarded(server, async (ctx: ScenarioContext) => {
          const hit =
            (c.target ?? 'posts') === 'posts'
              ? ctx.request.list?.collection === 'posts' && !ctx.url.searchParams.has('include')
              : ctx.url.pathname === '/pl/cms-json/' || ctx.url.pathname === '/pl/cms-json';
          if (!hit) return undefined;
          const up = await ctx.forward();
          return c.answer(up.body, up);
        }),
      );
      const result = await pullThrough(server, cache, pipeline);
      server.setScenario(undefined);
      expect(server.listRequests('posts')).toBeLessThanOrEqual(2 * listBound(31));
      if (c.code === 0) {
        expect(result.code, result.stderr).toBe(0);
        expect(cachedIds(cache, 'pl', 'posts')).toEqual(publishedIds(server, 'pl', 'posts'));
        expect(cachedIds(cache, 'pl', 'posts')).toContain(created[0]?.id);
        return;
      }
      expect(result.code, result.stderr).toBe(c.code);
      const line = errorLine(result);
      expect(line).toContain(
        (c.target ?? 'posts') === 'posts'
          ? `${server.url}/pl/cms-json/cms/v2/posts`
          : `${server.url}/pl/cms-json/`,
      );
      expect(line).toMatch(c.line ?? /./);
      expect(itemsDigest(cache)).toBe(before);
      expect(result.stdout).not.toMatch(/"total"/);
    });
  }
});
