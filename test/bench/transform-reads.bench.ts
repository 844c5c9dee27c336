/**
 * What the transform reads on every run of a language besides the items to transform (issue
 * 17): the outputs lacking their HTML facts, and the last build's page paths.
 *   npx tsx test/bench/transform-reads.bench.ts CACHE [lang=pl] [rounds=5]
 * Alternates, per round: the walk of every public row a chunk at a time that found the rows
 * lacking facts before schema upgrade 15 (what `lackingFacts` did in 7c9d05b, spelled here),
 * the index query that replaced it, reading the last build's page paths, and the paths digest
 * that now stands in for that read when the items' paths did not change. Prints each one's
 * median wall and CPU (user+sys) milliseconds and what it found. The cache must be built.
 */
import { BUILT_TYPES } from '../../src/collections.js';
import { openStore } from '../../src/store/open-store.js';
import { publicCandidates } from '../../src/transform/transform-runner.js';
import { assignSitePaths } from '../../src/transform/item-site-paths.js';
import { storedHtmlFacts, transformKey } from '../../src/transform/index.js';
import { sitePathsDigest } from '../../src/transform/paths-digest.js';

const CACHE = process.argv[2];
const LANG = process.argv[3] ?? 'pl';
const ROUNDS = Number(process.argv[4] ?? 5);

function timed(run: () => number): { wall: number; cpu: number; found: number } {
  const wall = performance.now();
  const cpu = process.cpuUsage();
  const found = run();
  const used = process.cpuUsage(cpu);
  return { wall: performance.now() - wall, cpu: (used.user + used.system) / 1000, found };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function main(): void {
  if (!CACHE) throw new Error('usage: npx tsx test/bench/transform-reads.bench.ts CACHE [lang]');
  const store = openStore(CACHE);
  const key = transformKey();
  const home = (store.siteInfo.get(LANG)?.data as { home?: string } | undefined)?.home ?? '';
  const sitePaths = assignSitePaths(publicCandidates(store, LANG), home, () => undefined);
  const cases: Record<string, () => number> = {
    'walk of every public row (7c9d05b)': () => {
      let found = 0;
      for (const chunk of store.publishedOrder.newestFirst(LANG, BUILT_TYPES).chunks(2000))
        for (const row of chunk)
          if (
            row.sourceHash === row.contentHash &&
            row.transformVersion === key &&
            storedHtmlFacts(row.meta) === undefined
          )
            found++;
      return found;
    },
    'index of rows lacking facts': () =>
      [...store.transformed.lackingFacts(LANG, key, BUILT_TYPES)].length,
    'last build page paths': () => store.buildState.pagePaths(LANG).length,
    'paths digest': () => sitePathsDigest(sitePaths).length,
  };
  const results = new Map<string, { wall: number[]; cpu: number[]; found: number }>();
  for (let round = 0; round < ROUNDS; round++) {
    for (const [name, run] of Object.entries(cases)) {
      const { wall, cpu, found } = timed(run);
      const entry = results.get(name) ?? { wall: [], cpu: [], found };
      entry.wall.push(wall);
      entry.cpu.push(cpu);
      results.set(name, entry);
    }
  }
  console.log(`${CACHE} ${LANG}: ${sitePaths.size} public items, ${ROUNDS} rounds`);
  for (const [name, { wall, cpu, found }] of results)
    console.log(
      `  ${name}: median ${median(wall).toFixed(1)} ms wall, ${median(cpu).toFixed(1)} ms CPU (found ${found})`,
    );
  store.close();
}

main();
