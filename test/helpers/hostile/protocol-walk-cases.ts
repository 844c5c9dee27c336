/**
 * Endless pagination of the page walks that are not the pull's crawl (issue 14, point 1):
 * `verify`'s listing of a collection and a backup's revisions list of one post, against a
 * server that hands out new pages without end (growing `X-CMS-TotalPages` or `X-CMS-Total`, a
 * `Link: rel=next` that never ends, no total at all) or declares an absurd total. Shared by
 * test/hostile/protocol-walks.test.ts and the benchmark (test/bench/hostile.bench.ts).
 *
 * Each bound is written out here from the rule the README states (⌈total/per_page⌉ + 2 pages
 * from what the first page declared; at most 1,000,000 items per listing and 10,000 revisions
 * per post), not imported from `src/`.
 */
import type { HostileAnswer, ScenarioContext } from './hostile-server.js';

/** The walks: the route each case answers. */
export type Walk = 'verify' | 'revisions' | 'autosaves';

export interface WalkCase {
  readonly name: string;
  readonly walk: Walk;
  /** The answer to one request of the walked route (`page` and `perPage` as asked). */
  readonly answer: (
    page: number,
    perPage: number,
    ctx: ScenarioContext,
  ) => HostileAnswer | Promise<HostileAnswer>;
  /** Most requests the walked route may get. */
  readonly bound: number;
  /** `refuse`: exit 2 and one line; `done`: exit 0 (the route is not walked at all). */
  readonly outcome: 'refuse' | 'done';
  /** What the error line must say besides the URL (refuse only). */
  readonly message?: RegExp;
}

/** `GET /pl/cms-json/cms/v2/posts/{id}/revisions` (and autosaves): the parent id, or undefined. */
export function parentOf(walk: Walk, pathname: string): number | undefined {
  if (walk === 'verify') return undefined;
  const match = new RegExp(`^/pl/cms-json/cms/v2/posts/(\\d+)/${walk}/?$`).exec(pathname);
  return match === null ? undefined : Number(match[1]);
}

/** A page of `perPage` records no page before handed out (ids from 500,000 up). */
function newRecords(page: number, perPage: number): string {
  return JSON.stringify(
    Array.from({ length: perPage }, (_, i) => ({
      id: 500_000 + page * perPage + i,
      modified_gmt: '2025-03-01T08:00:00',
      date_gmt: '2025-03-01T08:00:00',
      title: { rendered: `endless ${page}.${i}` },
    })),
  );
}

const endless =
  (headers: (page: number, perPage: number, ctx: ScenarioContext) => Record<string, string>) =>
  (page: number, perPage: number, ctx: ScenarioContext): HostileAnswer => ({
    status: 200,
    headers: headers(page, perPage, ctx),
    body: newRecords(page, perPage),
  });

/** A `Link` whose `next` is always one page further. */
const nextLink = (page: number, ctx: ScenarioContext): string => {
  const next = new URL(ctx.url);
  next.searchParams.set('page', String(page + 1));
  return `<${ctx.base}${next.pathname}${next.search}>; rel="next"`;
};

const DECLARED = /the first page declared/;

/** The endless kinds, each against verify (posts list) and a backup's revisions list. */
function endlessCases(walk: 'verify' | 'revisions', cap: string): WalkCase[] {
  return [
    {
      name: `${walk}: X-CMS-TotalPages grows with every page`,
      walk,
      // Page 1 declares 2 pages: pages 1-4 may be read.
      answer: endless((page, perPage) => ({
        'x-cms-total': String((page + 1) * perPage),
        'x-cms-totalpages': String(page + 1),
      })),
      bound: 4,
      outcome: 'refuse',
      message:
        /page 4 still says another page follows, but the first page declared X-CMS-Total: \d+, X-CMS-TotalPages: 2/,
    },
    {
      name: `${walk}: X-CMS-Total grows with every page, no X-CMS-TotalPages`,
      walk,
      answer: endless((page, perPage) => ({ 'x-cms-total': String((page + 1) * perPage) })),
      bound: 4,
      outcome: 'refuse',
      message: DECLARED,
    },
    {
      name: `${walk}: a Link rel=next that never ends, X-CMS-Total: 150`,
      walk,
      // ⌈150/100⌉ + 2 = 4.
      answer: endless((page, _perPage, ctx) => ({
        'x-cms-total': '150',
        link: nextLink(page, ctx),
      })),
      bound: 4,
      outcome: 'refuse',
      message: /declared X-CMS-Total: 150 \(2 pages of 100\)/,
    },
    {
      name: `${walk}: X-CMS-Total: 1000000000`,
      walk,
      answer: endless(() => ({ 'x-cms-total': '1000000000', 'x-cms-totalpages': '10000000' })),
      bound: 1,
      outcome: 'refuse',
      message: new RegExp(`declares X-CMS-Total: 1000000000.* more than the ${cap} items`),
    },
    {
      name: `${walk}: X-CMS-TotalPages: 1000000000 and no X-CMS-Total`,
      walk,
      answer: endless(() => ({ 'x-cms-totalpages': '1000000000' })),
      bound: 1,
      outcome: 'refuse',
      message: new RegExp(`declares X-CMS-TotalPages: 1000000000 .*more than the ${cap} items`),
    },
  ];
}

export const CASES: readonly WalkCase[] = [
  ...endlessCases('verify', '1000000'),
  ...endlessCases('revisions', '10000'),
  {
    name: 'revisions: full pages of new ids and no total at all',
    walk: 'revisions',
    // Nothing declared: the 10,000-revision cap, at per_page=100.
    answer: endless(() => ({})),
    bound: 100,
    outcome: 'refuse',
    message: /the first page declared no total and cms-mirror reads at most 10000 items/,
  },
  {
    name: 'autosaves: a list that claims 1,000,000 pages and links to the next',
    walk: 'autosaves',
    // The autosaves route has no pages: it is read once, whatever the headers say.
    answer: async (page, _perPage, ctx) => {
      const up = await ctx.forward();
      return {
        status: up.status,
        headers: { ...up.headers, 'x-cms-totalpages': '1000000', link: nextLink(page, ctx) },
        body: up.body,
      };
    },
    bound: 1,
    outcome: 'done',
  },
];
