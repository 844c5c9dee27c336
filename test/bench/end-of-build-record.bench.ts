/**
 * What a compiled tree makes at the end of a full build for the next run's edit build: the
 * placement record (`placementRecord`, every chunk made) and the layout digest
 * (`layoutDigestOf`), for N synthetic posts, with nothing else in the process:
 *   /usr/bin/time -f "%M KB %U+%S s" node --heap-growing-percent=20 --import tsx \
 *     test/bench/end-of-build-record.bench.ts TREE N none|both
 * `none` only places the posts (the baseline); the difference of the peak RSS is what the
 * record and digest cost. Prints the record's size and the digest (the same for every tree
 * that digests alike).
 */
import v8 from 'node:v8';

const [tree, countText, what] = process.argv.slice(2);
if (!tree || !countText || (what !== 'none' && what !== 'both'))
  throw new Error('usage: end-of-build-record.bench.ts TREE N none|both');
const count = Number(countText);

interface Modules {
  PlacedPosts: new (...args: unknown[]) => { length: number };
  placementRecord: (placed: unknown) => {
    data?: string;
    posts?: { chunks(): Iterable<string> };
  };
  layoutDigestOf: (placed: unknown) => string;
}

const load = async (file: string): Promise<Record<string, unknown>> =>
  (await import(`${tree}/dist/site/${file}`)) as Record<string, unknown>;
const modules = {
  ...(await load('placed-posts.js')),
  ...(await load('stored-placement.js')),
  ...(await load('edit-plan.js')),
} as unknown as Modules;

const places = new Uint32Array(count);
const ids = new Float64Array(count);
const sticky = new Uint8Array(count);
const files: string[] = [];
for (let index = 0; index < count; index++) {
  places[index] = index;
  ids[index] = 1_000_000 + index;
  sticky[index] = index % 97 === 0 ? 1 : 0;
  const month = String(1 + (index % 12)).padStart(2, '0');
  files.push(`2024/${month}/wpis-numer-${index}/index.html`);
}
const source = { size: count, read: () => [], readAt: () => [], idAt: () => undefined };
const posts = new modules.PlacedPosts(
  source,
  { places, ids, sticky, files },
  { modified: '2024-01-01T00:00:00', index: 0 },
);
const placed = {
  model: { postSource: source },
  posts,
  facts: { candidates: count, candidateWarnings: [], claimWarnings: [], uses: new Map() },
  pages: [],
  media: [],
  search: { shards: [] },
  warnings: [],
};

let made = '';
if (what === 'both') {
  const record = modules.placementRecord(placed);
  if (record.data !== undefined) made += `record: one text of ${record.data.length} chars; `;
  else {
    let chars = 0;
    let rows = 0;
    for (const chunk of record.posts?.chunks() ?? []) {
      chars += chunk.length;
      rows++;
    }
    made += `record: ${rows} rows, ${chars} chars; `;
  }
  made += `layout digest ${modules.layoutDigestOf(placed)}; `;
}
const heap = v8.getHeapStatistics();
console.log(
  `${count} posts, ${what}: ${made}heap committed at the end ${(heap.total_heap_size / 1048576).toFixed(0)} MB`,
);
