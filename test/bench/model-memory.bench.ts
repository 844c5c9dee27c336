/**
 * Heap held by one language's site model and plan, read from a cache, before anything renders:
 * what a build keeps whole for the site's size (issue 17).
 *   node --expose-gc --import tsx test/bench/model-memory.bench.ts CACHE [lang=pl] [streamed]
 * The cache must hold the language pulled and transformed (a `cms-mirror build` does both).
 * The model reads the posts from the cache itself, newest first a chunk at a time (no rows are
 * held beside it: the transform hands none over). With `streamed`, the model holds no posts:
 * they are read again a window at a time whenever the plan needs them (`streamPosts`, as a
 * full build reads them since issue 17's i-plan).
 * After each step a full garbage collection, then the heap used and what the step added.
 */
import { modelFromStore } from '../../src/site/model-from-store.js';
import { placeSite, planPlaced } from '../../src/site/site-plan.js';
import { RecordedRows } from '../../src/site/stored-manifest.js';
import { openStore } from '../../src/store/open-store.js';

const CACHE = process.argv[2];
const LANG = process.argv[3] ?? 'pl';
const STREAMED = process.argv[4] === 'streamed';
const gc = (globalThis as { gc?: () => void }).gc;

function main(): void {
  if (!CACHE || !gc)
    throw new Error('usage: node --expose-gc --import tsx <this file> CACHE [lang]');
  const collect = gc;
  let before = 0;
  const step = (label: string): void => {
    collect();
    const used = process.memoryUsage().heapUsed;
    const mb = (bytes: number): string => `${(bytes / 1048576).toFixed(1)} MB`;
    console.log(`${label}: heap used ${mb(used)} (+${mb(used - before)})`);
    before = used;
  };
  const store = openStore(CACHE);
  step('cache open');
  // The last build's manifest, as a build held it whole before it stayed in the cache.
  const saved = store.buildState.get(LANG);
  step(`previous manifest (${Object.keys(saved?.manifest.files ?? {}).length} files)`);
  // What a full build holds of it since the manifest stays in the cache: each row looked up
  // as the build compares a file, the rows walked in path order as it looks for stale ones.
  const recorded = new RecordedRows(store, LANG);
  let found = 0;
  for (const [file] of recorded) if (recorded.get(file) !== undefined) found++;
  step(`previous manifest in the cache, every row walked and looked up (${found} rows)`);
  const { model } = modelFromStore(store, {
    lang: LANG,
    languages: [{ lang: LANG }],
    ...(STREAMED ? { streamPosts: true } : {}),
  });
  const posts = model.postSource?.size ?? model.posts.length;
  step(`model (${posts} posts${STREAMED ? ' read again' : ''}, ${model.pages.length} pages)`);
  const placed = placeSite(model, {});
  step('placed');
  const plan = planPlaced(placed);
  step(`plan (${plan.jobs.length} pages, ${plan.files.length} files)`);
  // Everything above is still referenced here, so that no step's structures were collected.
  console.log(
    `held: ${[saved, model, placed, plan].length} structures; ${new Date().toISOString()}`,
  );
  store.close();
}

main();
