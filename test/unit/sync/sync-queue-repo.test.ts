import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

describe('store.syncQueue', () => {
  let temp: TempCache;
  let store: Store;
  beforeEach(() => {
    temp = tempCache();
    store = openStore(temp.file);
  });
  afterEach(() => {
    store.close();
    temp.cleanup();
  });

  it('queues each item once per task and hands ids out in keyset order', () => {
    expect(store.syncQueue.add('pl', 'assets', 'posts', [5, 3, 9])).toBe(3);
    expect(store.syncQueue.add('pl', 'assets', 'posts', [3, 11])).toBe(1);
    store.syncQueue.add('pl', 'revisions', 'posts', [3]);
    store.syncQueue.add('es', 'assets', 'posts', [1]);
    expect(store.syncQueue.next('pl', 'assets', 'posts', 0, 2)).toEqual([3, 5]);
    expect(store.syncQueue.next('pl', 'assets', 'posts', 5, 10)).toEqual([9, 11]);
    expect(store.syncQueue.remove('pl', 'assets', 'posts', [3, 5, 99])).toBe(2);
    expect(store.syncQueue.counts()).toEqual([
      { lang: 'es', task: 'assets', type: 'posts', count: 1 },
      { lang: 'pl', task: 'assets', type: 'posts', count: 2 },
      { lang: 'pl', task: 'revisions', type: 'posts', count: 1 },
    ]);
    expect(store.syncQueue.counts('es')).toHaveLength(1);
  });

  it('commits or rolls back together with the items of the same transaction', () => {
    expect(() =>
      store.transaction(() => {
        store.items.upsertPage('pl', 'posts', [{ id: 1, modified_gmt: '2024-01-01T00:00:00' }]);
        store.syncQueue.add('pl', 'assets', 'posts', [1]);
        throw new Error('killed');
      }),
    ).toThrow('killed');
    expect(store.items.count('pl', 'posts')).toBe(0);
    expect(store.syncQueue.counts()).toEqual([]);
  });
});
