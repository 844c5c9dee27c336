/**
 * Heap held by one language's site model and plan, read from a cache, before anything renders:
 * what a build keeps whole for the site's size (issue 17).
 *   node --expose-gc --import tsx test/bench/model-memory.bench.ts CACHE [lang=pl] [ordered|streamed]
 * The cache must hold the language pulled and transformed (a `cms-mirror build` does both).
 * With `ordered`, the model reads the posts from the cache itself, newest first a chunk at a
 * time, as a build does when it did not transform (no rows held beside it). With `streamed`,
 * the model holds no posts: they are read again a window at a time whenever the plan needs
 * them (`streamPosts`, as a full build reads them since issue 17's i-plan).
 * After each step a full garbage collection, then the heap used and what the step added.
 */
import { modelFromStore } from '../../src/site/model-from-store.js';
import { placeSite, planPlaced } from '../../src/site/site-plan.js';
import { RecordedRows } from '../../src/site/stored-manifest.js';
import { openStore } from '../../src/store/open-store.js';
import { readPublished } from '../../src/transform/index.js';

const CACHE = process.argv[2];
const LANG = process.argv[3] ?? 'pl';
const STREAMED = process.argv[4] === 'streamed';
const ORDERED = process.argv[4] === 'ordered' || STREAMED;
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
  // What a build after a transform holds besides the model: the public rows it read, and the
  // last build's manifest (a full build holds both while it plans and renders).
  const saved = store.buildState.get(LANG);
  step(`previous manifest (${Object.keys(saved?.manifest.files ?? {}).length} files)`);
  // What a full build holds of it since the manifest stays in the cache: each row looked up
  // as the build compares a file, the rows walked in path order as it looks for stale ones.
  const recorded = new RecordedRows(store, LANG);
  let found = 0;
  for (const [file] of recorded) if (recorded.get(file) !== undefined) found++;
  step(`previous manifest in the cache, every row walked and looked up (${found} rows)`);
  const published = ORDERED ? undefined : readPublished(store, LANG);
  step(`published rows (${published?.posts.length ?? 'none read:'} posts)`);
  const { model } = modelFromStore(store, {
    lang: LANG,
    languages: [{ lang: LANG }],
    ...(published ? { published } : {}),
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
    `held: ${[saved, published, model, placed, plan].length} structures; ${new Date().toISOString()}`,
  );
  store.close();
}

main();
