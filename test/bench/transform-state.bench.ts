/**
 * What the transform holds for a language's public items, measured on a cache the caller
 * made (pulled and built once, so every item has its output): one post is made stale (the
 * one-edit run's transform), the language is transformed in this process, and the figures
 * are the process's peak RSS above its RSS just before, the JS heap after the transform with
 * its state still reachable is not observable, so the peak RSS is what is printed, with the
 * transform's CPU and wall time. Run it with each build's `dist` to compare them:
 *
 *   node --expose-gc node_modules/.bin/tsx test/bench/transform-state.bench.ts DIST CACHE [STALE]
 *
 * DIST is a compiled tree (`/work/wt-lead/dist`); CACHE is copied first and the copy removed.
 * STALE posts (default 1) get a changed source hash so the transform redoes them.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

const [dist, primed, staleArg] = process.argv.slice(2) as [string, string, string | undefined];
const stale = Number(staleArg ?? '1');
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'transform-state-'));
const file = path.join(work, 'c.sqlite');
fs.copyFileSync(primed, file);

function rssKb(field: 'VmRSS' | 'VmHWM'): number {
  const line = fs
    .readFileSync('/proc/self/status', 'utf8')
    .split('\n')
    .find((l) => l.startsWith(`${field}:`));
  return Number(line?.split(/\s+/)[1] ?? 0);
}

const storeModule = (await import(pathToFileURL(path.join(dist, 'store/index.js')).href)) as {
  openStore: (file: string) => {
    close(): void;
    transformed: { put(input: unknown): void };
    siteInfo: { get(lang: string): { data: unknown } | undefined };
  };
};
const transformModule = (await import(
  pathToFileURL(path.join(dist, 'transform/index.js')).href
)) as {
  transformLanguages: (
    store: unknown,
    languages: { lang: string; homeUrl: string }[],
  ) => Promise<Map<string, { transformed: number }>>;
};
// Loads the transform's modules before the baseline, as a warm build would have them.
await import(pathToFileURL(path.join(dist, 'transform/transform-runner.js')).href);
const Database = (await import('better-sqlite3')).default;
const db = new Database(file);
const publicPosts = db
  .prepare("SELECT count(*) FROM items WHERE lang = 'pl' AND type = 'posts' AND is_public = 1")
  .pluck()
  .get() as number;
const posts = db
  .prepare(
    "SELECT id FROM items WHERE lang = 'pl' AND type = 'posts' AND is_public = 1 ORDER BY id LIMIT ?",
  )
  .pluck()
  .all(stale) as number[];
db.close();

const store = storeModule.openStore(file);
const homeUrl = (store.siteInfo.get('pl')?.data as { home: string }).home;

/** One transform of `pl`, its peak RSS above the RSS it started from, CPU and wall time. */
async function measured(label: string): Promise<Record<string, unknown>> {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
  gc();
  const heapBefore = process.memoryUsage().heapUsed;
  // The JS heap the transform holds while it writes its first output (all its state alive).
  let heapHeld: number | undefined;
  const put = store.transformed.put.bind(store.transformed);
  store.transformed.put = (input) => {
    if (heapHeld === undefined) {
      gc();
      heapHeld = process.memoryUsage().heapUsed - heapBefore;
    }
    put(input);
  };
  // Resets VmHWM to the current RSS (Linux): the peak is this transform's.
  fs.writeFileSync('/proc/self/clear_refs', '5');
  const before = rssKb('VmRSS');
  const cpu = process.cpuUsage();
  const started = performance.now();
  const result = await transformModule.transformLanguages(store, [{ lang: 'pl', homeUrl }]);
  const wall = (performance.now() - started) / 1000;
  const used = process.cpuUsage(cpu);
  const peak = rssKb('VmHWM');
  store.transformed.put = put;
  return {
    label,
    transformed: result.get('pl')?.transformed,
    rssBeforeMb: +(before / 1024).toFixed(1),
    peakAboveMb: +((peak - before) / 1024).toFixed(1),
    bytesPerPost: Math.round(((peak - before) * 1024) / publicPosts),
    cpuSeconds: +((used.user + used.system) / 1e6).toFixed(2),
    wallSeconds: +wall.toFixed(2),
    heapHeldMb: heapHeld === undefined ? null : +(heapHeld / 1024 / 1024).toFixed(1),
    heapBytesPerPost: heapHeld === undefined ? null : Math.round(heapHeld / publicPosts),
  };
}

// First: nothing stale (this build's first run on the cache: the new code assigns its paths).
const first = await measured('nothing stale, first run');
const writer = new Database(file);
const mark = writer.prepare(
  "UPDATE transformed SET source_hash = 'stale' WHERE lang = 'pl' AND type = 'posts' AND id = ?",
);
for (const id of posts) mark.run(id);
writer.close();
// Then the one-edit run's transform: `stale` posts redone, links resolved.
const edit = await measured(`${stale} stale`);
// And once more, as the next edit in a watch session: what the first edit loaded is loaded.
const again = new Database(file);
for (const id of posts) {
  again
    .prepare(
      "UPDATE transformed SET source_hash = 'stale' WHERE lang = 'pl' AND type = 'posts' AND id = ?",
    )
    .run(id);
}
again.close();
const nextEdit = await measured(`${stale} stale again`);
store.close();
fs.rmSync(work, { recursive: true, force: true });
console.log(
  JSON.stringify({ dist, publicPosts, load: os.loadavg()[0]?.toFixed(2), first, edit, nextEdit }),
);
