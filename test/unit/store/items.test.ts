import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import type { StoredItem } from '../../../src/store/index.js';
import { contentHash } from '../../../src/store/index.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';
import { page, post } from '../../helpers/store/item-fixtures.js';

const fixture = useClockedStore();

describe('items.upsertPage', () => {
  it('reports created, then unchanged, then updated, per item and in total', () => {
    const first = fixture.store.items.upsertPage('pl', 'posts', [post(1), post(2)]);
    expect(first.outcomes).toEqual([
      { id: 1, outcome: 'created', undeleted: false },
      { id: 2, outcome: 'created', undeleted: false },
    ]);
    expect([first.created, first.updated, first.unchanged]).toEqual([2, 0, 0]);

    const changed = post(2, { title: { rendered: 'New title' } });
    const second = fixture.store.items.upsertPage('pl', 'posts', [post(1), changed, post(3)]);
    expect(second.outcomes.map((entry) => entry.outcome)).toEqual([
      'unchanged',
      'updated',
      'created',
    ]);
    expect([second.created, second.updated, second.unchanged]).toEqual([1, 1, 1]);
    expect(fixture.store.items.get('pl', 'posts', 2)?.title).toBe('New title');
  });

  it('treats the same item with its keys in another order as unchanged', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    const reordered = Object.fromEntries(Object.entries(post(1)).reverse()) as ReturnType<
      typeof post
    >;
    expect(fixture.store.items.upsertPage('pl', 'posts', [reordered]).outcomes[0]?.outcome).toBe(
      'unchanged',
    );
  });

  it('counts a change of context alone as updated', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    const result = fixture.store.items.upsertPage('pl', 'posts', [post(1)], { context: 'edit' });
    expect(result.outcomes[0]?.outcome).toBe('updated');
    expect(fixture.store.items.get('pl', 'posts', 1)?.context).toBe('edit');
  });

  it('does not rewrite an unchanged row (fetched_at stays)', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    fixture.clock = new Date('2024-06-01T00:00:00.000Z');
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    expect(fixture.store.items.get('pl', 'posts', 1)?.fetchedAt).toBe('2024-05-01T10:00:00.000Z');
  });

  it('keeps languages and types apart', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    expect(fixture.store.items.upsertPage('es', 'posts', [post(1)]).created).toBe(1);
    expect(fixture.store.items.upsertPage('pl', 'pages', [page(1)]).created).toBe(1);
    expect(fixture.store.items.langs()).toEqual(['es', 'pl']);
  });

  it('stores the JSON verbatim and derives the columns from it', () => {
    const item = page(12, {
      slug: 'o-nas',
      parent: 3,
      menu_order: 4,
      title: { rendered: 'Caf&eacute; &#8211; <em>nowo&#347;ci</em> &amp; more' },
      featured_media: 44,
      author: 9,
    });
    fixture.store.items.upsertPage('pl', 'pages', [item], { context: 'edit' });
    const stored = fixture.store.items.get('pl', 'pages', 12);
    expect(stored).toMatchObject({
      lang: 'pl',
      type: 'pages',
      id: 12,
      status: 'publish',
      slug: 'o-nas',
      parent: 3,
      menuOrder: 4,
      sticky: null,
      author: 9,
      featuredMedia: 44,
      dateGmt: '2024-01-02T02:04:05',
      modifiedGmt: item['modified_gmt'],
      link: 'http://127.0.0.1/pl/page-12/',
      title: 'Café – nowości & more',
      context: 'edit',
      contentHash: contentHash(item),
      fetchedAt: '2024-05-01T10:00:00.000Z',
      deletedAt: null,
    });
    expect(stored?.json).toBe(JSON.stringify(item));
    expect(JSON.parse(stored?.json ?? 'null')).toEqual(item);
  });

  it('reads a media item parent from `post` and sticky for posts', () => {
    fixture.store.items.upsertPage('pl', 'media', [
      { id: 5, post: 9, status: 'inherit', title: { rendered: 'x' } },
    ]);
    fixture.store.items.upsertPage('pl', 'posts', [post(1, { sticky: true })]);
    expect(fixture.store.items.get('pl', 'media', 5)?.parent).toBe(9);
    expect(fixture.store.items.get('pl', 'posts', 1)?.sticky).toBe(true);
  });

  it('keeps hostile slugs and titles as plain data', () => {
    const hostile = [
      post(1, { slug: '../../etc/passwd', title: { rendered: '<script>alert(1)</script>..' } }),
      post(2, { slug: 'ż'.repeat(5000), title: { rendered: '🦄 \u202e\u0000 end' } }),
      post(3, { slug: "'; DROP TABLE items; --", title: 'not an object' }),
      post(4, { slug: 42, title: null, modified_gmt: { nested: true } }),
    ];
    expect(fixture.store.items.upsertPage('pl', 'posts', hostile).created).toBe(4);
    expect(fixture.store.items.get('pl', 'posts', 1)?.slug).toBe('../../etc/passwd');
    expect(fixture.store.items.get('pl', 'posts', 1)?.title).toBe('alert(1)..');
    expect(fixture.store.items.get('pl', 'posts', 2)?.slug).toHaveLength(5000);
    expect(fixture.store.items.get('pl', 'posts', 2)?.title).toBe('🦄 \u202e\u0000 end');
    expect(
      fixture.store.items
        .findBySlug('pl', 'posts', "'; DROP TABLE items; --")
        .map((item) => item.id),
    ).toEqual([3]);
    expect(fixture.store.items.get('pl', 'posts', 3)?.title).toBe('not an object');
    // Wrong types become NULL columns; the JSON keeps what was sent.
    expect(fixture.store.items.get('pl', 'posts', 4)).toMatchObject({
      slug: null,
      title: null,
      modifiedGmt: null,
    });
    expect(JSON.parse(fixture.store.items.get('pl', 'posts', 4)?.json ?? '{}').slug).toBe(42);
    expect(fixture.store.items.count('pl', 'posts')).toBe(4);
  });

  it('validates the whole page before writing anything', () => {
    const bad = [post(1), { title: 'no id' } as unknown as ReturnType<typeof post>];
    expect(() => fixture.store.items.upsertPage('pl', 'posts', bad)).toThrow(
      /index 1 has no positive integer id/,
    );
    expect(fixture.store.items.count('pl', 'posts')).toBe(0);
  });
});

describe('items.tombstone', () => {
  it('marks items deleted, hides them from live queries, and undeletes them when they return', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1), post(2), post(3)]);
    fixture.clock = new Date('2024-05-02T00:00:00.000Z');
    expect(fixture.store.items.tombstone('pl', 'posts', [2, 3, 99])).toBe(2);
    expect(fixture.store.items.tombstone('pl', 'posts', [2])).toBe(0);

    expect(fixture.store.items.get('pl', 'posts', 2)?.deletedAt).toBe('2024-05-02T00:00:00.000Z');
    expect(fixture.store.items.count('pl', 'posts')).toBe(1);
    expect(fixture.store.items.count('pl', 'posts', { includeDeleted: true })).toBe(3);
    expect(fixture.store.items.listIds('pl', 'posts').map((entry) => entry.id)).toEqual([1]);
    expect(fixture.store.items.listIds('pl', 'posts', { includeDeleted: true })).toEqual([
      { id: 1, status: 'publish', modifiedGmt: post(1)['modified_gmt'], deleted: false },
      { id: 2, status: 'publish', modifiedGmt: post(2)['modified_gmt'], deleted: true },
      { id: 3, status: 'publish', modifiedGmt: post(3)['modified_gmt'], deleted: true },
    ]);

    // Same content coming back: created (undeleted), not unchanged.
    const back = fixture.store.items.upsertPage('pl', 'posts', [post(2)]);
    expect(back.outcomes).toEqual([{ id: 2, outcome: 'created', undeleted: true }]);
    expect(fixture.store.items.get('pl', 'posts', 2)?.deletedAt).toBeNull();
    expect(fixture.store.items.count('pl', 'posts')).toBe(2);
  });
});

describe('items queries', () => {
  beforeEach(() => {
    fixture.store.items.upsertPage('pl', 'posts', [
      post(1),
      post(2, { status: 'draft' }),
      post(3, { status: 'private' }),
      post(4, { modified_gmt: '2030-01-01T00:00:00' }),
    ]);
  });

  it('counts and lists by status set', () => {
    expect(fixture.store.items.count('pl', 'posts', { statuses: ['publish'] })).toBe(2);
    expect(fixture.store.items.count('pl', 'posts', { statuses: ['draft', 'private'] })).toBe(2);
    expect(fixture.store.items.count('pl', 'posts', { statuses: [] })).toBe(0);
    expect(
      fixture.store.items.listIds('pl', 'posts', { statuses: ['draft'] }).map((entry) => entry.id),
    ).toEqual([2]);
    expect(fixture.store.items.count('pl', 'pages')).toBe(0);
  });

  it('gives the latest modified_gmt of live items', () => {
    expect(fixture.store.items.maxModifiedGmt('pl', 'posts')).toBe('2030-01-01T00:00:00');
    fixture.store.items.tombstone('pl', 'posts', [4]);
    expect(fixture.store.items.maxModifiedGmt('pl', 'posts')).toBe(post(3)['modified_gmt']);
    expect(fixture.store.items.maxModifiedGmt('pl', 'media')).toBeUndefined();
  });

  it('iterates with filters', () => {
    const ids = (items: Iterable<StoredItem>) => [...items].map((item) => item.id);
    expect(ids(fixture.store.items.iterate('pl', 'posts'))).toEqual([1, 2, 3, 4]);
    expect(ids(fixture.store.items.iterate('pl', 'posts', { statuses: ['publish'] }))).toEqual([
      1, 4,
    ]);
    expect(
      ids(fixture.store.items.iterate('pl', 'posts', { modifiedAfterGmt: '2029-01-01T00:00:00' })),
    ).toEqual([4]);
    fixture.store.items.tombstone('pl', 'posts', [1]);
    expect(ids(fixture.store.items.iterate('pl', 'posts'))).toEqual([2, 3, 4]);
    expect(
      ids(fixture.store.items.iterate('pl', 'posts', { includeDeleted: true, chunkSize: 1 })),
    ).toEqual([1, 2, 3, 4]);
  });
});

describe('items.iterate', () => {
  it('reads chunk by chunk, so rows written during iteration are seen and writes do not fail', () => {
    const total = 1050;
    for (let start = 1; start <= total; start += 100) {
      const ids = Array.from(
        { length: Math.min(100, total - start + 1) },
        (_, offset) => start + offset,
      );
      fixture.store.items.upsertPage(
        'pl',
        'posts',
        ids.map((id) => post(id)),
      );
    }
    const seen: number[] = [];
    for (const item of fixture.store.items.iterate('pl', 'posts', { chunkSize: 100 })) {
      seen.push(item.id);
      // A write while iterating: would throw "connection is busy" with an open cursor.
      if (item.id === 1) fixture.store.items.upsertPage('pl', 'posts', [post(5000)]);
    }
    // Had everything been loaded up front, 5000 (written after the first row) would be missing.
    expect(seen).toHaveLength(total + 1);
    expect(seen.at(-1)).toBe(5000);
    expect(seen).toEqual([...seen].sort((a, b) => a - b));
  });

  it('rejects a nonsensical chunk size', () => {
    expect(() => [...fixture.store.items.iterate('pl', 'posts', { chunkSize: 0 })]).toThrow(
      RangeError,
    );
  });
});

describe('fixture.store.transaction', () => {
  it('rolls back every write of the transaction when it throws', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    expect(() =>
      fixture.store.transaction(() => {
        fixture.store.items.upsertPage('pl', 'posts', [post(2), post(3)]);
        fixture.store.items.tombstone('pl', 'posts', [1]);
        fixture.store.syncState.set('pl', 'posts', { cursor: { page: 2 } });
        throw new Error('crash after half the work');
      }),
    ).toThrow('crash after half the work');
    expect(fixture.store.items.count('pl', 'posts', { includeDeleted: true })).toBe(1);
    expect(fixture.store.items.get('pl', 'posts', 1)?.deletedAt).toBeNull();
    expect(fixture.store.syncState.get('pl', 'posts')).toBeUndefined();
  });

  it('commits all the writes together when it returns', () => {
    const result = fixture.store.transaction(() => {
      const upsert = fixture.store.items.upsertPage('pl', 'posts', [post(2)]);
      fixture.store.syncState.set('pl', 'posts', {
        watermarkGmt: '2024-01-01T00:00:00',
        cursor: { page: 3 },
      });
      return upsert.created;
    });
    expect(result).toBe(1);
    expect(fixture.store.syncState.get('pl', 'posts')?.cursor).toEqual({ page: 3 });
  });

  it('refuses an async function and rolls back what it wrote before its first await', async () => {
    let pending: Promise<void> | undefined;
    expect(() =>
      fixture.store.transaction(() => {
        pending = (async () => {
          fixture.store.items.upsertPage('pl', 'posts', [post(9)]);
          await Promise.resolve();
        })();
        return pending;
      }),
    ).toThrow(/synchronous/);
    await pending;
    expect(fixture.store.items.get('pl', 'posts', 9)).toBeUndefined();
  });
});

describe('the cms_items view', () => {
  it('has the documented columns and mirrors items, tombstones included', () => {
    fixture.store.items.upsertPage('pl', 'pages', [
      page(3, { parent: 1, title: { rendered: 'A &amp; B' } }),
    ]);
    fixture.store.items.upsertPage('pl', 'posts', [post(4)]);
    fixture.store.items.tombstone('pl', 'posts', [4]);
    const db = new Database(fixture.temp.file);
    try {
      const columns = db
        .prepare('SELECT * FROM cms_items LIMIT 0')
        .columns()
        .map((column) => column.name);
      expect(columns).toEqual([
        'lang',
        'type',
        'id',
        'status',
        'slug',
        'parent',
        'modified_gmt',
        'link',
        'title',
        'json',
        'deleted_at',
      ]);
      const rows = db.prepare('SELECT * FROM cms_items ORDER BY type, id').all() as Record<
        string,
        unknown
      >[];
      expect(rows).toHaveLength(2);
      expect(rows[0]).toMatchObject({
        lang: 'pl',
        type: 'pages',
        id: 3,
        parent: 1,
        title: 'A & B',
        deleted_at: null,
      });
      expect(rows[1]?.['deleted_at']).toBe('2024-05-01T10:00:00.000Z');
      expect(JSON.parse(String(rows[1]?.['json']))).toEqual(post(4));
      // Read-only: a view without triggers cannot be written to, even by a writable connection.
      expect(() => db.prepare("UPDATE cms_items SET slug = 'x'").run()).toThrow(
        /cannot modify cms_items/,
      );
    } finally {
      db.close();
    }
  });
});
