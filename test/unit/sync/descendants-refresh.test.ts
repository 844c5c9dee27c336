import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import { refreshDescendants } from '../../../src/sync/descendants-refresh.js';
import type { CrawlItem } from '../../../src/sync/record-check.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';

/**
 * The refresh of moved pages' children, against a real SQLite queue and a page tree given as
 * data (parent id → child ids): which parents are asked for, what is stored, and what stays
 * queued for the next pull when a round dies.
 */
describe('refreshDescendants (the children of moved pages, from the queue)', () => {
  // A fresh cache per test, opened and closed by the shared fixture.
  const fixture = useClockedStore();
  let store: Store;
  beforeEach(() => {
    store = fixture.store;
  });

  const page = (id: number, parent: number): CrawlItem =>
    ({ id, parent, modified_gmt: '2024-06-01T12:00:00', status: 'publish' }) as CrawlItem;

  /** The site's tree; `moved` says which stored children pass the move on (queued in turn). */
  function tree(children: Record<number, number[]>, moved: (id: number) => boolean = () => false) {
    const asked: number[][] = [];
    const stored: number[][] = [];
    return {
      asked,
      stored,
      fetchChildren: async (parents: readonly number[]) => {
        asked.push([...parents]);
        return parents.flatMap((parent) => (children[parent] ?? []).map((id) => page(id, parent)));
      },
      storeItems: (items: readonly CrawlItem[]) => {
        stored.push(items.map((item) => item.id));
        // As crawl-store does: a child whose own link changed is queued in the same step.
        store.syncQueue.add('pl', 'children', 'pages', items.map((item) => item.id).filter(moved));
      },
    };
  }

  const queuedChildren = (lang = 'pl') =>
    store.syncQueue.counts(lang).filter((count) => count.task === 'children');

  it('asks nothing and stores nothing when no page is queued', async () => {
    const site = tree({ 1: [2] });
    await refreshDescendants({ store, lang: 'pl', type: 'pages', fetched: new Set(), ...site });
    expect(site.asked).toEqual([]);
    expect(site.stored).toEqual([]);
  });

  it('fetches the children of the queued pages, stores them and empties the queue', async () => {
    store.syncQueue.add('pl', 'children', 'pages', [30, 10]);
    const site = tree({ 10: [11, 12], 30: [31] });
    await refreshDescendants({ store, lang: 'pl', type: 'pages', fetched: new Set(), ...site });
    expect(site.asked).toEqual([[10, 30]]);
    expect(site.stored).toEqual([[11, 12, 31]]);
    expect(queuedChildren()).toEqual([]);
  });

  it('goes down level by level while children pass the move on, then stops', async () => {
    store.syncQueue.add('pl', 'children', 'pages', [1]);
    const site = tree({ 1: [2, 3], 2: [4], 4: [5] }, (id) => id === 2 || id === 4);
    await refreshDescendants({ store, lang: 'pl', type: 'pages', fetched: new Set(), ...site });
    expect(site.asked).toEqual([[1], [2], [4]]);
    expect(site.stored.flat()).toEqual([2, 3, 4, 5]);
    expect(queuedChildren()).toEqual([]);
  });

  it('asks for a page in a parent cycle once, and ends', async () => {
    // 1 → 2 → 1: every stored page moved again (its link follows the cycle).
    store.syncQueue.add('pl', 'children', 'pages', [1]);
    const site = tree({ 1: [2], 2: [1] }, () => true);
    const fetched = new Set<number>();
    await refreshDescendants({ store, lang: 'pl', type: 'pages', fetched, ...site });
    expect(site.asked).toEqual([[1], [2]]);
    expect([...fetched].sort()).toEqual([1, 2]);
    expect(queuedChildren()).toEqual([]);
  });

  it('does not ask again for parents this pull already fetched (the set is shared by the pull)', async () => {
    store.syncQueue.add('pl', 'children', 'pages', [1, 2]);
    const site = tree({ 1: [3], 2: [4] });
    await refreshDescendants({
      store,
      lang: 'pl',
      type: 'pages',
      fetched: new Set([1]),
      ...site,
    });
    expect(site.asked).toEqual([[2]]);
    expect(queuedChildren()).toEqual([]);

    // Every queued parent fetched already: no request at all, the queue still emptied.
    store.syncQueue.add('pl', 'children', 'pages', [1, 2]);
    const again = tree({ 1: [3], 2: [4] });
    await refreshDescendants({
      store,
      lang: 'pl',
      type: 'pages',
      fetched: new Set([1, 2]),
      ...again,
    });
    expect(again.asked).toEqual([]);
    expect(again.stored).toEqual([]);
    expect(queuedChildren()).toEqual([]);
  });

  it('leaves the parents queued when their children could not be fetched or stored (a killed pull)', async () => {
    store.syncQueue.add('pl', 'children', 'pages', [1, 2]);
    const failing = {
      fetchChildren: async () => {
        throw new Error('killed');
      },
      storeItems: () => {},
    };
    await expect(
      refreshDescendants({ store, lang: 'pl', type: 'pages', fetched: new Set(), ...failing }),
    ).rejects.toThrow('killed');
    expect(store.syncQueue.next('pl', 'children', 'pages', 0, 10)).toEqual([1, 2]);

    const site = tree({ 1: [3] });
    await expect(
      refreshDescendants({
        store,
        lang: 'pl',
        type: 'pages',
        fetched: new Set(),
        fetchChildren: site.fetchChildren,
        storeItems: () => {
          throw new Error('disk full');
        },
      }),
    ).rejects.toThrow('disk full');
    expect(store.syncQueue.next('pl', 'children', 'pages', 0, 10)).toEqual([1, 2]);

    // The next pull does the work.
    const next = tree({ 1: [3], 2: [4] });
    await refreshDescendants({ store, lang: 'pl', type: 'pages', fetched: new Set(), ...next });
    expect(next.stored.flat()).toEqual([3, 4]);
    expect(queuedChildren()).toEqual([]);
  });

  it('stops before any request when the pull is aborted, leaving the work queued', async () => {
    store.syncQueue.add('pl', 'children', 'pages', [1]);
    const site = tree({ 1: [2] });
    const controller = new AbortController();
    controller.abort(new Error('stopped by the user'));
    await expect(
      refreshDescendants({
        store,
        lang: 'pl',
        type: 'pages',
        fetched: new Set(),
        signal: controller.signal,
        ...site,
      }),
    ).rejects.toThrow('stopped by the user');
    expect(site.asked).toEqual([]);
    expect(store.syncQueue.next('pl', 'children', 'pages', 0, 10)).toEqual([1]);
  });

  it('takes only its own language and collection from the queue', async () => {
    store.syncQueue.add('es', 'children', 'pages', [7]);
    store.syncQueue.add('pl', 'children', 'posts', [8]);
    store.syncQueue.add('pl', 'assets', 'pages', [9]);
    store.syncQueue.add('pl', 'children', 'pages', [1]);
    const site = tree({ 1: [2] });
    await refreshDescendants({ store, lang: 'pl', type: 'pages', fetched: new Set(), ...site });
    expect(site.asked).toEqual([[1]]);
    expect(store.syncQueue.next('es', 'children', 'pages', 0, 10)).toEqual([7]);
    expect(store.syncQueue.next('pl', 'children', 'posts', 0, 10)).toEqual([8]);
    expect(store.syncQueue.next('pl', 'assets', 'pages', 0, 10)).toEqual([9]);
    expect(store.syncQueue.next('pl', 'children', 'pages', 0, 10)).toEqual([]);
  });

  it('reads a long queue in rounds of at most 1000 parents', async () => {
    const ids = Array.from({ length: 2500 }, (_, n) => n + 1);
    store.syncQueue.add('pl', 'children', 'pages', ids);
    const site = tree({});
    await refreshDescendants({ store, lang: 'pl', type: 'pages', fetched: new Set(), ...site });
    expect(site.asked.map((parents) => parents.length)).toEqual([1000, 1000, 500]);
    expect(site.asked.flat()).toEqual(ids);
    expect(queuedChildren()).toEqual([]);
  });
});
