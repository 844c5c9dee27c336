/**
 * A/B of two compiled trees' render worker from its start (issue 17: the worker's import of
 * Eleventy was the longest path of a one-edit `run`), alternating (A B, B A, ...):
 *   npx tsx test/bench/ab-render-worker.bench.ts PAIRS DIST_A DIST_B [edit [DELAY_MS [PREPARE_MS]]]
 * Each sample is a process of its own (`render-worker-probe.mjs`, plain node) that starts
 * DIST's render worker, runs the theme once with no jobs (the build's warm-up) and then renders
 * 6 posts, under GNU time. With `edit`, it renders the 6 posts with no warm-up, as a one-edit
 * `run` does, given the templates each side's previous process compiled (an unmeasured first
 * sample per side makes them), the request sent DELAY_MS (default 0) after the worker starts,
 * as a run's main thread sends it once it has planned (its wait for the pages is printed);
 * with PREPARE_MS, the worker is first asked to prepare the pages' run that long after its start
 * (`render-worker-probe.mjs`), as an edit build asks at its start. Prints each sample (ms to the warm-up's answer and to the pages,
 * the process's wall and CPU = user+sys, peak RSS, the 1-minute load before it) and medians.
 * Run it from the checkout whose `node_modules` the trees use: each tree finds Eleventy from
 * where it is, as an installed package does.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load, timed, type Timed } from './process-tree.js';

const [pairsText, distA, distB, mode = 'warm', delay = '0', prepare] = process.argv.slice(2);
if (!pairsText || !distA || !distB || (mode !== 'warm' && mode !== 'edit'))
  throw new Error(
    'usage: ab-render-worker.bench.ts PAIRS DIST_A DIST_B [edit [DELAY_MS [PREPARE_MS]]]',
  );
const PAIRS = Number(pairsText);
const PROBE = fileURLToPath(new URL('./render-worker-probe.mjs', import.meta.url));
const TEMPLATES = fileURLToPath(new URL('../../templates', import.meta.url));
const SCRATCH = fs.mkdtempSync(path.join(os.tmpdir(), 'ab-render-worker-'));

interface Sample extends Timed {
  warmMs: number;
  renderedMs: number;
  /** From the pages' request to their answer (edit mode; the warm-up's answer otherwise). */
  requestToPagesMs: number;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
};

async function sample(dist: string, side: 'A' | 'B'): Promise<Sample> {
  const edit =
    mode === 'edit'
      ? [
          'edit',
          path.join(SCRATCH, `compiled-${side}.json`),
          delay,
          ...(prepare === undefined ? [] : [prepare]),
        ]
      : [];
  const result = await timed(process.execPath, [PROBE, path.resolve(dist), TEMPLATES, ...edit], {
    dir: SCRATCH,
  });
  const probe = JSON.parse(result.stdout) as {
    warmMs: number;
    renderedMs: number;
    requestToPagesMs?: number;
  };
  return { ...result, requestToPagesMs: probe.renderedMs - probe.warmMs, ...probe };
}

const sides = { A: distA, B: distB };
const samples: Record<'A' | 'B', Sample[]> = { A: [], B: [] };
if (mode === 'edit') for (const side of ['A', 'B'] as const) await sample(sides[side], side);
for (let pair = 0; pair < PAIRS; pair++) {
  const order: ('A' | 'B')[] = pair % 2 === 0 ? ['A', 'B'] : ['B', 'A'];
  for (const side of order) {
    const before = load();
    const s = await sample(sides[side], side);
    samples[side].push(s);
    console.log(
      `${pair + 1}${side}: warm-up answered (edit: request sent) ${s.warmMs.toFixed(0)} ms, pages ${s.renderedMs.toFixed(0)} ms ` +
        `(${s.requestToPagesMs.toFixed(0)} ms after), ` +
        `wall ${s.wallSeconds.toFixed(2)} s, CPU ${s.cpuSeconds.toFixed(2)} s, RSS ${s.peakRssMb.toFixed(0)} MB, load before ${before}`,
    );
  }
}
for (const side of ['A', 'B'] as const) {
  const s = samples[side];
  console.log(
    `${side} (${sides[side]}) median of ${s.length}: warm-up ${median(s.map((x) => x.warmMs)).toFixed(0)} ms, ` +
      `pages ${median(s.map((x) => x.renderedMs)).toFixed(0)} ms ` +
      `(${median(s.map((x) => x.requestToPagesMs)).toFixed(0)} ms after), CPU ${median(s.map((x) => x.cpuSeconds)).toFixed(2)} s, ` +
      `RSS ${median(s.map((x) => x.peakRssMb)).toFixed(0)} MB`,
  );
}
fs.rmSync(SCRATCH, { recursive: true, force: true });
