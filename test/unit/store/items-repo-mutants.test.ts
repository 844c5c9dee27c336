import { beforeEach, describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import { StoreError } from '../../../src/errors.js';
import { openStore } from '../../../src/store/index.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';
import { page, post } from '../../helpers/store/item-fixtures.js';

// Cases found by mutation testing (test/mutation/RESULTS.md): what the items repository
// promises about outcomes, tombstones, filters and the public set, each checked on its own.

const fixture = useClockedStore();

describe('upsertPage outcomes', () => {
  it('says undeleted only for a tombstoned item that came back', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1), post(2), post(3)]);
    fixture.store.items.tombstone('pl', 'posts', [3]);
    const result = fixture.store.items.upsertPage('pl', 'posts', [
      post(1),
      post(2, { title: { rendered: 'Changed' } }),
      post(3),
    ]);
    expect(result.outcomes).toEqual([
      { id: 1, outcome: 'unchanged', undeleted: false },
      { id: 2, outcome: 'updated', undeleted: false },
      { id: 3, outcome: 'created', undeleted: true },
    ]);
    expect(result).toMatchObject({ created: 1, updated: 1, unchanged: 1 });
  });

  it('compares an id that appears twice in one page with its first copy', () => {
    const same = fixture.store.items.upsertPage('pl', 'posts', [post(1), post(1)]);
    expect(same.outcomes).toEqual([
      { id: 1, outcome: 'created', undeleted: false },
      { id: 1, outcome: 'unchanged', undeleted: false },
    ]);
    expect(same).toMatchObject({ created: 1, updated: 0, unchanged: 1 });

    const changed = fixture.store.items.upsertPage('pl', 'posts', [
      post(2),
      post(2, { title: { rendered: 'Second copy' } }),
    ]);
    expect(changed.outcomes.map((entry) => entry.outcome)).toEqual(['created', 'updated']);
    expect(fixture.store.items.get('pl', 'posts', 2)?.title).toBe('Second copy');
  });

  it('stores sticky as the site sent it: false stays false, pages have none', () => {
    fixture.store.items.upsertPage('pl', 'posts', [
      post(1, { sticky: false }),
      post(2, { sticky: true }),
    ]);
    fixture.store.items.upsertPage('pl', 'pages', [page(3)]);
    expect(fixture.store.items.get('pl', 'posts', 1)?.sticky).toBe(false);
    expect(fixture.store.items.get('pl', 'posts', 2)?.sticky).toBe(true);
    expect(fixture.store.items.get('pl', 'pages', 3)?.sticky).toBeNull();
  });
});

describe('writes to a read-only cache name what they were doing', () => {
  it.each([
    ['storing items', (readonly: Store) => readonly.items.upsertPage('pl', 'posts', [post(1)])],
    ['tombstoning items', (readonly: Store) => readonly.items.tombstone('pl', 'posts', [1])],
  ])('%s', (doing, write) => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    const readonly = openStore(fixture.temp.file, { readonly: true });
    try {
      expect(() => write(readonly)).toThrow(StoreError);
      expect(() => write(readonly)).toThrow(`while ${doing}: it was opened read-only`);
    } finally {
      readonly.close();
    }
  });
});

describe('filters', () => {
  beforeEach(() => {
    fixture.store.items.upsertPage('pl', 'posts', [
      post(1, { slug: 'same' }),
      post(2, { slug: 'same', status: 'draft' }),
      post(3, { slug: 'same' }),
      post(4, { slug: 'other' }),
    ]);
    fixture.store.items.tombstone('pl', 'posts', [3]);
  });

  it('findBySlug finds live items, tombstones only when asked, and filters by status', () => {
    const ids = (items: readonly { id: number }[]) => items.map((item) => item.id);
    expect(ids(fixture.store.items.findBySlug('pl', 'posts', 'same'))).toEqual([1, 2]);
    expect(
      ids(fixture.store.items.findBySlug('pl', 'posts', 'same', { includeDeleted: true })),
    ).toEqual([1, 2, 3]);
    expect(
      ids(fixture.store.items.findBySlug('pl', 'posts', 'same', { statuses: ['draft'] })),
    ).toEqual([2]);
    expect(fixture.store.items.findBySlug('pl', 'pages', 'same')).toEqual([]);
  });

  it('an empty status list matches nothing (it is not "every status")', () => {
    expect(fixture.store.items.count('pl', 'posts', { statuses: [] })).toBe(0);
    expect(fixture.store.items.listIds('pl', 'posts', { statuses: [] })).toEqual([]);
    expect(fixture.store.items.findBySlug('pl', 'posts', 'same', { statuses: [] })).toEqual([]);
    expect([...fixture.store.items.iterate('pl', 'posts', { statuses: [] })]).toEqual([]);
  });

  it('iterate refuses a bad chunk size with the size named', () => {
    expect(() => [...fixture.store.items.iterate('pl', 'posts', { chunkSize: 0 })]).toThrow(
      new RangeError('chunkSize must be a positive integer, got 0'),
    );
  });

  it('iterate reads every live row across chunks of any size', () => {
    for (const chunkSize of [1, 2, 3, 4]) {
      expect(
        [...fixture.store.items.iterate('pl', 'posts', { chunkSize })].map((item) => item.id),
      ).toEqual([1, 2, 4]);
    }
  });
});

describe('publicSummaries', () => {
  it('lists published, live, unprotected items in id order, without the others', () => {
    fixture.store.items.upsertPage('pl', 'posts', [
      post(5),
      post(1),
      post(2, { status: 'draft' }),
      post(3, { password: 'secret' }),
      post(4, { content: { rendered: '', protected: true } }),
      post(6),
      post(7, { password: '' }),
    ]);
    fixture.store.items.tombstone('pl', 'posts', [6]);
    fixture.store.items.upsertPage('es', 'posts', [post(8)]);
    fixture.store.items.upsertPage('pl', 'pages', [page(9)]);
    const summaries = fixture.store.items.publicSummaries('pl', 'posts');
    expect(summaries.map((summary) => summary.id)).toEqual([1, 5, 7]);
    const stored = fixture.store.items.get('pl', 'posts', 5);
    if (stored === undefined) throw new Error('post 5 was not stored');
    expect(summaries[1]).toEqual({
      type: 'posts',
      id: 5,
      link: stored.link,
      contentHash: stored.contentHash,
    });
  });
});

describe('lastChangeAt', () => {
  it('is undefined for a language without items', () => {
    expect(fixture.store.items.lastChangeAt('pl')).toBeUndefined();
  });

  it('is the latest store or tombstone time of the language', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1), post(2)]);
    expect(fixture.store.items.lastChangeAt('pl')).toBe('2024-05-01T10:00:00.000Z');
    fixture.clock = new Date('2024-05-02T10:00:00.000Z');
    fixture.store.items.tombstone('pl', 'posts', [2]);
    expect(fixture.store.items.lastChangeAt('pl')).toBe('2024-05-02T10:00:00.000Z');
    fixture.clock = new Date('2024-05-03T10:00:00.000Z');
    fixture.store.items.upsertPage('pl', 'posts', [post(3)]);
    expect(fixture.store.items.lastChangeAt('pl')).toBe('2024-05-03T10:00:00.000Z');
    expect(fixture.store.items.lastChangeAt('es')).toBeUndefined();
  });

  it('an older tombstone does not hide a newer store', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    fixture.store.items.tombstone('pl', 'posts', [1]);
    fixture.clock = new Date('2024-05-09T10:00:00.000Z');
    fixture.store.items.upsertPage('pl', 'posts', [post(2)]);
    expect(fixture.store.items.lastChangeAt('pl')).toBe('2024-05-09T10:00:00.000Z');
  });
});
