/**
 * cms-mirror's full build against a plain Eleventy 3 project + Pagefind on the same content.
 *   npm run build && npx tsx test/bench/vs-eleventy.bench.ts [posts=10000] [runs=3]
 * The reference site (`cms-mirror reference --posts N`, its own process) is pulled for one
 * language (`pl`) by the compiled CLI into a fresh cache in a temp dir, then stopped. The
 * public posts and pages of that cache are exported as an Eleventy project (see
 * eleventy-export.ts: the site's own rendered HTML bodies, a layout of about the theme's
 * weight, the home page paginated by 10 like the theme's with the default postsPerPage 10).
 * Then, alternately (the side that starts swaps each round), with both outputs removed before
 * each run: `node dist/cli/cms-mirror.js build --force` and `eleventy` (the installed
 * @11ty/eleventy CLI) followed by `pagefind --site` (the installed Pagefind CLI). Each command
 * runs under GNU time with its process tree sampled (process-tree.ts): wall and CPU
 * (user+sys, the whole tree) of Eleventy + Pagefind are the sums of the two commands, their
 * peak memory the larger of the two (they run one after the other). Prints the medians and
 * the ratio cms-mirror / Eleventy + Pagefind.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReferenceProcess } from '../../src/cli/reference-process.js';
import { exportEleventyProject } from './eleventy-export.js';
import { TIME, countFiles, load, timed, type Timed } from './process-tree.js';
import { credentialEnv } from '../helpers/cli-args.js';

const POSTS = Number(process.argv[2] ?? 10_000);
const RUNS = Number(process.argv[3] ?? 3);
const LANG = 'pl';
const repo = (relative: string): string =>
  fileURLToPath(new URL(`../../${relative}`, import.meta.url));
const MAIN = repo('dist/cli/cms-mirror.js');
const ELEVENTY = repo('node_modules/@11ty/eleventy/cmd.cjs');
const PAGEFIND = repo('node_modules/.bin/pagefind');
const THEME_ASSETS = repo('templates/assets');

/** One side's figures of one run. */
interface Sample {
  wallSeconds: number;
  cpuSeconds: number;
  /** Sum of RSS over the process tree, sampled maximum. */
  treePeakMb: number;
  /** GNU time's %M: the largest single process. */
  largestMb: number;
  files: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function pull(dir: string): Promise<{ cache: string; pipeline: string; seconds: number }> {
  const site = await startReferenceProcess(['--posts', String(POSTS)]);
  try {
    const pipeline = path.join(dir, 'pipeline.yaml');
    fs.writeFileSync(pipeline, `site: ${site.url}\nhttp:\n  requestsPerSecond: 0\n`);
    const cache = path.join(dir, 'cache.sqlite');
    const env = credentialEnv(site);
    const args = [MAIN, 'pull', '--pipeline', pipeline, '--lang', LANG, '--cache', cache];
    const pulled = await timed(process.execPath, args, { env, dir });
    return { cache, pipeline, seconds: pulled.wallSeconds };
  } finally {
    await site.stop();
  }
}

async function cmsMirror(dir: string, cache: string, pipeline: string): Promise<Sample> {
  const out = path.join(dir, 'out-cms');
  fs.rmSync(out, { recursive: true, force: true });
  const args = [MAIN, 'build', '--force', '--pipeline', pipeline, '--lang', LANG, '--cache', cache];
  const run = await timed(process.execPath, [...args, '--out', out, '--json'], { dir });
  return { ...figures(run), files: countFiles(out) };
}

async function eleventyPagefind(dir: string, project: string): Promise<Sample> {
  const out = path.join(dir, 'out-11ty');
  fs.rmSync(out, { recursive: true, force: true });
  const env = { ELEVENTY_OUT: out };
  const eleventy = await timed(process.execPath, [ELEVENTY, '--quiet'], { env, cwd: project, dir });
  const pagefind = await timed(PAGEFIND, ['--site', out, '--silent'], { dir });
  const [a, b] = [figures(eleventy), figures(pagefind)];
  return {
    wallSeconds: a.wallSeconds + b.wallSeconds,
    cpuSeconds: a.cpuSeconds + b.cpuSeconds,
    treePeakMb: Math.max(a.treePeakMb, b.treePeakMb),
    largestMb: Math.max(a.largestMb, b.largestMb),
    files: countFiles(out),
  };
}

const figures = (run: Timed): Omit<Sample, 'files'> => ({
  wallSeconds: run.wallSeconds,
  cpuSeconds: run.cpuSeconds,
  treePeakMb: run.treePeakMb,
  largestMb: run.peakRssMb,
});

function describe(side: string, s: Sample): string {
  return (
    `${side}: wall ${s.wallSeconds.toFixed(2)} s, CPU ${s.cpuSeconds.toFixed(2)} s, ` +
    `tree peak ${s.treePeakMb.toFixed(0)} MB, largest process ${s.largestMb.toFixed(0)} MB, ${s.files} files`
  );
}

function report(cms: Sample[], other: Sample[]): void {
  const row = (name: string, unit: string, pick: (s: Sample) => number, digits: number): string => {
    const [a, b] = [median(cms.map(pick)), median(other.map(pick))];
    return `| ${name} | ${a.toFixed(digits)} ${unit} | ${b.toFixed(digits)} ${unit} | ${(a / b).toFixed(2)}× |`;
  };
  console.log('| median | cms-mirror build --force | Eleventy + Pagefind | ratio |');
  console.log('|---|---|---|---|');
  console.log(row('wall', 's', (s) => s.wallSeconds, 2));
  console.log(row('CPU (user+sys, tree)', 's', (s) => s.cpuSeconds, 2));
  console.log(row('peak RSS, process tree', 'MB', (s) => s.treePeakMb, 0));
  console.log(row('peak RSS, largest process', 'MB', (s) => s.largestMb, 0));
}

async function main(): Promise<void> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first`);
  if (!fs.existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed`);
  const loadBefore = load();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-mirror-vs-eleventy-'));
  try {
    const { cache, pipeline, seconds } = await pull(dir);
    const project = path.join(dir, 'eleventy');
    const items = exportEleventyProject(cache, LANG, project, THEME_ASSETS);
    console.error(
      `pulled ${POSTS} posts in ${seconds.toFixed(1)} s; exported ${items} public items`,
    );
    const cms: Sample[] = [];
    const other: Sample[] = [];
    for (let round = 0; round < RUNS; round++) {
      const sides = [
        async () => cms.push(await cmsMirror(dir, cache, pipeline)),
        async () => other.push(await eleventyPagefind(dir, project)),
      ];
      if (round % 2 === 1) sides.reverse();
      for (const side of sides) await side();
      console.error(`round ${round + 1}: ${describe('cms-mirror', cms.at(-1)!)}`);
      console.error(`round ${round + 1}: ${describe('eleventy+pagefind', other.at(-1)!)}`);
    }
    console.log(
      `\nvs Eleventy + Pagefind, ${POSTS} posts, one language (${LANG}), ${RUNS} runs each, ` +
        `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ` +
        `${new Date().toISOString()}, load before ${loadBefore}, after ${load()}\n`,
    );
    report(cms, other);
    for (const [i, s] of cms.entries()) console.log(`- run ${i + 1}: ${describe('cms-mirror', s)}`);
    for (const [i, s] of other.entries())
      console.log(`- run ${i + 1}: ${describe('eleventy+pagefind', s)}`);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

await main();
