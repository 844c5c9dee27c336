/**
 * The hostile fault scenarios (issue 14, point 6b and the fault family), shared by
 * faults.test.ts and the benchmark. Each answers the n-th request to a list of posts.
 */
import type { HostileAnswer, ScenarioContext } from './hostile-server.js';

const restError = (status: number, code: string): HostileAnswer => ({
  status,
  body: JSON.stringify({ code, message: `hostile ${code}`, data: { status } }),
});

export interface FaultCase {
  readonly name: string;
  /** Answer of the n-th (1-based) request to a posts list; undefined passes it on. */
  readonly answer: (
    n: number,
    ctx: ScenarioContext,
    other: string,
  ) => HostileAnswer | undefined | Promise<HostileAnswer | undefined>;
  readonly http?: Record<string, number>;
  readonly code: 0 | 1 | 2 | 3;
  readonly line?: RegExp;
  /** Exact number of requests the posts route gets (failing cases). */
  readonly attempts?: number;
  /** Reference-site faults instead of a scenario. */
  readonly faults?: string;
}

const always = (answer: HostileAnswer) => (): HostileAnswer => answer;
const once =
  (answer: HostileAnswer) =>
  (n: number): HostileAnswer | undefined =>
    n === 1 ? answer : undefined;

const tooMany = (retryAfter?: string): HostileAnswer => ({
  ...restError(429, 'rest_too_many_requests'),
  headers: retryAfter === undefined ? {} : { 'retry-after': retryAfter },
});

export const CASES: readonly FaultCase[] = [
  {
    name: 'Retry-After: 999999 on a 429',
    answer: always(tooMany('999999')),
    code: 1,
    line: /answered 429 .*asked to wait 277\.8 h \(Retry-After: 999999\), more than http\.retryAfterMaxMs \(60000 ms\): stopped without waiting/,
    attempts: 1,
  },
  {
    name: 'Retry-After as an HTTP date a day ahead',
    answer: always(tooMany(new Date(Date.now() + 86_400_000).toUTCString())),
    code: 1,
    line: /asked to wait 24 h \(Retry-After: .* GMT\), more than http\.retryAfterMaxMs/,
    attempts: 1,
  },
  {
    name: 'Retry-After: 2 with http.retryAfterMaxMs 1000',
    answer: always(tooMany('2')),
    http: { retryAfterMaxMs: 1000 },
    code: 1,
    line: /asked to wait 2 s \(Retry-After: 2\), more than http\.retryAfterMaxMs \(1000 ms\)/,
    attempts: 1,
  },
  {
    name: 'Retry-After: 3600 on a 503',
    answer: always({ ...restError(503, 'maintenance'), headers: { 'retry-after': '3600' } }),
    code: 1,
    line: /answered 503 .*Retry-After: 3600/,
    attempts: 1,
  },
  {
    name: 'one 429 with Retry-After: 1 under the cap',
    answer: once(tooMany('1')),
    http: { retryAfterMaxMs: 1000 },
    code: 0,
  },
  {
    name: 'a 429 storm with Retry-After: 0',
    answer: always(tooMany('0')),
    code: 1,
    line: /answered 429 \(rest_too_many_requests: hostile rest_too_many_requests\) after 3 attempts \(2 retries\)/,
    attempts: 3,
  },
  {
    name: 'a 429 storm without Retry-After',
    answer: always(tooMany()),
    code: 1,
    line: /answered 429 .*after 3 attempts \(2 retries\)/,
    attempts: 3,
  },
  {
    name: 'a 429 storm with Retry-After: soon (unreadable)',
    answer: always(tooMany('soon')),
    code: 1,
    line: /answered 429 .*after 3 attempts/,
    attempts: 3,
  },
  {
    name: 'a 429 storm with Retry-After: -5',
    answer: always(tooMany('-5')),
    code: 1,
    line: /answered 429 .*after 3 attempts/,
    attempts: 3,
  },
  {
    name: 'a 503 storm',
    answer: always(restError(503, 'unavailable')),
    code: 1,
    line: /answered 503 .*after 3 attempts \(2 retries\)/,
    attempts: 3,
  },
  {
    name: 'a 500 storm',
    answer: always(restError(500, 'internal')),
    code: 1,
    line: /answered 500 .*after 3 attempts/,
    attempts: 3,
  },
  {
    name: 'a 502 storm with an HTML page',
    answer: always({
      status: 502,
      body: '<html><body>Bad Gateway</body></html>',
      headers: { 'content-type': 'text/html' },
    }),
    code: 1,
    line: /answered 502 after 3 attempts/,
    attempts: 3,
  },
  {
    name: 'one 502 then the answer',
    answer: once(restError(502, 'gateway')),
    code: 0,
  },
  {
    name: 'a 501 (never retried)',
    answer: always(restError(501, 'not_implemented')),
    code: 1,
    line: /answered 501 \(not_implemented/,
    attempts: 1,
  },
  {
    name: 'a 401 on the crawl',
    answer: always(restError(401, 'rest_forbidden')),
    // The credential check is the first posts request: refused credentials, not a crawl error.
    code: 2,
    line: /refused the credentials in CMS_USER\/CMS_APP_PASSWORD .*answered 401/,
    attempts: 1,
  },
  {
    name: 'a 403 on the crawl',
    // After the credential check passed: the crawl itself is refused.
    answer: (_n, ctx) =>
      ctx.url.searchParams.get('per_page') === '1'
        ? undefined
        : restError(403, 'rest_forbidden_context'),
    code: 1,
    line: /per_page=100\S* answered 403 \(rest_forbidden_context/,
  },
  {
    name: 'a 404 rest_no_route on the crawl',
    answer: always(restError(404, 'rest_no_route')),
    code: 1,
    line: /answered 404 \(rest_no_route/,
    attempts: 1,
  },
  {
    name: 'a 410 on the crawl',
    answer: always(restError(410, 'gone')),
    code: 1,
    line: /answered 410/,
    attempts: 1,
  },
  {
    name: 'a 400 rest_invalid_param on the crawl',
    answer: always(restError(400, 'rest_invalid_param')),
    code: 1,
    line: /answered 400 \(rest_invalid_param/,
    attempts: 1,
  },
  {
    name: 'a 200 with Retry-After (ignored)',
    answer: async (_n, ctx) => {
      const up = await ctx.forward();
      return { ...up, headers: { ...up.headers, 'retry-after': '999999' } };
    },
    code: 0,
  },
  {
    name: 'connections reset on every attempt',
    answer: always({ destroy: true }),
    code: 1,
    line: /failed: /,
    attempts: 3,
  },
  {
    name: 'one connection reset',
    answer: once({ destroy: true }),
    code: 0,
  },
  {
    name: 'headers, then no body (stall)',
    answer: always({ hang: true }),
    http: { timeoutMs: 700 },
    code: 1,
    line: /timed out|Body Timeout/,
    attempts: 3,
  },
  {
    name: 'a body dripped slower than the timeout',
    answer: always({
      body: '[' + ' '.repeat(400) + ']',
      drip: { chunkBytes: 10, intervalMs: 100 },
    }),
    http: { timeoutMs: 700 },
    code: 1,
    line: /timed out/,
    attempts: 3,
  },
  {
    name: 'a redirect to another origin',
    answer: (_n, ctx, other) => ({
      status: 301,
      headers: { location: `${other}${ctx.request.path}` },
    }),
    code: 1,
    line: /answered 301/,
    attempts: 1,
  },
  {
    name: 'a redirect to itself (loop)',
    answer: (_n, ctx) => ({
      status: 302,
      headers: { location: `${ctx.base}${ctx.request.path}` },
    }),
    code: 1,
    line: /answered 302/,
    attempts: 1,
  },
  {
    name: 'a 307 to another path of the same origin',
    answer: (_n, ctx) => ({ status: 307, headers: { location: `${ctx.base}/elsewhere` } }),
    code: 1,
    line: /answered 307/,
    attempts: 1,
  },
  { name: 'random 500s (30 %)', answer: () => undefined, faults: 'error=0.3,faultSeed=3', code: 0 },
  {
    name: 'random resets (30 %)',
    answer: () => undefined,
    faults: 'reset=0.3,faultSeed=4',
    code: 0,
  },
  {
    name: 'random truncated bodies (30 %)',
    answer: () => undefined,
    faults: 'truncate=0.3,faultSeed=5',
    code: 0,
  },
  {
    name: 'random 429s with Retry-After: 0 (30 %)',
    answer: () => undefined,
    faults: '429=0.3,retryAfter=0,faultSeed=6',
    code: 0,
  },
];
