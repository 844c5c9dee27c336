/**
 * The search page of one built language in Chromium: what it fetches and how long it takes
 * before the first result, however many search bundles the language has.
 *   npx tsx test/bench/search-page.bench.ts LANG_FOLDER [rounds=3] [query] [search.js]
 * LANG_FOLDER is a built language (`output/pl`, holding `search/index.html` and
 * `pagefind/s0`…`sN`); it is served read-only from 127.0.0.1 by a counting server. The query
 * defaults to the title of a post of the last bundle, and the round ends when that post is
 * listed (any result, with a query of your own). A `search.js` given is served in place of
 * the folder's `assets/search.js`, to try a changed page script on a site already built.
 * LATENCY_MS=n holds each answer back n ms (a network's round trip; the server speaks HTTP/1.1,
 * so the browser opens at most 6 connections); GZIP_ENCODING=1 sends Pagefind's gzip files as
 * `Content-Encoding: gzip`, as a host may.
 * Each round starts a fresh browser (nothing cached) and prints: requests and bytes by kind up
 * to the first result, the time to it, when the last bundle's metadata arrived, the JS heap of
 * the page and of its Pagefind worker, the browser's CPU and resident memory, and the load.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { chromium, type Browser, type CDPSession } from 'playwright-core';
import { findChromium } from '../helpers/find-browser.js';
import { startCountingServer, type Served } from './counting-static-server.js';
import { childrenMatching, treeRssMb } from './process-tree.js';

const FOLDER = path.resolve(process.argv[2] ?? '');
const ROUNDS = Number(process.argv[3] ?? 3);
const QUERY_ARG = process.argv[4] || undefined;
const SEARCH_JS = process.argv[5] ? path.resolve(process.argv[5]) : undefined;
const LATENCY_MS = Number(process.env.LATENCY_MS ?? 0);
const GZIP_ENCODING = process.env.GZIP_ENCODING === '1';
const LAUNCH_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run'];
const KINDS = ['page', 'scripts', 'wasm', 'entry', 'meta', 'index', 'fragment'] as const;
type Kind = (typeof KINDS)[number];

/** What a request of the search page is, by its path. */
function kindOf(urlPath: string): Kind {
  if (/\/wasm\.[^/]+\.pagefind$/.test(urlPath)) return 'wasm';
  if (urlPath.endsWith('/pagefind-entry.json')) return 'entry';
  if (urlPath.endsWith('.pf_meta')) return 'meta';
  if (urlPath.endsWith('.pf_index')) return 'index';
  if (urlPath.endsWith('.pf_fragment')) return 'fragment';
  if (/\.(js|css)$/.test(urlPath)) return 'scripts';
  return 'page';
}

/** A post of the last bundle: its title as the query, its URL as the result to wait for. */
function lastBundlePost(folder: string): { query: string; url: string; bundles: number } {
  const bundles = fs
    .readdirSync(path.join(folder, 'pagefind'))
    .filter((name) => /^s\d+$/.test(name))
    .map((name) => Number(name.slice(1)));
  const last = Math.max(...bundles);
  const dir = path.join(folder, 'pagefind', `s${last}`, 'fragment');
  const first = fs.readdirSync(dir).sort()[0] as string;
  // Pagefind's files are gzip with a 12-byte signature inside.
  const body = zlib.gunzipSync(fs.readFileSync(path.join(dir, first))).subarray(12);
  const fragment = JSON.parse(body.toString('utf8')) as { url: string; meta: { title: string } };
  return { query: fragment.meta.title, url: fragment.url, bundles: bundles.length };
}

/** CPU seconds (user + sys) of a process and its descendants, and the renderers' resident MB. */
function browserUse(root: number): { cpuSeconds: number; rendererMb: number } {
  const children = new Map<number, number[]>();
  const ticks = new Map<number, number>();
  for (const name of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      children.set(ppid, [...(children.get(ppid) ?? []), Number(name)]);
      ticks.set(Number(name), Number(fields[11]) + Number(fields[12]));
    } catch {
      // exited meanwhile
    }
  }
  let total = 0;
  let rendererKb = 0;
  const stack = [root];
  while (stack.length > 0) {
    const pid = stack.pop()!;
    total += ticks.get(pid) ?? 0;
    try {
      if (fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--type=renderer')) {
        const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
        rendererKb += Number(/^VmRSS:\s+(\d+) kB$/m.exec(status)?.[1] ?? 0);
      }
    } catch {
      // exited meanwhile
    }
    stack.push(...(children.get(pid) ?? []));
  }
  return { cpuSeconds: total / 100, rendererMb: rendererKb / 1024 }; // USER_HZ
}

/** Heap used by each dedicated worker the page starts, read through the page's CDP session. */
async function watchWorkers(cdp: CDPSession): Promise<() => Promise<number[]>> {
  const sessions: string[] = [];
  const pending = new Map<number, (value: number) => void>();
  let nextId = 1;
  cdp.on('Target.attachedToTarget', (event) => {
    if (event.targetInfo.type === 'worker') sessions.push(event.sessionId);
  });
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    const message = JSON.parse(event.message) as { id?: number; result?: { usedSize: number } };
    if (message.id !== undefined) pending.get(message.id)?.(message.result?.usedSize ?? 0);
  });
  await cdp.send('Target.setAutoAttach', {
    autoAttach: true,
    waitForDebuggerOnStart: false,
    flatten: false,
  });
  return () =>
    Promise.all(
      sessions.map(
        (sessionId) =>
          new Promise<number>((resolve) => {
            const id = nextId++;
            pending.set(id, resolve);
            setTimeout(() => resolve(-1), 5000);
            void cdp
              .send('Target.sendMessageToTarget', {
                sessionId,
                message: JSON.stringify({ id, method: 'Runtime.getHeapUsage' }),
              })
              .catch(() => resolve(-1));
          }),
      ),
    );
}

interface Round {
  load: string;
  firstResultMs: number;
  lastMetaMs: number;
  byKind: Map<Kind, { count: number; bytes: number }>;
  pageHeapMb: number;
  workerHeapMb: number[];
  browserCpuS: number;
  browserPeakMb: number;
  rendererMb: number;
}

async function round(
  browser: Browser,
  browserPid: number,
  serverUrl: string,
  target: { query: string; url?: string },
  served: () => readonly Served[],
  reset: () => void,
): Promise<Round> {
  const lang = path.basename(FOLDER);
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable');
  const workerHeaps = await watchWorkers(cdp);
  const load = os
    .loadavg()
    .map((value) => value.toFixed(2))
    .join(' ');
  let browserPeakMb = treeRssMb(browserPid);
  const sampler = setInterval(() => {
    browserPeakMb = Math.max(browserPeakMb, treeRssMb(browserPid));
  }, 100);
  const cpuBefore = browserUse(browserPid).cpuSeconds;
  reset();
  const started = performance.now();
  await page.goto(`${serverUrl}/${lang}/search/?q=${encodeURIComponent(target.query)}`);
  const result = target.url
    ? `a.pagefind-ui__result-link[href$="${target.url}"]`
    : 'a.pagefind-ui__result-link';
  await page.waitForSelector(result, { timeout: 600_000 });
  const firstResultMs = performance.now() - started;
  clearInterval(sampler);
  const after = browserUse(browserPid);
  const browserCpuS = after.cpuSeconds - cpuBefore;
  const metrics = (await cdp.send('Performance.getMetrics')).metrics;
  const pageHeap = metrics.find((metric) => metric.name === 'JSHeapUsedSize')?.value ?? 0;
  const workerHeapMb = (await workerHeaps()).map((bytes) => bytes / 2 ** 20);
  const before = served().filter((entry) => entry.startMs <= firstResultMs);
  const byKind = new Map<Kind, { count: number; bytes: number }>();
  for (const entry of before) {
    const kind = kindOf(entry.path);
    const sum = byKind.get(kind) ?? { count: 0, bytes: 0 };
    sum.count += 1;
    sum.bytes += entry.bytes;
    byKind.set(kind, sum);
  }
  const metaEnds = before.filter((entry) => kindOf(entry.path) === 'meta').map((e) => e.endMs);
  await context.close();
  return {
    load,
    firstResultMs,
    lastMetaMs: Math.max(0, ...metaEnds),
    byKind,
    pageHeapMb: pageHeap / 2 ** 20,
    workerHeapMb,
    browserCpuS,
    browserPeakMb,
    rendererMb: after.rendererMb,
  };
}

function printRound(index: number, figures: Round): void {
  const kinds = KINDS.map((kind) => {
    const sum = figures.byKind.get(kind) ?? { count: 0, bytes: 0 };
    return `${kind} ${sum.count} / ${(sum.bytes / 1024).toFixed(0)} KB`;
  });
  const total = [...figures.byKind.values()].reduce(
    (sum, kind) => ({ count: sum.count + kind.count, bytes: sum.bytes + kind.bytes }),
    { count: 0, bytes: 0 },
  );
  console.log(
    `round ${index}: load ${figures.load} | first result ${figures.firstResultMs.toFixed(0)} ms, ` +
      `last bundle metadata at ${figures.lastMetaMs.toFixed(0)} ms | ` +
      `${total.count} requests, ${(total.bytes / 2 ** 20).toFixed(2)} MB: ${kinds.join(', ')} | ` +
      `JS heap page ${figures.pageHeapMb.toFixed(1)} MB, worker ` +
      `${figures.workerHeapMb.map((mb) => mb.toFixed(1)).join('+') || '-'} MB | ` +
      `browser CPU ${figures.browserCpuS.toFixed(2)} s, tree peak RSS ${figures.browserPeakMb.toFixed(0)} MB, ` +
      `renderers ${figures.rendererMb.toFixed(0)} MB`,
  );
}

async function main(): Promise<void> {
  if (!fs.existsSync(path.join(FOLDER, 'search', 'index.html'))) {
    throw new Error(`${FOLDER} is not a built language folder (no search/index.html)`);
  }
  const post = lastBundlePost(FOLDER);
  const target = QUERY_ARG ? { query: QUERY_ARG } : post;
  const overrides = new Map<string, string>();
  if (SEARCH_JS) overrides.set(`/${path.basename(FOLDER)}/assets/search.js`, SEARCH_JS);
  const server = await startCountingServer(path.dirname(FOLDER), {
    overrides,
    latencyMs: LATENCY_MS,
    gzipEncoding: GZIP_ENCODING,
  });
  const found = await findChromium();
  console.log(
    `${FOLDER}: ${post.bundles} bundles; query "${target.query}"` +
      `${QUERY_ARG ? '' : ` (waits for ${post.url}, bundle s${post.bundles - 1})`}` +
      `${SEARCH_JS ? `; search.js from ${SEARCH_JS}` : ''}; latency ${LATENCY_MS} ms; ` +
      `Content-Encoding gzip ${GZIP_ENCODING ? 'yes' : 'no'}; ${os.cpus().length} cores`,
  );
  try {
    for (let index = 1; index <= ROUNDS; index++) {
      const browser = await chromium.launch({
        executablePath: found.executablePath,
        args: [...LAUNCH_ARGS, ...found.args],
      });
      try {
        const [browserPid] = childrenMatching(process.pid, 'chrom');
        if (browserPid === undefined) throw new Error('the browser process was not found');
        printRound(
          index,
          await round(browser, browserPid, server.url, target, server.served, server.reset),
        );
      } finally {
        await browser.close();
      }
    }
  } finally {
    await server.close();
  }
}

await main();
