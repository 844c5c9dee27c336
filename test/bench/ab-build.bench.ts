/**
 * A/B of two compiled trees' full builds on one cache, alternating (A B, B A, ...):
 *   npx tsx test/bench/ab-build.bench.ts CACHE PIPELINE LANG PAIRS TREE_A TREE_B
 * Each run gets a fresh copy of CACHE and an empty output, and runs
 * `node TREE/dist/cli/main.js build --force` under GNU time with its process tree sampled
 * (process-tree.ts). Prints every run (wall, CPU = user+sys of the tree, tree peak RSS, largest
 * process, 1-minute load before it) and the medians of each side.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { load, timed, type Timed } from './process-tree.js';

const [cache, pipeline, lang, pairsText, treeA, treeB] = process.argv.slice(2);
if (!cache || !pipeline || !lang || !pairsText || !treeA || !treeB)
  throw new Error('usage: ab-build.bench.ts CACHE PIPELINE LANG PAIRS TREE_A TREE_B');
const pairs = Number(pairsText);

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function run(tree: string, dir: string): Promise<Timed> {
  const copy = path.join(dir, 'cache.sqlite');
  const out = path.join(dir, 'out');
  fs.rmSync(out, { recursive: true, force: true });
  fs.copyFileSync(cache!, copy);
  const main = path.join(tree, 'dist/cli/main.js');
  const args = [main, 'build', '--force', '--pipeline', pipeline!, '--lang', lang!];
  return timed(process.execPath, [...args, '--cache', copy, '--out', out, '--json'], { dir });
}

async function main(): Promise<void> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-build-'));
  const runs: Record<'A' | 'B', Timed[]> = { A: [], B: [] };
  try {
    for (let pair = 0; pair < pairs; pair++) {
      const order: ('A' | 'B')[] = pair % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
      for (const side of order) {
        const before = load();
        const timedRun = await run(side === 'A' ? treeA! : treeB!, dir);
        runs[side].push(timedRun);
        console.log(
          `${pair + 1}${side}: wall ${timedRun.wallSeconds.toFixed(2)} s, CPU ${timedRun.cpuSeconds.toFixed(2)} s, ` +
            `tree ${timedRun.treePeakMb.toFixed(0)} MB, largest ${timedRun.peakRssMb.toFixed(0)} MB, load before ${before}`,
        );
      }
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  for (const side of ['A', 'B'] as const) {
    const r = runs[side];
    console.log(
      `${side} median of ${r.length}: wall ${median(r.map((x) => x.wallSeconds)).toFixed(2)} s, ` +
        `CPU ${median(r.map((x) => x.cpuSeconds)).toFixed(2)} s, tree ${median(r.map((x) => x.treePeakMb)).toFixed(0)} MB, ` +
        `largest ${median(r.map((x) => x.peakRssMb)).toFixed(0)} MB`,
    );
  }
}

await main();
