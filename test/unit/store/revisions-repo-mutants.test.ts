import { beforeEach, describe, expect, it } from 'vitest';
import { contentHash, openStore } from '../../../src/store/index.js';
import { page, post } from '../../helpers/store/item-fixtures.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';

// Cases found by mutation testing (test/mutation/RESULTS.md): a revision is kept as fetched,
// under the parent whose route it came from, and a re-pull says truthfully what changed.

const cache = useClockedStore();
beforeEach(() => {
  cache.store.items.upsertPage('pl', 'posts', [post(1), post(2)]);
  cache.store.items.upsertPage('pl', 'pages', [page(1)]);
  cache.store.items.upsertPage('es', 'posts', [post(1)]);
});

describe('revisions: what is stored', () => {
  it('keeps every field of the revision as fetched, with its hash and fetch time', () => {
    const revision = {
      id: 11,
      parent: 1,
      author: 2,
      modified_gmt: '2024-01-01T00:00:00',
      title: { rendered: 'Old title' },
      content: { rendered: '<p>old</p>' },
    };
    cache.store.revisions.upsertMany('pl', 'posts', 1, [revision]);
    const stored = cache.store.revisions.get('pl', 11);
    if (stored === undefined) throw new Error('revision 11 was not stored');
    expect(stored).toEqual({
      lang: 'pl',
      parentType: 'posts',
      parentId: 1,
      id: 11,
      author: 2,
      modifiedGmt: '2024-01-01T00:00:00',
      json: JSON.stringify(revision),
      contentHash: contentHash(revision),
      fetchedAt: '2024-05-01T10:00:00.000Z',
    });
  });

  it('stores null for an author or modified_gmt the site sent in another shape', () => {
    cache.store.revisions.upsertMany('pl', 'posts', 1, [
      { id: 11, author: '2', modified_gmt: 5 },
      { id: 12, author: 1.5 },
    ]);
    expect(cache.store.revisions.get('pl', 11)).toMatchObject({ author: null, modifiedGmt: null });
    expect(cache.store.revisions.get('pl', 12)).toMatchObject({ author: null, modifiedGmt: null });
  });

  it('files a revision under the parent of its route, whatever its JSON says', () => {
    cache.store.revisions.upsertMany('pl', 'posts', 2, [{ id: 11, parent: 1 }]);
    expect(cache.store.revisions.list('pl', 'posts', 2).map((revision) => revision.id)).toEqual([
      11,
    ]);
    expect(cache.store.revisions.list('pl', 'posts', 1)).toEqual([]);
  });

  it('is unknown (undefined) before it is stored, and apart per language', () => {
    expect(cache.store.revisions.get('pl', 11)).toBeUndefined();
    cache.store.revisions.upsertMany('es', 'posts', 1, [{ id: 11 }]);
    expect(cache.store.revisions.get('pl', 11)).toBeUndefined();
    expect(cache.store.revisions.get('es', 11)).toBeInstanceOf(Object);
    expect(cache.store.revisions.count('pl')).toBe(0);
    expect(cache.store.revisions.count('es')).toBe(1);
  });

  it('writes nothing when one revision of the page has no valid id', () => {
    expect(() =>
      cache.store.revisions.upsertMany('pl', 'posts', 1, [{ id: 11 }, { id: 0 }]),
    ).toThrow();
    expect(cache.store.revisions.count('pl')).toBe(0);
  });
});

describe('revisions: outcomes of a re-pull', () => {
  it('counts created, updated and unchanged, in total and per revision', () => {
    const first = cache.store.revisions.upsertMany('pl', 'posts', 1, [{ id: 11 }, { id: 12 }]);
    expect(first).toEqual({
      outcomes: [
        { id: 11, outcome: 'created', undeleted: false },
        { id: 12, outcome: 'created', undeleted: false },
      ],
      created: 2,
      updated: 0,
      unchanged: 0,
    });
    const second = cache.store.revisions.upsertMany('pl', 'posts', 1, [
      { id: 11 },
      { id: 12, title: 'changed' },
      { id: 13 },
    ]);
    expect(second).toEqual({
      outcomes: [
        { id: 11, outcome: 'unchanged', undeleted: false },
        { id: 12, outcome: 'updated', undeleted: false },
        { id: 13, outcome: 'created', undeleted: false },
      ],
      created: 1,
      updated: 1,
      unchanged: 1,
    });
  });

  it('does not rewrite an unchanged revision (its fetch time stays)', () => {
    cache.store.revisions.upsertMany('pl', 'posts', 1, [{ id: 11 }]);
    cache.clock = new Date('2024-06-01T10:00:00.000Z');
    cache.store.revisions.upsertMany('pl', 'posts', 1, [{ id: 11 }]);
    expect(cache.store.revisions.get('pl', 11)?.fetchedAt).toBe('2024-05-01T10:00:00.000Z');
    cache.store.revisions.upsertMany('pl', 'posts', 1, [{ id: 11, title: 'new' }]);
    expect(cache.store.revisions.get('pl', 11)?.fetchedAt).toBe('2024-06-01T10:00:00.000Z');
  });

  it('moves a revision that comes back under another parent or parent type', () => {
    cache.store.revisions.upsertMany('pl', 'posts', 1, [{ id: 11 }]);
    const moved = cache.store.revisions.upsertMany('pl', 'posts', 2, [{ id: 11 }]);
    expect(moved.outcomes).toEqual([{ id: 11, outcome: 'updated', undeleted: false }]);
    expect(cache.store.revisions.list('pl', 'posts', 1)).toEqual([]);
    expect(cache.store.revisions.get('pl', 11)).toMatchObject({ parentType: 'posts', parentId: 2 });

    // Same parent id, other parent type: a page 1 is not the post 1.
    cache.store.revisions.upsertMany('pl', 'posts', 1, [{ id: 11 }]);
    const retyped = cache.store.revisions.upsertMany('pl', 'pages', 1, [{ id: 11 }]);
    expect(retyped.outcomes).toEqual([{ id: 11, outcome: 'updated', undeleted: false }]);
    expect(cache.store.revisions.get('pl', 11)).toMatchObject({ parentType: 'pages', parentId: 1 });
    expect(cache.store.revisions.list('pl', 'posts', 1)).toEqual([]);
    expect(cache.store.revisions.list('pl', 'pages', 1).map((revision) => revision.id)).toEqual([
      11,
    ]);
  });
});

describe('revisions: listing', () => {
  it('lists newest first, ties by id descending, only the parent asked for', () => {
    cache.store.revisions.upsertMany('pl', 'posts', 1, [
      { id: 11, modified_gmt: '2024-01-01T00:00:00' },
      { id: 12, modified_gmt: '2024-03-01T00:00:00' },
      { id: 13, modified_gmt: '2024-01-01T00:00:00' },
    ]);
    cache.store.revisions.upsertMany('pl', 'posts', 2, [
      { id: 21, modified_gmt: '2024-09-01T00:00:00' },
    ]);
    cache.store.revisions.upsertMany('es', 'posts', 1, [
      { id: 31, modified_gmt: '2024-09-01T00:00:00' },
    ]);
    expect(cache.store.revisions.list('pl', 'posts', 1).map((revision) => revision.id)).toEqual([
      12, 13, 11,
    ]);
  });

  it('keeps revisions and autosaves apart', () => {
    cache.store.revisions.upsertMany('pl', 'posts', 1, [{ id: 11 }]);
    cache.store.autosaves.upsertMany('pl', 'posts', 1, [{ id: 41 }, { id: 42 }]);
    expect(cache.store.revisions.count('pl')).toBe(1);
    expect(cache.store.autosaves.count('pl')).toBe(2);
    expect(cache.store.autosaves.get('pl', 11)).toBeUndefined();
    expect(cache.store.autosaves.list('pl', 'posts', 1).map((autosave) => autosave.id)).toEqual([
      42, 41,
    ]);
  });
});

describe('revisions: errors say what was being stored', () => {
  it('names the table a read-only cache refused to store into', () => {
    const readonly = openStore(cache.temp.file, { readonly: true });
    try {
      expect(() => readonly.revisions.upsertMany('pl', 'posts', 1, [{ id: 11 }])).toThrow(
        /while storing revisions/,
      );
      expect(() => readonly.autosaves.upsertMany('pl', 'posts', 1, [{ id: 41 }])).toThrow(
        /while storing autosaves/,
      );
    } finally {
      readonly.close();
    }
  });
});
