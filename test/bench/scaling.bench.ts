/**
 * Scaling curve: how the cost of a full pull, a full build and a no-op `run` grows with the
 * site, at 1,000 / 10,000 / 100,000 posts, ONE language (`pl`) at every size so the points are
 * comparable (the reference site still seeds `es` too; it is not pulled).
 *   npm run build && npx tsx test/bench/scaling.bench.ts [sizes=1000,10000,100000]
 * For each size: the reference site in its own process (`cms-mirror reference --posts N`, from
 * the sources through tsx), then three commands of the COMPILED CLI (`node dist/cli/main.js`,
 * what users run), each a fresh process under `/usr/bin/time`, so the wall time and peak RSS
 * are the command's own: `pull` into a fresh cache, `build` into a fresh output, then `run` with
 * nothing changed. Credentials are given (edit context, every status); client pacing is off.
 * Peak RSS is GNU time's `%M`: the largest single process of the command's tree (the Node
 * process here; Pagefind's indexing process is smaller). "tree peak" is the sum of RSS over the
 * whole process tree (Node + Pagefind), sampled every 100 ms, so it can miss short spikes.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startReferenceProcess } from '../../src/cli/reference-process.js';
import { TIME, countFiles, load, timed } from './process-tree.js';
import { credentialEnv } from '../helpers/cli-args.js';

const SIZES = (process.argv[2] ?? '1000,10000,100000').split(',').map(Number);
const LANG = 'pl';
const MAIN = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));

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

async function point(posts: number): Promise<string[]> {
  const loadBefore = load();
  const seedStarted = performance.now();
  const site = await startReferenceProcess(['--posts', String(posts)]);
  const seedSeconds = (performance.now() - seedStarted) / 1000;
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-mirror-scaling-'));
  try {
    const pipeline = path.join(dir, 'pipeline.yaml');
    fs.writeFileSync(pipeline, `site: ${site.url}\nhttp:\n  requestsPerSecond: 0\n`);
    const cache = path.join(dir, 'cache.sqlite');
    const out = path.join(dir, 'output');
    const common = ['--pipeline', pipeline, '--lang', LANG, '--cache', cache];
    const env = credentialEnv(site);

    const pulled = await measure(['pull', ...common], env, dir);
    const pullJson = pulled.json as PullJson;
    const built = await measure(['build', ...common, '--out', out], env, dir);
    const buildJson = built.json as BuildJson;
    const noop = await measure(['run', ...common, '--out', out], env, dir);
    const noopJson = noop.json as RunJson;

    const pages = buildJson.total.pages;
    const files = countFiles(path.join(out, LANG));
    const cacheMb = fs.statSync(cache).size / 1024 / 1024;
    const skipped = noopJson.build.languages[LANG]?.skipped ?? false;
    const detail =
      `N=${posts}: load before ${loadBefore}; reference seeded and listening in ${seedSeconds.toFixed(1)} s; ` +
      `pull ${pullJson.total.requests} requests, ${pullJson.total.created + pullJson.total.updated} items, ` +
      `cache ${cacheMb.toFixed(0)} MB, CPU ${pulled.cpuSeconds.toFixed(1)} s; ` +
      `build ${pages} pages, ${files} files, own figure ${buildJson.total.seconds.toFixed(1)} s, CPU ${built.cpuSeconds.toFixed(1)} s (incl. Pagefind); ` +
      `no-op run: pull ${noopJson.pull.total.seconds.toFixed(2)} s (${noopJson.pull.total.requests} requests, ${noopJson.pull.total.created + noopJson.pull.total.updated} items changed), ` +
      `build ${noopJson.build.total.seconds.toFixed(2)} s, ${skipped ? 'skipped' : `not skipped (${noopJson.build.total.written} written)`}`;
    console.error(detail);
    const row =
      `| ${posts.toLocaleString('en-US')} | ${pulled.wallSeconds.toFixed(2)} s | ${mb(pulled.peakRssMb)} ` +
      `| ${built.wallSeconds.toFixed(2)} s | ${pages.toLocaleString('en-US')} | ${Math.round(pages / built.wallSeconds)} ` +
      `| ${mb(built.peakRssMb)} | ${mb(built.treePeakMb)} | ${noop.wallSeconds.toFixed(2)} s | ${mb(noop.peakRssMb)} |`;
    return [row, detail];
  } finally {
    await site.stop();
    fs.rmSync(dir, { recursive: true, force: true });
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
    '| posts | pull wall | pull peak RSS | build wall | pages | pages/s (wall) | build peak RSS | build tree peak | no-op run wall | no-op run peak RSS |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  for (const row of rows) console.log(row);
  console.log('');
  for (const detail of details) console.log(`- ${detail}`);
}

await main();
