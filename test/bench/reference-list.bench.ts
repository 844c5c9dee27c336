/**
 * Benchmark: list requests of 100 posts from a 100,000-post reference site.
 *
 *   npx tsx test/bench/reference-list.bench.ts [--posts 100000] [--requests 200]
 *
 * The site runs in a worker thread so the measuring client does not share its event loop.
 * Prints seed time and median / p95 / max per query shape; exits 1 if a shape's p95 is at or
 * above 50 ms. Figures go to test/bench/RESULTS.md.
 */
import { cpus } from 'node:os';
import { Worker, isMainThread, parentPort, workerData } from 'node:worker_threads';
import { Agent, request } from 'undici';
import { startReferenceSite } from '../../src/reference/index.js';

interface Started {
  url: string;
  user: string;
  password: string;
  seedMs: number;
  /** Site-local modified dates spread over the whole seed, for modified_after watermarks. */
  watermarks: string[];
}

const LIMIT_MS = 50;

function argument(name: string, fallback: number): number {
  const at = process.argv.indexOf(`--${name}`);
  return at >= 0 ? Number(process.argv[at + 1]) : fallback;
}

async function serve(posts: number): Promise<void> {
  const started = performance.now();
  const site = await startReferenceSite({ posts });
  const seedMs = performance.now() - started;
  const items = site.control
    .listItems('es', 'posts')
    .map((item) => item.modifiedGmt)
    .sort((a, b) => a - b);
  const watermarks = Array.from({ length: 50 }, (_, i) => {
    const epoch = items[Math.floor((i / 50) * (items.length - 200))] as number;
    return new Date((epoch - 3 * 3600) * 1000).toISOString().slice(0, 19); // es is GMT-3
  });
  const message: Started = {
    url: site.url,
    user: site.credentials.user,
    password: site.credentials.password,
    seedMs,
    watermarks,
  };
  parentPort?.postMessage(message);
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] as number;
}

async function measure(): Promise<void> {
  const posts = argument('posts', 100_000);
  const requests = argument('requests', 200);
  // A worker does not get the TypeScript loader of this thread: register tsx in it first.
  const entry = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(import.meta.url)}); })`;
  const worker = new Worker(entry, { eval: true, workerData: { posts } });
  const started = await new Promise<Started>((resolve, reject) => {
    worker.once('message', resolve);
    worker.once('error', reject);
  });
  const auth = `Basic ${Buffer.from(`${started.user}:${started.password}`).toString('base64')}`;
  const agent = new Agent({ connections: 1, pipelining: 1 });
  const pages = Math.floor(posts / 100);
  const shapes: [string, (i: number) => string, boolean][] = [
    ['newest 100 (per_page=100)', () => '/pl/cms-json/cms/v2/posts?per_page=100', false],
    [
      'deep page (page=1..N)',
      (i) =>
        `/pl/cms-json/cms/v2/posts?per_page=100&page=${1 + ((i * 37) % Math.max(1, pages - 1))}`,
      false,
    ],
    [
      'modified_after + orderby=modified asc',
      (i) =>
        `/es/cms-json/cms/v2/posts?per_page=100&orderby=modified&order=asc&modified_after=${started.watermarks[i % started.watermarks.length]}`,
      false,
    ],
    [
      'context=edit, authenticated',
      (i) => `/es/cms-json/cms/v2/posts?per_page=100&context=edit&page=${1 + (i % 50)}`,
      true,
    ],
    [
      '_fields=id,modified_gmt (id probe)',
      (i) => `/pl/cms-json/cms/v2/posts?per_page=100&_fields=id,modified_gmt&page=${1 + (i % 50)}`,
      false,
    ],
  ];
  console.log(
    `reference list benchmark: ${posts} posts per language, ${requests} requests per shape`,
  );
  console.log(`node ${process.version}, ${cpus().length} x ${cpus()[0]?.model ?? 'cpu'}`);
  console.log(`seeding: ${started.seedMs.toFixed(0)} ms`);
  let slow = false;
  for (const [name, path, withAuth] of shapes) {
    const times: number[] = [];
    for (let i = -20; i < requests; i++) {
      const begin = performance.now();
      const response = await request(`${started.url}${path(i < 0 ? 0 : i)}`, {
        dispatcher: agent,
        headers: withAuth ? { authorization: auth } : {},
      });
      const body = await response.body.text();
      const elapsed = performance.now() - begin;
      if (response.statusCode !== 200)
        throw new Error(`${name}: HTTP ${response.statusCode} ${body.slice(0, 200)}`);
      if (i >= 0) times.push(elapsed);
    }
    times.sort((a, b) => a - b);
    const [median, p95, max] = [
      percentile(times, 0.5),
      percentile(times, 0.95),
      times[times.length - 1] as number,
    ];
    if (p95 >= LIMIT_MS) slow = true;
    console.log(
      `${name.padEnd(40)} median ${median.toFixed(1).padStart(6)} ms   p95 ${p95.toFixed(1).padStart(6)} ms   max ${max.toFixed(1).padStart(6)} ms`,
    );
  }
  await agent.close();
  await worker.terminate();
  if (slow) {
    console.log(`FAIL: a shape's p95 is at or above ${LIMIT_MS} ms`);
    process.exitCode = 1;
  } else console.log(`OK: every shape's p95 is below ${LIMIT_MS} ms`);
}

if (isMainThread) await measure();
else await serve((workerData as { posts: number }).posts);
