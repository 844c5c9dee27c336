import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import { drainQueue, drainQueueReporting } from '../../../src/sync/queue-drain.js';
import type { PullEvent } from '../../../src/sync/pull-summary.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';

/**
 * The drain of a pull's queued work (revisions, assets) against a real SQLite queue: which ids
 * are offered, in what chunks, what stays queued when the handler leaves it, and the progress
 * a user sees.
 */
describe('drainQueue (queued work of one language × collection)', () => {
  // A fresh cache per test, opened and closed by the shared fixture.
  const fixture = useClockedStore();
  let store: Store;
  beforeEach(() => {
    store = fixture.store;
  });

  const range = (from: number, to: number) =>
    Array.from({ length: to - from + 1 }, (_, n) => from + n);

  it('offers every queued id once, in id order, 50 at a time by default', async () => {
    store.syncQueue.add('pl', 'assets', 'posts', range(1, 120).reverse());
    const offered: number[][] = [];
    const count = await drainQueue(store, 'pl', 'assets', 'posts', async (ids) => {
      offered.push([...ids]);
      store.syncQueue.remove('pl', 'assets', 'posts', ids);
    });
    expect(offered.map((ids) => ids.length)).toEqual([50, 50, 20]);
    expect(offered.flat()).toEqual(range(1, 120));
    expect(count).toBe(120);
    expect(store.syncQueue.counts('pl')).toEqual([]);
  });

  it('uses the chunk size it is given', async () => {
    store.syncQueue.add('pl', 'revisions', 'pages', range(1, 7));
    const offered: number[][] = [];
    const count = await drainQueue(
      store,
      'pl',
      'revisions',
      'pages',
      async (ids) => {
        offered.push([...ids]);
      },
      { chunkSize: 3 },
    );
    expect(offered).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(count).toBe(7);
  });

  it('keeps the ids the handler did not finish queued for the next pull, without offering them again now', async () => {
    store.syncQueue.add('pl', 'assets', 'posts', range(1, 10));
    const offered: number[] = [];
    // Even ids fail: they are left in the queue.
    const count = await drainQueue(
      store,
      'pl',
      'assets',
      'posts',
      async (ids) => {
        offered.push(...ids);
        store.syncQueue.remove(
          'pl',
          'assets',
          'posts',
          ids.filter((id) => id % 2 === 1),
        );
      },
      { chunkSize: 4 },
    );
    expect(offered).toEqual(range(1, 10));
    expect(count).toBe(10);
    expect(store.syncQueue.next('pl', 'assets', 'posts', 0, 100)).toEqual([2, 4, 6, 8, 10]);

    // The next pull offers exactly the failed ones.
    const retried: number[] = [];
    await drainQueue(store, 'pl', 'assets', 'posts', async (ids) => {
      retried.push(...ids);
      store.syncQueue.remove('pl', 'assets', 'posts', ids);
    });
    expect(retried).toEqual([2, 4, 6, 8, 10]);
    expect(store.syncQueue.counts('pl')).toEqual([]);
  });

  it('offers nothing and returns 0 for an empty queue', async () => {
    let calls = 0;
    const count = await drainQueue(store, 'pl', 'assets', 'posts', async () => {
      calls += 1;
    });
    expect(calls).toBe(0);
    expect(count).toBe(0);
  });

  it('drains only its own language, task and collection', async () => {
    store.syncQueue.add('es', 'assets', 'posts', [1]);
    store.syncQueue.add('pl', 'revisions', 'posts', [2]);
    store.syncQueue.add('pl', 'assets', 'pages', [3]);
    store.syncQueue.add('pl', 'assets', 'posts', [4]);
    const offered: number[] = [];
    await drainQueue(store, 'pl', 'assets', 'posts', async (ids) => {
      offered.push(...ids);
      store.syncQueue.remove('pl', 'assets', 'posts', ids);
    });
    expect(offered).toEqual([4]);
    expect(store.syncQueue.counts().map((c) => `${c.lang}/${c.task}/${c.type}`)).toEqual([
      'es/assets/posts',
      'pl/assets/pages',
      'pl/revisions/posts',
    ]);
  });

  it('stops between chunks when the pull is aborted; the rest stays queued', async () => {
    store.syncQueue.add('pl', 'assets', 'posts', range(1, 6));
    const controller = new AbortController();
    const offered: number[] = [];
    await expect(
      drainQueue(
        store,
        'pl',
        'assets',
        'posts',
        async (ids) => {
          offered.push(...ids);
          store.syncQueue.remove('pl', 'assets', 'posts', ids);
          controller.abort(new Error('stopped by the user'));
        },
        { chunkSize: 2, signal: controller.signal },
      ),
    ).rejects.toThrow('stopped by the user');
    expect(offered).toEqual([1, 2]);
    expect(store.syncQueue.next('pl', 'assets', 'posts', 0, 100)).toEqual([3, 4, 5, 6]);
  });

  it('reports progress before the first chunk and after each one, with the ids handled so far', async () => {
    store.syncQueue.add('pl', 'revisions', 'posts', range(1, 5));
    const events: PullEvent[] = [];
    const handled: number[] = [];
    await drainQueueReporting(
      { store, lang: 'pl', type: 'posts', emit: (event) => events.push(event) },
      'revisions',
      async (ids) => {
        // The progress after a chunk comes once the chunk is handled.
        expect(events).toHaveLength(1 + handled.length / 2);
        handled.push(...ids);
        store.syncQueue.remove('pl', 'revisions', 'posts', ids);
      },
      2,
    );
    expect(handled).toEqual(range(1, 5));
    expect(events).toEqual(
      [0, 2, 4, 5].map((done) => ({
        type: 'progress',
        lang: 'pl',
        collection: 'posts',
        phase: 'revisions',
        done,
        total: undefined,
      })),
    );
  });

  it('reports one progress event and asks nothing for an empty queue; passes the abort on', async () => {
    const events: PullEvent[] = [];
    let calls = 0;
    await drainQueueReporting(
      { store, lang: 'es', type: 'pages', emit: (event) => events.push(event) },
      'assets',
      async () => {
        calls += 1;
      },
      10,
    );
    expect(calls).toBe(0);
    expect(events).toEqual([
      {
        type: 'progress',
        lang: 'es',
        collection: 'pages',
        phase: 'assets',
        done: 0,
        total: undefined,
      },
    ]);

    store.syncQueue.add('es', 'assets', 'pages', [1]);
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(
      drainQueueReporting(
        { store, lang: 'es', type: 'pages', emit: () => {}, signal: controller.signal },
        'assets',
        async () => {
          calls += 1;
        },
        10,
      ),
    ).rejects.toThrow('stopped');
    expect(calls).toBe(0);
  });
});
