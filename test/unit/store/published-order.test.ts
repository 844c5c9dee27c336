/**
 * The ordered reader a build makes its model from a chunk at a time: the public items only,
 * newest first (ties by the larger id, then by the order of the types given), every item once
 * whatever the chunk size, and an item removed after the order was read left out.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { type CmsItem } from '../../../src/store/index.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

const cache = useTempStore({ prefix: 'cms-published-order-' });

function item(id: number, date: string | undefined, fields: Record<string, unknown> = {}): CmsItem {
  return {
    id,
    status: 'publish',
    link: `http://h/pl/p${id}/`,
    ...(date === undefined ? {} : { date_gmt: date }),
    title: { rendered: `P${id}` },
    content: { rendered: '<p>x</p>', protected: false },
    excerpt: { rendered: '', protected: false },
    ...fields,
  };
}

const POSTS: [number, string | undefined][] = [
  [1, '2024-01-01T00:00:00'],
  [2, '2024-03-01T00:00:00'],
  [3, '2024-03-01T00:00:00'],
  [4, undefined],
  [5, '2023-12-31T23:59:59'],
  [6, '2024-02-01T00:00:00'],
  [7, '2024-03-01T00:00:00'],
];

function keys(chunks: Iterable<{ type: string; id: number }[]>): string[][] {
  return [...chunks].map((chunk) => chunk.map((row) => `${row.type}:${row.id}`));
}

describe('public items newest first', () => {
  beforeEach(() => {
    cache.store.items.upsertPage(
      'pl',
      'posts',
      POSTS.map(([id, date]) => item(id, date)),
    );
    // Not public: never read.
    cache.store.items.upsertPage('pl', 'posts', [
      item(8, '2025-01-01T00:00:00', { status: 'draft' }),
    ]);
    cache.store.items.upsertPage('es', 'posts', [item(9, '2025-01-01T00:00:00')]);
  });

  it('reads the public items by date, newest first, ties by the larger id', () => {
    const order = cache.store.publishedOrder.newestFirst('pl', ['posts']);
    expect(order.count).toBe(7);
    expect(keys(order.chunks(100))).toEqual([
      ['posts:7', 'posts:3', 'posts:2', 'posts:6', 'posts:1', 'posts:5', 'posts:4'],
    ]);
  });

  it('gives every item once, in the same order, whatever the chunk size', () => {
    const order = cache.store.publishedOrder.newestFirst('pl', ['posts']);
    const whole = keys(order.chunks(100)).flat();
    for (const size of [1, 2, 3, 6, 7]) {
      const chunks = keys(order.chunks(size));
      expect(chunks.every((chunk) => chunk.length <= size)).toBe(true);
      expect(chunks.length).toBe(Math.ceil(7 / size));
      expect(chunks.flat()).toEqual(whole);
    }
  });

  it('reads each row as the list of a type reads it', () => {
    const order = cache.store.publishedOrder.newestFirst('pl', ['posts']);
    const listed = new Map(
      cache.store.transformed.listPublished('pl', 'posts').map((r) => [r.id, r]),
    );
    for (const row of [...order.chunks(3)].flat()) expect(row).toEqual(listed.get(row.id));
  });

  it('merges several types, a tie on date and id going to the type named first', () => {
    cache.store.items.upsertPage('pl', 'pages', [
      item(3, '2024-03-01T00:00:00'),
      item(10, '2024-02-15T00:00:00'),
    ]);
    const order = cache.store.publishedOrder.newestFirst('pl', ['pages', 'posts']);
    expect(keys(order.chunks(4)).flat()).toEqual([
      'posts:7',
      'pages:3',
      'posts:3',
      'posts:2',
      'pages:10',
      'posts:6',
      'posts:1',
      'posts:5',
      'posts:4',
    ]);
  });

  it('leaves out an item no longer public when its chunk is read', () => {
    const order = cache.store.publishedOrder.newestFirst('pl', ['posts']);
    cache.store.items.tombstone('pl', 'posts', [2]);
    expect(keys(order.chunks(2)).flat()).toEqual([
      'posts:7',
      'posts:3',
      'posts:6',
      'posts:1',
      'posts:5',
      'posts:4',
    ]);
  });

  it('reads nothing for no types', () => {
    const order = cache.store.publishedOrder.newestFirst('pl', []);
    expect(order.count).toBe(0);
    expect([...order.chunks(5)]).toEqual([]);
  });
});
