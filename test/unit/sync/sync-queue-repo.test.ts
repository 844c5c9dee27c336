import { describe, expect, it } from 'vitest';
import { useTempStore } from '../../helpers/store/temp-store.js';

describe('store.syncQueue', () => {
  const cache = useTempStore();

  it('queues each item once per task and hands ids out in keyset order', () => {
    expect(cache.store.syncQueue.add('pl', 'assets', 'posts', [5, 3, 9])).toBe(3);
    expect(cache.store.syncQueue.add('pl', 'assets', 'posts', [3, 11])).toBe(1);
    cache.store.syncQueue.add('pl', 'revisions', 'posts', [3]);
    cache.store.syncQueue.add('es', 'assets', 'posts', [1]);
    expect(cache.store.syncQueue.next('pl', 'assets', 'posts', 0, 2)).toEqual([3, 5]);
    expect(cache.store.syncQueue.next('pl', 'assets', 'posts', 5, 10)).toEqual([9, 11]);
    expect(cache.store.syncQueue.remove('pl', 'assets', 'posts', [3, 5, 99])).toBe(2);
    expect(cache.store.syncQueue.counts()).toEqual([
      { lang: 'es', task: 'assets', type: 'posts', count: 1 },
      { lang: 'pl', task: 'assets', type: 'posts', count: 2 },
      { lang: 'pl', task: 'revisions', type: 'posts', count: 1 },
    ]);
    expect(cache.store.syncQueue.counts('es')).toHaveLength(1);
  });

  it('commits or rolls back together with the items of the same transaction', () => {
    expect(() =>
      cache.store.transaction(() => {
        cache.store.items.upsertPage('pl', 'posts', [
          { id: 1, modified_gmt: '2024-01-01T00:00:00' },
        ]);
        cache.store.syncQueue.add('pl', 'assets', 'posts', [1]);
        throw new Error('killed');
      }),
    ).toThrow('killed');
    expect(cache.store.items.count('pl', 'posts')).toBe(0);
    expect(cache.store.syncQueue.counts()).toEqual([]);
  });
});
