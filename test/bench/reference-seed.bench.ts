/**
 * Benchmark: what the reference site costs to seed and hold, per size — can it hold the
 * 1,000,000-post point of the scaling curve (issue 17) in this machine's memory?
 *
 *   npx tsx test/bench/reference-seed.bench.ts [sizes=10000,100000,300000] [languages=pl,es]
 *
 * Each size runs in a fresh Node process (`--expose-gc`): it starts the site in-process with
 * `posts` per language, collects garbage, and prints the seed time, the heap the seeded site
 * holds (heap used after a full collection, minus the same before starting) and the process's
 * peak RSS, and the CPU time per list request of a keyset crawl (as a pull sends them). Then a line
 * fits heap per post over the sizes and extrapolates to 1,000,000.
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { startReferenceSite } from '../../src/reference/index.js';

interface Point {
  posts: number;
  seedSeconds: number;
  heapMb: number;
  peakRssMb: number;
  /** CPU milliseconds per list request of a keyset crawl (see `crawl`). */
  crawlCpuMs: number;
}

const SELF = fileURLToPath(import.meta.url);

function collect(): void {
  (globalThis as { gc?: () => void }).gc?.();
}

/**
 * A crawl's list requests, as a pull sends them: every status, oldest modified first, 100 ids a
 * page, each page after the last one's `modified_gmt` (keyset). Returns the CPU milliseconds
 * of this process (site and client) per request over 30 pages, after 5 to warm up: CPU time,
 * not wall time, so other processes on the machine weigh less on it.
 */
async function crawl(
  url: string,
  lang: string,
  credentials: { user: string; password: string },
): Promise<number> {
  const authorization = `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`;
  let after: string | undefined;
  let cpu = process.cpuUsage();
  for (let n = 0; n < 35; n++) {
    if (n === 5) cpu = process.cpuUsage();
    const query = new URLSearchParams({
      orderby: 'modified',
      order: 'asc',
      per_page: '100',
      status: 'any',
      _fields: 'id,modified_gmt',
      ...(after === undefined ? {} : { modified_after: `${after}Z` }),
    });
    const response = await fetch(`${url}/${lang}/cms-json/cms/v2/posts?${query.toString()}`, {
      headers: { authorization },
    });
    const page = (await response.json()) as { modified_gmt: string }[];
    after = page[page.length - 1]?.modified_gmt;
  }
  const used = process.cpuUsage(cpu);
  return (used.user + used.system) / 1000 / 30;
}

/** Child mode: seed one size, print one JSON line. */
async function one(posts: number, languages: string[]): Promise<void> {
  collect();
  const before = process.memoryUsage().heapUsed;
  const started = performance.now();
  const site = await startReferenceSite({ posts, languages });
  const seedSeconds = (performance.now() - started) / 1000;
  collect();
  const heapMb = (process.memoryUsage().heapUsed - before) / 1e6;
  const peakRssMb = process.resourceUsage().maxRSS / 1024;
  const crawlCpuMs = await crawl(site.url, languages[0]!, site.credentials);
  await site.close();
  const point: Point = { posts, seedSeconds, heapMb, peakRssMb, crawlCpuMs };
  process.stdout.write(`${JSON.stringify(point)}\n`);
}

function measure(posts: number, languages: string[]): Point {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', SELF, '--one', String(posts), languages.join(',')],
    { encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  return JSON.parse(out.trim().split('\n').pop() as string) as Point;
}

function main(): void {
  const sizes = (process.argv[2] ?? '10000,100000,300000').split(',').map(Number);
  const languages = (process.argv[3] ?? 'pl,es').split(',');
  console.log(`languages ${languages.join(',')}; load before ${loadavg()[0]!.toFixed(2)}`);
  console.log(
    '| posts per language | seed | heap held | peak RSS | heap per post (all languages) | CPU per crawl request |',
  );
  console.log('|---|---|---|---|---|---|');
  const points: Point[] = [];
  for (const posts of sizes) {
    const point = measure(posts, languages);
    points.push(point);
    console.log(
      `| ${posts.toLocaleString('en-US')} | ${point.seedSeconds.toFixed(1)} s | ${point.heapMb.toFixed(0)} MB | ${point.peakRssMb.toFixed(0)} MB | ${((point.heapMb * 1e6) / posts).toFixed(0)} B | ${point.crawlCpuMs.toFixed(1)} ms |`,
    );
  }
  const first = points[0]!;
  const last = points[points.length - 1]!;
  if (last.posts > first.posts) {
    const perPost = (last.heapMb - first.heapMb) / (last.posts - first.posts);
    const rssPerPost = (last.peakRssMb - first.peakRssMb) / (last.posts - first.posts);
    const at = (n: number, base: Point, slope: number, value: number) =>
      value + slope * (n - base.posts);
    console.log(
      `slope ${first.posts}→${last.posts}: ${(perPost * 1e6).toFixed(0)} B heap, ${(rssPerPost * 1e6).toFixed(0)} B RSS per post; ` +
        `at 1,000,000 posts: ~${at(1e6, last, perPost, last.heapMb).toFixed(0)} MB heap, ~${at(1e6, last, rssPerPost, last.peakRssMb).toFixed(0)} MB RSS (extrapolated, not measured)`,
    );
  }
}

const at = process.argv.indexOf('--one');
if (at >= 0) await one(Number(process.argv[at + 1]), (process.argv[at + 2] ?? 'pl,es').split(','));
else main();
