/**
 * Scaling curve: how the cost of a full pull, a full build and a no-op `run` grows with the
 * site, at 1,000 / 10,000 / 100,000 (/ 1,000,000) posts, ONE language (`pl`) at every size so
 * the points are comparable (the reference site still seeds `es` too; it is not pulled).
 *   npm run build && npx tsx test/bench/scaling.bench.ts [sizes=1000,10000,100000] [--skip-build=SIZES]
 * (`SCALING_KEEP=1` keeps every size's folder, cache and output, and prints where.)
 * `--skip-build=1000000` (a comma list; `--skip-build` alone: every size) measures no build at
 * those sizes: a no-op run there would build the whole language, so a second `pull` (the no-op
 * run's pull part) is measured instead and the table says so.
 * For each size: the reference site in its own process (`cms-mirror reference --posts N`, from
 * the sources through tsx; its heap limit raised to REFERENCE_HEAP_MB, so a 1,000,000-post seed
 * fits; its own peak RSS, the kernel's VmHWM, is reported apart and counted in no figure of
 * the client), then the commands of the COMPILED CLI (`node dist/cli/cms-mirror.js`, what users run),
 * each a fresh process under `/usr/bin/time`, so the wall time and peak RSS are the command's
 * own: `pull` into a fresh cache, `build` into a fresh output, then `run` with nothing changed.
 * Credentials are given (edit context, every status); client pacing is off.
 * Peak RSS is GNU time's `%M`: the largest single process of the command's tree (the Node
 * process here; Pagefind's indexing process is smaller). "tree peak" is the sum of RSS over the
 * whole process tree (Node + Pagefind), sampled every 100 ms, so it can miss short spikes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReferenceProcess, type ReferenceProcess } from '../../src/cli/reference-process.js';
import { TIME, childrenMatching, countFiles, load, peakRssMb, timed } from './process-tree.js';
import { credentialEnv } from '../helpers/cli-args.js';

const ARGS = process.argv.slice(2);
const SIZES = (ARGS.find((arg) => !arg.startsWith('--')) ?? '1000,10000,100000')
  .split(',')
  .map(Number);
const SKIP_BUILD_ARG = ARGS.find(
  (arg) => arg === '--skip-build' || arg.startsWith('--skip-build='),
);
/** Sizes measured without a build (and with a no-op pull instead of a no-op run). */
const SKIP_BUILD = new Set(
  SKIP_BUILD_ARG === undefined
    ? []
    : SKIP_BUILD_ARG === '--skip-build'
      ? SIZES
      : SKIP_BUILD_ARG.slice('--skip-build='.length).split(',').map(Number),
);
/** The reference site's heap limit: ~1 KB per post for its two languages, with room to spare. */
const REFERENCE_HEAP_MB = 8192;
const LANG = 'pl';
/** The compiled CLI measured; `SCALING_CLI=path/to/main.js` measures another build (A/B runs). */
const MAIN =
  process.env.SCALING_CLI ??
  fileURLToPath(new URL('../../dist/cli/cms-mirror.js', import.meta.url));

interface Measured {
  wallSeconds: number;
  peakRssMb: number;
  treePeakMb: number;
  cpuSeconds: number;
  json: unknown;
}

interface PullJson {
  total: { requests: number; created: number; updated: number; seconds: number };
}
interface BuildJson {
  languages: Record<string, { skipped: boolean; pages: number; written: number }>;
  total: { pages: number; written: number; seconds: number };
}
interface RunJson {
  pull: PullJson;
  build: BuildJson;
}

/** One CLI command of the compiled CLI, with `--json`, measured (see process-tree.ts). */
async function measure(args: string[], env: NodeJS.ProcessEnv, dir: string): Promise<Measured> {
  const run = await timed(process.execPath, [MAIN, ...args, '--json'], { env, dir });
  return { ...run, json: JSON.parse(run.stdout) as unknown };
}

const mb = (value: number): string => `${value.toFixed(0)} MB`;

/** The reference site in its own process, with REFERENCE_HEAP_MB of heap; its pid for VmHWM. */
async function startSite(
  posts: number,
): Promise<{ site: ReferenceProcess; pid: number | undefined }> {
  const before = process.env.NODE_OPTIONS;
  process.env.NODE_OPTIONS = `${before ?? ''} --max-old-space-size=${REFERENCE_HEAP_MB}`.trim();
  try {
    const site = await startReferenceProcess(['--posts', String(posts)]);
    return { site, pid: childrenMatching(process.pid, ' reference ')[0] };
  } finally {
    if (before === undefined) delete process.env.NODE_OPTIONS;
    else process.env.NODE_OPTIONS = before;
  }
}

interface Commands {
  pulled: Measured;
  built: Measured | undefined;
  noop: Measured;
}

/** pull; then build and a no-op run, or (build skipped) a no-op pull. */
async function commands(posts: number, site: ReferenceProcess, dir: string): Promise<Commands> {
  const pipeline = path.join(dir, 'pipeline.yaml');
  fs.writeFileSync(pipeline, `site: ${site.url}\nhttp:\n  requestsPerSecond: 0\n`);
  const common = [
    '--pipeline',
    pipeline,
    '--lang',
    LANG,
    '--cache',
    path.join(dir, 'cache.sqlite'),
  ];
  const out = ['--out', path.join(dir, 'output')];
  const env = credentialEnv(site);
  const pulled = await measure(['pull', ...common], env, dir);
  if (SKIP_BUILD.has(posts)) {
    return { pulled, built: undefined, noop: await measure(['pull', ...common], env, dir) };
  }
  const built = await measure(['build', ...common, ...out], env, dir);
  return { pulled, built, noop: await measure(['run', ...common, ...out], env, dir) };
}

function pullDetail(json: PullJson): string {
  return `${json.total.requests} requests, ${json.total.created + json.total.updated} items created or updated, own figure ${json.total.seconds.toFixed(2)} s`;
}

function buildCells(built: Measured | undefined, out: string): { cells: string; detail: string } {
  if (built === undefined) return { cells: '| not run | | | | |', detail: 'build not run' };
  const json = built.json as BuildJson;
  const pages = json.total.pages;
  return {
    cells:
      `| ${built.wallSeconds.toFixed(2)} s | ${pages.toLocaleString('en-US')} | ${Math.round(pages / built.wallSeconds)} ` +
      `| ${mb(built.peakRssMb)} | ${mb(built.treePeakMb)} |`,
    detail: `build ${pages} pages, ${countFiles(path.join(out, LANG))} files, own figure ${json.total.seconds.toFixed(1)} s, CPU ${built.cpuSeconds.toFixed(1)} s (incl. Pagefind)`,
  };
}

function noopDetail(noop: Measured, built: boolean): string {
  if (!built) return `no-op pull: ${pullDetail(noop.json as PullJson)}`;
  const json = noop.json as RunJson;
  const skipped = json.build.languages[LANG]?.skipped ?? false;
  return (
    `no-op run: pull ${json.pull.total.seconds.toFixed(2)} s (${json.pull.total.requests} requests, ${json.pull.total.created + json.pull.total.updated} items changed), ` +
    `build ${json.build.total.seconds.toFixed(2)} s, ${skipped ? 'skipped' : `not skipped (${json.build.total.written} written)`}`
  );
}

async function point(posts: number): Promise<string[]> {
  const loadBefore = load();
  const seedStarted = performance.now();
  const { site, pid } = await startSite(posts);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-mirror-scaling-'));
  try {
    const { pulled, built, noop } = await commands(posts, site, dir);
    const cacheMb = fs.statSync(path.join(dir, 'cache.sqlite')).size / 1024 / 1024;
    const build = buildCells(built, path.join(dir, 'output'));
    const siteRss = pid === undefined ? 'unknown' : mb(peakRssMb(pid));
    const detail =
      `N=${posts}: load before ${loadBefore}; reference seeded and listening in ${seedSeconds.toFixed(1)} s, its peak RSS ${siteRss}; ` +
      `pull ${pullDetail(pulled.json as PullJson)}, cache ${cacheMb.toFixed(0)} MB, CPU ${pulled.cpuSeconds.toFixed(1)} s; ` +
      `${build.detail}; ${noopDetail(noop, built !== undefined)}, CPU ${noop.cpuSeconds.toFixed(1)} s`;
    console.error(detail);
    const row =
      `| ${posts.toLocaleString('en-US')} | ${pulled.wallSeconds.toFixed(2)} s | ${mb(pulled.peakRssMb)} ` +
      `${build.cells} ${built === undefined ? 'no-op pull' : 'no-op run'} | ${noop.wallSeconds.toFixed(2)} s | ${mb(noop.peakRssMb)} |`;
    return [row, detail];
  } finally {
    await site.stop();
    // SCALING_KEEP=1 keeps each size's cache and output for a profile of the same run afterwards.
    if (process.env.SCALING_KEEP === '1') console.error(`kept ${dir}`);
    else fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  if (!fs.existsSync(MAIN)) throw new Error(`${MAIN} is missing: run "npm run build" first`);
  if (!fs.existsSync(TIME)) throw new Error(`${TIME} (GNU time) is needed for peak RSS`);
  const rows: string[] = [];
  const details: string[] = [];
  for (const posts of SIZES) {
    const [row, detail] = await point(posts);
    rows.push(row!);
    details.push(detail!);
  }
  console.log(
    `\nscaling, one language (${LANG}), ${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, Node ${process.version}, ${new Date().toISOString()}\n`,
  );
  console.log(
    '| posts | pull wall | pull peak RSS | build wall | pages | pages/s (wall) | build peak RSS | build tree peak | no-op | no-op wall | no-op peak RSS |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log('');
  for (const detail of details) console.log(`- ${detail}`);
}

await main();
