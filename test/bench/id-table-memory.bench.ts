/**
 * Memory of the pull's two per-id structures at a million ids: the crawl budget's set of
 * listed ids and the collection stream's map of how each id was counted, as a `Set`/`Map` (what
 * they were) and as `IdSet`/`IdTable` (src/sync/id-table.ts).
 *   node --expose-gc --import tsx test/bench/id-table-memory.bench.ts [ids=1000000]
 * Each structure is filled in a fresh child process (ids 1..N in order, as a crawl by
 * `modified` of the reference site lists them, or shuffled); the figure is heap used plus
 * array buffers after a full GC, less the same before. While filling, an IdTable's merge holds
 * the old and the new sorted arrays at once (another 9 bytes an id at most, for a moment).
 */
import { execFileSync } from 'node:child_process';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { IdSet, IdTable } from '../../src/sync/id-table.js';

const N = Number(process.argv[2] ?? 1_000_000);
const KINDS = ['Set', 'IdSet', 'Map', 'IdTable'] as const;
type Kind = (typeof KINDS)[number];

function used(): number {
  const memory = process.memoryUsage();
  return memory.heapUsed + memory.arrayBuffers;
}

function measure(kind: Kind, shuffled: boolean): number {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with node --expose-gc');
  const ids = Float64Array.from({ length: N }, (_, i) => i + 1);
  if (shuffled)
    for (let i = N - 1; i > 0; i--) {
      const j = Math.floor(Math.random() * (i + 1));
      [ids[i], ids[j]] = [ids[j] as number, ids[i] as number];
    }
  gc();
  const before = used();
  const add: (id: number) => void = (() => {
    if (kind === 'Set')
      return (
        (s) => (id: number) =>
          s.add(id)
      )(new Set<number>());
    if (kind === 'IdSet')
      return (
        (s) => (id: number) =>
          s.add(id)
      )(new IdSet());
    if (kind === 'Map')
      return (
        (m) => (id: number) =>
          m.set(id, 'unchanged')
      )(new Map<number, string>());
    return (
      (t) => (id: number) =>
        t.set(id, 'unchanged')
    )(new IdTable(['created', 'updated', 'unchanged']));
  })();
  for (let i = 0; i < N; i++) {
    add(ids[i] as number);
  }
  gc();
  const retained = used() - before;
  // Keeps the structure and the input (counted in `before`) alive until after the measurement.
  add(ids[0] as number);
  return retained;
}

const [kindArg, orderArg] = process.argv.slice(3);
if (kindArg) {
  console.log(String(measure(kindArg as Kind, orderArg === 'shuffled')));
} else {
  const self = fileURLToPath(import.meta.url);
  console.log(
    `\nper-id structures, ${N.toLocaleString('en-US')} ids, Node ${process.version}, ${new Date().toISOString()}, load ${os
      .loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')}\n`,
  );
  console.log('| structure | retained, ids in order | retained, ids shuffled |');
  console.log('|---|---|---|');
  for (const kind of KINDS) {
    const cells = ['ordered', 'shuffled'].map((order) => {
      const out = execFileSync(
        process.execPath,
        ['--expose-gc', '--import', 'tsx', self, String(N), kind, order],
        { encoding: 'utf8' },
      );
      return `${(Number(out) / 2 ** 20).toFixed(1)} MB`;
    });
    console.log(`| ${kind} | ${cells.join(' | ')} |`);
  }
}
