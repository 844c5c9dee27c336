/**
 * A/B of two compiled CLIs' one-edit `run` (pull + build after one post's title was edited
 * through the API), alternating (A B, B A, ...):
 *   npx tsx test/bench/ab-edit-run.bench.ts POSTS PAIRS CLI_A CLI_B
 * The reference site in its own process (`POSTS` posts in `pl` and `es`); each side has its own
 * cache and output, made by a full `run` of that side's CLI first (each side's cache is then in
 * the state its own code leaves). Every pair edits one post (a different one each time) and
 * runs both sides against the same site, each under GNU time with its process tree sampled
 * (`process-tree.ts`). Prints each run (wall, CPU = user+sys of the tree, tree peak RSS, the
 * run's own pull and build seconds, the 1-minute load before it) and the medians.
 * `BENCH_NODE_ARGS` (e.g. `--cpu-prof --cpu-prof-dir=/tmp/x`) is passed to node for B's runs.
 * `BENCH_COLD_PAIRS=N` adds N cold pairs after the warm ones: before each of their runs the
 * kernel's page cache is dropped (`sync; echo 3 > /proc/sys/vm/drop_caches`, root only; every
 * process's cached files, not only this bench's), so that the run reads its cache, output,
 * Node and node_modules from disk again. Their medians are printed apart.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startReferenceProcess } from '../../src/cli/reference-process.js';
import { credentialEnv } from '../helpers/cli-args.js';
import { editPostTitle } from './post-edit.js';
import { load, timed, type Timed } from './process-tree.js';

const [postsText, pairsText, cliA, cliB] = process.argv.slice(2);
if (!postsText || !pairsText || !cliA || !cliB)
  throw new Error('usage: ab-edit-run.bench.ts POSTS PAIRS CLI_A CLI_B');
const POSTS = Number(postsText);
const PAIRS = Number(pairsText);
const LANGS = ['pl', 'es'];
const COLD_PAIRS = Number(process.env['BENCH_COLD_PAIRS'] ?? 0);

/** Writes dirty pages out, then drops the page cache (and dentries and inodes). */
function dropCaches(): void {
  execFileSync('sh', ['-c', 'sync; echo 3 > /proc/sys/vm/drop_caches']);
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

interface RunJson {
  pull: { total: { seconds: number } };
  build: { total: { written: number; wallSeconds: number } };
}

interface EditRun extends Timed {
  pull: number;
  build: number;
  written: number;
}

async function main(): Promise<void> {
  const site = await startReferenceProcess(['--posts', String(POSTS)]);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-edit-run-'));
  const env = credentialEnv(site);
  const pipeline = path.join(dir, 'pipeline.yaml');
  fs.writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
  const sides = { A: cliA!, B: cliB! };
  const run = async (side: 'A' | 'B'): Promise<EditRun> => {
    const sideDir = path.join(dir, side);
    fs.mkdirSync(sideDir, { recursive: true });
    const nodeArgs = side === 'B' ? (process.env['BENCH_NODE_ARGS'] ?? '').split(' ') : [];
    const args = [
      ...nodeArgs.filter((arg) => arg !== ''),
      sides[side],
      'run',
      ...['--pipeline', pipeline, '--site', site.url, '--lang', LANGS.join(',')],
      ...['--cache', path.join(sideDir, 'cache.sqlite'), '--out', path.join(sideDir, 'output')],
      '--json',
    ];
    const result = await timed(process.execPath, args, { env, dir: sideDir });
    const json = JSON.parse(result.stdout) as RunJson;
    return {
      ...result,
      pull: json.pull.total.seconds,
      build: json.build.total.wallSeconds,
      written: json.build.total.written,
    };
  };
  const runs: Record<'warm' | 'cold', Record<'A' | 'B', EditRun[]>> = {
    warm: { A: [], B: [] },
    cold: { A: [], B: [] },
  };
  try {
    for (const side of ['A', 'B'] as const) {
      const full = await run(side);
      console.log(`${side} full run: wall ${full.wallSeconds.toFixed(1)} s`);
      await run(side); // a no-op run: the state a scheduled run starts from
    }
    const listed = await fetch(
      `${site.url}/pl/cms-json/cms/v2/posts?per_page=${PAIRS + COLD_PAIRS}&offset=${Math.floor(POSTS / 3)}&_fields=id`,
    );
    const posts = (await listed.json()) as { id: number }[];
    for (let pair = 0; pair < PAIRS + COLD_PAIRS; pair++) {
      const post = posts[pair];
      if (!post) throw new Error('no post to edit');
      await editPostTitle(site, post.id);
      const cold = pair >= PAIRS;
      const order: ('A' | 'B')[] = pair % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
      for (const side of order) {
        if (cold) dropCaches();
        const before = load();
        const result = await run(side);
        runs[cold ? 'cold' : 'warm'][side].push(result);
        console.log(
          `${pair + 1}${side}${cold ? ' cold' : ''}: wall ${result.wallSeconds.toFixed(2)} s, CPU ${result.cpuSeconds.toFixed(2)} s, ` +
            `tree ${result.treePeakMb.toFixed(0)} MB, pull ${result.pull.toFixed(2)} s, build ${result.build.toFixed(2)} s, ` +
            `${result.written} written, load before ${before}`,
        );
      }
    }
  } finally {
    await site.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  console.log(
    `\n${POSTS} posts × ${LANGS.length}, ${os.cpus().length} cores, Node ${process.version}`,
  );
  for (const [mode, side] of [
    ['warm', 'A'],
    ['warm', 'B'],
    ['cold', 'A'],
    ['cold', 'B'],
  ] as const) {
    const r = runs[mode][side];
    if (r.length === 0) continue;
    console.log(
      `${side} ${mode} (${sides[side]}) median of ${r.length}: wall ${median(r.map((x) => x.wallSeconds)).toFixed(2)} s, ` +
        `CPU ${median(r.map((x) => x.cpuSeconds)).toFixed(2)} s, tree ${median(r.map((x) => x.treePeakMb)).toFixed(0)} MB, ` +
        `pull ${median(r.map((x) => x.pull)).toFixed(2)} s, build ${median(r.map((x) => x.build)).toFixed(2)} s`,
    );
  }
}

await main();
