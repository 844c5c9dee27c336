/**
 * The cache queries an incremental build relies on: the public rule in SQL agrees with
 * `isPublic` item by item (and SQLite answers it from the `items_public_entries` index), change times
 * say when anything of a language was written, and a build record rewrites only the rows
 * that changed and remembers an unfinished build.
 */
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import type { CmsItem } from '../../../src/store/index.js';
import { publicItemSql } from '../../../src/store/item-rows.js';
import { isPublic } from '../../../src/transform/publication.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

let clock: Date;

// Set before the store opens (hooks run in the order they are registered).
beforeEach(() => {
  clock = new Date('2026-01-01T00:00:00.000Z');
});
const cache = useTempStore({ prefix: 'cms-build-queries-', now: () => clock });

function tick(ms = 1000): void {
  clock = new Date(clock.getTime() + ms);
}

function item(id: number, fields: Record<string, unknown>): CmsItem {
  return {
    id,
    status: 'publish',
    link: `http://h/pl/p${id}/`,
    title: { rendered: `P${id}` },
    content: { rendered: '<p>x</p>', protected: false },
    excerpt: { rendered: '', protected: false },
    ...fields,
  };
}

describe('public items in SQL', () => {
  const cases: Record<string, unknown>[] = [
    {},
    { status: 'draft' },
    { status: 'private' },
    { status: 'future' },
    { content: { rendered: 'x', protected: true } },
    { content: { rendered: 'x', protected: 'true' } },
    { content: { rendered: 'x', protected: 1 } },
    { content: 'not an object' },
    { content: ['protected', true] },
    { excerpt: { rendered: 'x', protected: true } },
    { excerpt: null },
    { password: 'secret' },
    { password: '' },
    { password: 5 },
    { password: null },
    { content: { rendered: 'x', protected: false }, password: 'p' },
    { title: { rendered: '"$.content.protected": true' } },
  ];

  it('agrees with isPublic for every shape of item', () => {
    const items = cases.map((fields, index) => item(index + 1, fields));
    cache.store.items.upsertPage('pl', 'posts', items);
    cache.store.items.upsertPage('pl', 'pages', [item(100, {}), item(101, { password: 'x' })]);
    cache.store.items.tombstone('pl', 'posts', [1]);
    const expected = [...cache.store.items.iterate('pl', 'posts', { includeDeleted: true })]
      .filter(isPublic)
      .map((stored) => stored.id);
    expect(expected.length).toBeGreaterThan(3);
    expect(expected.length).toBeLessThan(cases.length - 5);
    expect(cache.store.items.publicSummaries('pl', 'posts').map((summary) => summary.id)).toEqual(
      expected,
    );
    expect(cache.store.transformed.listPublished('pl', 'posts').map((row) => row.id)).toEqual(
      expected,
    );
    expect(cache.store.items.publicSummaries('pl', 'pages').map((summary) => summary.id)).toEqual([
      100,
    ]);
  });

  it('is answered from the items_public_entries index, without parsing every item', () => {
    cache.store.items.upsertPage('pl', 'posts', [item(1, {})]);
    cache.store.close();
    const db = new Database(cache.temp.file, { readonly: true });
    try {
      // The columns the build's listing of public entries reads of an item.
      const plan = db
        .prepare(
          `EXPLAIN QUERY PLAN SELECT i.id, i.title, i.status, i.sticky, i.parent, i.menu_order,
             i.featured_media, i.date_gmt, i.modified_gmt, i.link, i.content_hash FROM items i
           WHERE i.lang = ? AND i.type = ? AND ${publicItemSql('i')} ORDER BY i.id`,
        )
        .all('pl', 'posts') as { detail: string }[];
      // SQLite calls no index with a virtual column "covering", but reads every column this
      // needs from the index and seeks the item's row only for one it lacks (none here).
      expect(plan.map((row) => row.detail).join('\n')).toContain(
        'USING INDEX items_public_entries (lang=? AND type=? AND is_public=?)',
      );
    } finally {
      db.close();
    }
    cache.reopen();
  });
});

describe('change times', () => {
  it('moves with every stored change, tombstone and transform, and not otherwise', () => {
    expect(cache.store.items.lastChangeAt('pl')).toBeUndefined();
    cache.store.items.upsertPage('pl', 'posts', [item(1, {}), item(2, {})]);
    const stored = clock.toISOString();
    expect(cache.store.items.lastChangeAt('pl')).toBe(stored);
    tick();
    cache.store.items.upsertPage('pl', 'posts', [item(1, {})]);
    expect(cache.store.items.lastChangeAt('pl')).toBe(stored);
    tick();
    cache.store.items.tombstone('pl', 'posts', [2]);
    expect(cache.store.items.lastChangeAt('pl')).toBe(clock.toISOString());
    expect(cache.store.items.lastChangeAt('es')).toBeUndefined();

    expect(cache.store.transformed.lastTransformedAt('pl')).toBeUndefined();
    tick();
    cache.store.transformed.put({
      lang: 'pl',
      type: 'posts',
      id: 1,
      transformVersion: 't',
      sourceHash: 'h',
      html: '<p>x</p>',
      meta: { sitePath: '/p1/' },
    });
    expect(cache.store.transformed.lastTransformedAt('pl')).toBe(clock.toISOString());
    expect(cache.store.transformed.getHtml('pl', 'posts', 1)).toBe('<p>x</p>');
    expect(cache.store.transformed.publicSitePaths('pl')).toEqual(new Map([['posts:1', '/p1/']]));
  });
});

describe('build records', () => {
  const manifest = (files: Record<string, string>) => ({
    version: 1,
    buildVersion: '1',
    templatesHash: 't',
    modelDigest: 'm',
    files: Object.fromEntries(
      Object.entries(files).map(([file, hash]) => [file, { hash, input: `in-${hash}`, bytes: 1 }]),
    ),
  });
  const sources = {
    siteDigest: 's',
    sourcesAt: '2026-01-01T00:00:00.000Z',
    transformVersion: '2',
    pathsDigest: 'p',
  };

  for (const told of [false, true]) {
    it(`rewrites only the rows that changed and keeps the rest with their build time${told ? ' (told what was recorded)' : ''}`, () => {
      const before = { 'a/index.html': 'a1', 'b.xml': 'b1', 'd/e/f.txt': 'd1' };
      cache.store.buildState.record('pl', manifest(before), sources);
      const first = clock.toISOString();
      const recorded = cache.store.buildState.get('pl')?.manifest.files;
      expect(recorded).toEqual(manifest(before).files);
      tick();
      const after = { 'a/index.html': 'a2', 'c.txt': 'c1', 'd/e/f.txt': 'd1' };
      cache.store.buildState.record('pl', manifest(after), sources, told ? recorded : undefined);
      const saved = cache.store.buildState.get('pl');
      expect(saved?.manifest.files).toEqual(manifest(after).files);
      expect(saved).toMatchObject({ ...sources, writingSince: null, builtAt: clock.toISOString() });
      const rows = cache.store.buildOutputs.list('pl');
      expect(rows.map((row) => [row.path, row.builtAt]).sort()).toEqual([
        ['a/index.html', clock.toISOString()],
        ['c.txt', clock.toISOString()],
        ['d/e/f.txt', first],
      ]);
      expect(cache.store.buildState.topLevelNames('pl')).toEqual(['a', 'c.txt', 'd']);
    });
  }

  it('names every first path segment once, whatever sorts between a folder and its files', () => {
    const paths = ['a', 'a-b/x.html', 'a.html', 'a/y/z.html', 'a0', 'b/c/d', 'b/e', 'é/f', 'z.xml'];
    cache.store.buildState.record(
      'pl',
      manifest(Object.fromEntries(paths.map((p) => [p, p]))),
      sources,
    );
    cache.store.buildState.record('es', manifest({ 'q/r.html': 'q', 'zz.txt': 'z' }), sources);
    expect(cache.store.buildState.topLevelNames('pl')).toEqual(
      ['a', 'a-b', 'a.html', 'a0', 'b', 'é', 'z.xml'].sort(),
    );
    expect(cache.store.buildState.topLevelNames('es')).toEqual(['q', 'zz.txt']);
    expect(cache.store.buildState.topLevelNames('de')).toEqual([]);
  });

  it('remembers a build that started writing until one completes', () => {
    cache.store.buildState.markWriting('pl');
    expect(cache.store.buildState.getState('pl')).toBeUndefined();
    cache.store.buildState.record('pl', manifest({ 'x.html': 'x' }), sources);
    tick();
    cache.store.buildState.markWriting('pl');
    expect(cache.store.buildState.getState('pl')?.writingSince).toBe(clock.toISOString());
    cache.store.buildState.record('pl', manifest({ 'x.html': 'x' }), sources);
    expect(cache.store.buildState.getState('pl')?.writingSince).toBeNull();
  });
});
