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
import { shiftQueryTime, startHostileServer, withoutKeys } from './hostile-server.js';
import type { HostileServer, Scenario, ScenarioContext } from './hostile-server.js';
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
} from './protocol-harness.js';

/** The one second every post is moved to by the "bulk import" cases. */
const BULK_SECOND = '2025-03-01T08:00:00';

type SiteShape = 'spread' | 'one-second';

interface CrawlCase {
  readonly name: string;
  readonly shape: SiteShape;
  /** What the server does to list requests of posts (others pass). */
  readonly posts: (ctx: ScenarioContext) => ReturnType<Scenario>;
  /**
   * `mirror`: exit 0 and the cache holds exactly the site's posts; `skip`: exit 0, every record
   * skipped and counted, the cache's posts kept; `kept`: exit 0 with a warning, what the
   * cache held kept (a server whose records contradict its own filters cannot be mirrored
   * exactly); `refuse`: exit 2.
   */
  readonly outcome: 'mirror' | 'skip' | 'kept' | 'refuse';
  /** What the error line must say besides the URL (refuse only). */
  readonly message?: RegExp;
  /** The refused answers hold usable records, stored before the refusal (no digest check). */
  readonly storesRecords?: boolean;
}

const strip =
  (...keys: string[]) =>
  (ctx: ScenarioContext) =>
    ctx.forward(withoutKeys(ctx.url.searchParams, keys)).then(asAnswer);

const asAnswer = (up: Awaited<ReturnType<ScenarioContext['forward']>>) => ({
  status: up.status,
  headers: up.headers,
  body: up.body,
});

/** "At or after": `modified_after` read one second earlier (and `modified_before` later). */
const loose =
  (before: boolean) =>
  (ctx: ScenarioContext): ReturnType<Scenario> => {
    const query = new URLSearchParams(ctx.url.searchParams);
    const after = query.get('modified_after');
    if (after !== null) query.set('modified_after', shiftQueryTime(after, -1));
    const until = query.get('modified_before');
    if (before && until !== null) query.set('modified_before', shiftQueryTime(until, 1));
    return ctx.forward(query).then(asAnswer);
  };

/** Passes the request on, then rewrites its headers. */
const headers =
  (change: (h: Record<string, string>, ctx: ScenarioContext) => void) =>
  async (ctx: ScenarioContext): Promise<ReturnType<typeof asAnswer>> => {
    const up = await ctx.forward();
    const h = { ...up.headers };
    change(h, ctx);
    return { status: up.status, headers: h, body: up.body };
  };

/** Passes the request on, then rewrites its records. */
const records =
  (change: (list: Record<string, unknown>[], ctx: ScenarioContext) => unknown[]) =>
  async (ctx: ScenarioContext): Promise<ReturnType<typeof asAnswer>> => {
    const up = await ctx.forward();
    if (!Array.isArray(up.json)) return asAnswer(up);
    const body = JSON.stringify(change(up.json as Record<string, unknown>[], ctx));
    return { status: up.status, headers: up.headers, body: Buffer.from(body) };
  };

const pageOf = (ctx: ScenarioContext): number => Number(ctx.url.searchParams.get('page') ?? '1');

const junk = (make: (i: number, page: number) => unknown) => (ctx: ScenarioContext) => ({
  status: 200,
  headers: { 'x-cms-total': '150', 'x-cms-totalpages': '2' },
  body: JSON.stringify(Array.from({ length: 100 }, (_, i) => make(i, pageOf(ctx)))),
});

const CASES: readonly CrawlCase[] = [
  // The cases: filters ignored, all items of one second; "at or after" on a bulk import.
  ...(['spread', 'one-second'] as const).flatMap((shape): CrawlCase[] => [
    {
      name: `ignores modified_after, modified_before and orderby (${shape})`,
      shape,
      posts: strip('modified_after', 'modified_before', 'orderby', 'order'),
      outcome: 'mirror',
    },
    {
      name: `treats modified_after as "at or after" (${shape})`,
      shape,
      posts: loose(false),
      outcome: 'mirror',
    },
    {
      name: `treats modified_after and modified_before as inclusive (${shape})`,
      shape,
      posts: loose(true),
      outcome: 'mirror',
    },
    {
      name: `ignores modified_after only (${shape})`,
      shape,
      posts: strip('modified_after'),
      outcome: 'mirror',
    },
    {
      name: `ignores modified_before only (${shape})`,
      shape,
      posts: strip('modified_before'),
      outcome: 'mirror',
    },
    {
      name: `ignores orderby and order (${shape})`,
      shape,
      posts: strip('orderby', 'order'),
      outcome: 'mirror',
    },
    {
      name: `answers in the reverse order (${shape})`,
      shape,
      posts: (ctx) => {
        const query = new URLSearchParams(ctx.url.searchParams);
        query.set('order', query.get('order') === 'asc' ? 'desc' : 'asc');
        return ctx.forward(query).then(asAnswer);
      },
      outcome: 'mirror',
    },
    {
      name: `ignores every filter and page (${shape})`,
      shape,
      posts: strip('modified_after', 'modified_before', 'orderby', 'order', 'page', 'include'),
      outcome: 'refuse',
      message: /ignores "page"|do not move the crawl on/,
    },
    {
      name: `ignores page only (${shape})`,
      shape,
      posts: strip('page'),
      outcome: shape === 'spread' ? 'mirror' : 'refuse',
      message: /ignores "page"|do not move the crawl on/,
    },
    {
      name: `says X-CMS-Total: 999999 (${shape})`,
      shape,
      posts: headers((h) => {
        h['x-cms-total'] = '999999';
      }),
      outcome: 'mirror',
    },
    {
      name: `says X-CMS-Total: 0 and X-CMS-TotalPages: 0 (${shape})`,
      shape,
      posts: headers((h) => {
        h['x-cms-total'] = '0';
        h['x-cms-totalpages'] = '0';
      }),
      outcome: 'mirror',
    },
    {
      name: `says X-CMS-TotalPages: 1 while more pages follow (${shape})`,
      shape,
      posts: headers((h) => {
        h['x-cms-totalpages'] = '1';
      }),
      outcome: 'mirror',
    },
    {
      name: `sends totals that are not numbers (${shape})`,
      shape,
      posts: headers((h) => {
        h['x-cms-total'] = '-5';
        h['x-cms-totalpages'] = 'many';
      }),
      outcome: 'mirror',
    },
    {
      name: `sends no total headers at all (${shape})`,
      shape,
      posts: headers((h) => {
        delete h['x-cms-total'];
        delete h['x-cms-totalpages'];
      }),
      outcome: 'mirror',
    },
    {
      name: `sends a Link header whose next is the same page (${shape})`,
      shape,
      posts: headers((h, ctx) => {
        h['link'] = `<${ctx.base}${ctx.request.path}>; rel="next"`;
      }),
      outcome: 'mirror',
    },
  ]),
  {
    name: 'answers every page with 100 records without ids',
    shape: 'spread',
    posts: junk((i) => ({ title: `junk ${i}` })),
    outcome: 'refuse',
    message: /do not move the crawl on|still answered a full page/,
  },
  {
    name: 'answers every page with 100 new ids and no modified_gmt',
    shape: 'spread',
    posts: junk((i, page) => ({ id: 100_000 + page * 100 + i, title: 'junk' })),
    outcome: 'refuse',
    message: /still answered a full page|do not move the crawl on/,
  },
  {
    name: 'answers every page with one id repeated 100 times',
    shape: 'spread',
    posts: junk(() => ({ id: 7, modified_gmt: BULK_SECOND })),
    outcome: 'refuse',
    storesRecords: true,
    message: /ignores "page"|do not move the crawl on/,
  },
  {
    name: 'answers every page with 100 nulls',
    shape: 'spread',
    posts: junk(() => null),
    outcome: 'refuse',
    message: /do not move the crawl on|still answered a full page/,
  },
  {
    name: 'answers with items whose modified_gmt is in the year 9999',
    shape: 'spread',
    posts: records((list) =>
      list.map((item) => ({ ...item, modified_gmt: '9999-12-31T23:59:59' })),
    ),
    outcome: 'kept',
  },
  {
    name: 'answers with items whose modified_gmt is garbage',
    shape: 'spread',
    posts: records((list) => list.map((item) => ({ ...item, modified_gmt: 'yesterday' }))),
    outcome: 'skip',
  },
  {
    name: 'answers more items than per_page allows',
    shape: 'spread',
    posts: records((list) => [...list, ...list, ...list].slice(0, 101)),
    outcome: 'refuse',
    message: /answered \d+ items where per_page=\d+ allows \d+/,
  },
  {
    name: 'answers an object instead of a list',
    shape: 'spread',
    posts: () => ({ body: JSON.stringify({ items: [] }) }),
    outcome: 'refuse',
    message: /something other than a list/,
  },
  {
    name: 'answers null instead of a list',
    shape: 'spread',
    posts: () => ({ body: 'null' }),
    outcome: 'refuse',
    message: /something other than a list/,
  },
  {
    name: 'answers a string instead of a list',
    shape: 'spread',
    posts: () => ({ body: '"posts"' }),
    outcome: 'refuse',
    message: /something other than a list/,
  },
];

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
          if (live.length < publishedIds(server, 'pl', 'posts').length) {
            expect(result.stderr).toMatch(/the site lists \d+ items, the cache \d+/);
          }
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
