/**
 * The hostile list scenarios (issue 14, point 1), shared by protocol-crawl.test.ts and the
 * benchmark (test/bench/hostile.bench.ts). Each answers list requests of posts.
 */
import { shiftQueryTime, withoutKeys } from './hostile-server.js';
import type { Scenario, ScenarioContext } from './hostile-server.js';

/** The one second every post is moved to by the "bulk import" cases. */
export const BULK_SECOND = '2025-03-01T08:00:00';

export type SiteShape = 'spread' | 'one-second';

export interface CrawlCase {
  readonly name: string;
  readonly shape: SiteShape;
  /** What the server does to list requests of posts (others pass). */
  readonly posts: (ctx: ScenarioContext) => ReturnType<Scenario>;
  /**
   * `mirror`: exit 0 and the cache holds exactly the site's posts; `skip`: exit 0, every record
   * skipped and counted, the cache's posts kept; `kept`: exit 0, what the
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

export const CASES: readonly CrawlCase[] = [
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
