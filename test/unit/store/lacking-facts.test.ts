/**
 * `TransformedRepo.lackingFacts`: the outputs the transform must give their HTML facts
 * (made for the item's current content by this version, public, but stored without an
 * `htmlDigest` string or a `media` array), from an index of those rows only. Exactly those:
 * a row with facts, a stale row (transformed again anyway), another version's row, another
 * language's row or a row of an item that is not public never comes back.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import type { CmsItem, ItemType } from '../../../src/store/index.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

const cache = useTempStore({ prefix: 'cms-lacking-facts-' });
const FACTS = { sitePath: '/p/', htmlDigest: 'd1', media: [] };

function item(id: number, fields: Record<string, unknown> = {}): CmsItem {
  return {
    id,
    status: 'publish',
    link: `http://h/pl/p${id}/`,
    date_gmt: '2024-01-01T00:00:00',
    title: { rendered: `P${id}` },
    content: { rendered: '<p>x</p>', protected: false },
    excerpt: { rendered: '', protected: false },
    ...fields,
  };
}

function put(
  lang: string,
  type: ItemType,
  id: number,
  meta: unknown,
  override: { version?: string; sourceHash?: string } = {},
): void {
  const stored = cache.store.items.get(lang, type, id);
  if (stored === undefined) throw new Error(`no ${lang} ${type} ${id}`);
  cache.store.transformed.put({
    lang,
    type,
    id,
    transformVersion: override.version ?? '4',
    sourceHash: override.sourceHash ?? stored.contentHash,
    html: '<p>x</p>',
    meta,
  });
}

function lacking(types: ItemType[] = ['pages', 'posts'], chunkSize?: number): string[] {
  return [...cache.store.transformed.lackingFacts('pl', '4', types, chunkSize)].map(
    (row) => `${row.type}:${row.id}`,
  );
}

describe('outputs lacking their HTML facts', () => {
  beforeEach(() => {
    const { items } = cache.store;
    items.upsertPage(
      'pl',
      'posts',
      [1, 2, 3, 4, 5, 6, 7, 8].map((id) => item(id)),
    );
    items.upsertPage('pl', 'posts', [item(9, { status: 'draft' })]);
    items.upsertPage('pl', 'pages', [item(20)]);
    items.upsertPage('es', 'posts', [item(30)]);
    put('pl', 'posts', 1, FACTS);
    put('pl', 'posts', 2, { sitePath: '/p2/' });
    put('pl', 'posts', 3, null);
    put('pl', 'posts', 4, { sitePath: '/p4/', htmlDigest: 5, media: [] });
    put('pl', 'posts', 5, { sitePath: '/p5/', htmlDigest: 'd5', media: '/m.png' });
    put('pl', 'posts', 6, { sitePath: '/p6/' }, { sourceHash: 'older content' });
    put('pl', 'posts', 7, { sitePath: '/p7/' }, { version: '3' });
    put('pl', 'posts', 9, { sitePath: '/p9/' });
    put('pl', 'pages', 20, { sitePath: '/about/' });
    put('es', 'posts', 30, { sitePath: '/p30/' });
  });

  it('finds exactly the current public outputs without facts, by type then id', () => {
    expect(lacking()).toEqual(['pages:20', 'posts:2', 'posts:3', 'posts:4', 'posts:5']);
    expect(lacking(['posts'])).toEqual(['posts:2', 'posts:3', 'posts:4', 'posts:5']);
    expect(lacking([])).toEqual([]);
  });

  it('reads chunk by chunk while the caller stores the facts, each row once', () => {
    const seen: string[] = [];
    for (const row of cache.store.transformed.lackingFacts('pl', '4', ['pages', 'posts'], 2)) {
      seen.push(`${row.type}:${row.id}`);
      put('pl', row.type, row.id, { ...FACTS, sitePath: `/${row.id}/` });
    }
    expect(seen).toEqual(['pages:20', 'posts:2', 'posts:3', 'posts:4', 'posts:5']);
    // With their facts stored, the rows left the index: nothing more to find.
    expect(lacking()).toEqual([]);
    expect(lacking(['pages', 'posts'], 2)).toEqual([]);
  });

  it('finds a row again when its facts are lost, and none once every row has them', () => {
    for (const id of [2, 3, 4, 5]) put('pl', 'posts', id, FACTS);
    put('pl', 'pages', 20, FACTS);
    expect(lacking()).toEqual([]);
    put('pl', 'posts', 1, { sitePath: '/p1/', media: [] });
    expect(lacking()).toEqual(['posts:1']);
  });
});
