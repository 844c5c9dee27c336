import { beforeEach, describe, expect, it } from 'vitest';
import { CollectionSync } from '../../../src/sync/collection-sync.js';
import { tombstoneUnseen } from '../../../src/sync/deletion-probe.js';
import { emptyCounters } from '../../../src/sync/pull-summary.js';
import { FakeSite } from '../../helpers/fake-site.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

describe('deletion probe, reading the cached ids a chunk at a time', () => {
  const cache = useTempStore();
  let site: FakeSite;
  beforeEach(() => {
    site = new FakeSite();
  });

  async function mirror(): Promise<void> {
    await new CollectionSync({
      client: site.client(),
      store: cache.store,
      lang: 'pl',
      type: 'posts',
      mode: 'view',
      perPage: 10,
      backup: false,
      counters: emptyCounters(),
      emit: () => undefined,
    }).run();
  }

  function probe(seen: ReadonlySet<number>, idChunk: number, historyRun?: number): Promise<number> {
    return tombstoneUnseen({
      store: cache.store,
      lang: 'pl',
      type: 'posts',
      lists: site.client(),
      route: 'cms/v2/posts',
      filter: {},
      perPage: 10,
      historyRun,
      seen: (id) => seen.has(id),
      idChunk,
    });
  }

  function live(): number[] {
    return [...cache.store.items.iterate('pl', 'posts')].map((row) => row.id);
  }

  it('tombstones the absent ids of every chunk (first, last, either side of a boundary) and probes none it saw', async () => {
    const items = site.add(25, site.now - 100, 1).map((item) => item.id);
    await mirror();
    expect(live()).toEqual(items);
    // Chunks of 7 cached ids: 1-7, 8-14, 15-21, 22-25.
    const gone = [items[0]!, items[6]!, items[7]!, items[13]!, items[14]!, items[24]!];
    for (const id of gone) site.items.delete(id);
    const seen = new Set([items[2]!, items[20]!]);
    site.requests = [];
    const tombstoned = await probe(seen, 7);
    expect(tombstoned).toBe(gone.length);
    expect(live()).toEqual([...site.expected().keys()]);
    const probed = site.requests.flatMap((query) => (query['include'] as number[]) ?? []);
    expect(probed.sort((a, b) => a - b)).toEqual(items.filter((id) => !seen.has(id)));
  });

  it('ends with a chunk exactly full of ids (25 ids, chunks of 5)', async () => {
    const items = site.add(25, site.now - 100, 1).map((item) => item.id);
    await mirror();
    site.items.delete(items[24]!);
    site.items.delete(items[4]!);
    expect(await probe(new Set(), 5)).toBe(2);
    expect(live()).toEqual([...site.expected().keys()]);
  });

  it('records a "gone" history row for each tombstoned item only when the pull keeps history', async () => {
    const items = site.add(6, site.now - 100, 1).map((item) => item.id);
    await mirror();
    site.items.delete(items[1]!);
    expect(await probe(new Set(), 4)).toBe(1);
    // A pull without item history (not backup mode): no row at all.
    expect(cache.store.itemVersions.versionsOf('pl', 'posts', items[1]!)).toEqual([]);
    site.items.delete(items[4]!);
    const run = cache.store.runs.start('pull');
    expect(await probe(new Set(), 4, run)).toBe(1);
    const rows = cache.store.itemVersions.versionsOf('pl', 'posts', items[4]!);
    expect(rows.map((row) => [row.runId, row.gone])).toEqual([[run, true]]);
    for (const id of items.filter((_, n) => n !== 4)) {
      expect(cache.store.itemVersions.versionsOf('pl', 'posts', id)).toEqual([]);
    }
  });
});
