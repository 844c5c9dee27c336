import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import {
  removedItemPages,
  storedLinkResolver,
  storeSitePaths,
} from '../../../src/transform/stored-site-paths.js';
import { runOnAnotherConnection } from '../../helpers/store/another-connection.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

const home = 'http://host/pl/';
const cache = useTempStore();

function item(id: number, link: string | null, extra: Record<string, unknown> = {}) {
  return {
    id,
    status: 'publish',
    slug: `s${id}`,
    link,
    modified_gmt: '2024-03-01T10:00:00',
    title: { rendered: `Item ${id}` },
    content: { rendered: `<p>${id}</p>`, protected: false },
    ...extra,
  };
}

/** Every stored row of `pl` as `type:id → [site path, fallback]`. */
function stored(): Record<string, [string, boolean]> {
  return Object.fromEntries(
    [...cache.store.sitePaths.rows('pl')].map((row) => [
      `${row.type}:${row.id}`,
      [row.sitePath, row.fallback],
    ]),
  );
}

/** The digest earlier builds recorded, spelled out: sorted `[key, path]` pairs as JSON, NUL. */
function expectedDigest(paths: Record<string, string>): string {
  const pairs = Object.entries(paths).sort(([a], [b]) => (a < b ? -1 : 1));
  return createHash('sha256')
    .update(`${JSON.stringify(pairs)}\u0000`)
    .digest('hex')
    .slice(0, 32);
}

describe('storeSitePaths', () => {
  it('gives each public item its URL path unless taken (pages first, case-folded), reserved or unusable, and digests them as before', () => {
    cache.store.items.upsertPage('pl', 'pages', [item(5, 'http://host/pl/about/')]);
    cache.store.items.upsertPage('pl', 'posts', [
      item(1, 'http://host/pl/ABOUT/'),
      item(2, 'http://host/pl/media/x/'),
      item(3, 'http://host/pl/?p=3'),
      item(4, 'http://host/pl/POSTS/9/'),
      item(9, 'http://host/pl/2024/03/nine/'),
      item(10, 'http://host/pl/draft/', { status: 'draft' }),
    ]);
    const result = storeSitePaths(cache.store, 'pl', home);
    expect(result.reused).toBe(false);
    expect(stored()).toEqual({
      'pages:5': ['/about/', false],
      // Taken by the page: a case-insensitive file system would make them one folder.
      'posts:1': ['/posts/1/', true],
      'posts:2': ['/posts/2/', true],
      'posts:3': ['/posts/3/', true],
      // A fallback claims nothing: post 4 keeps its URL path although post 9's fallback
      // would fold to it (post 9 does not fall back here anyway).
      'posts:4': ['/POSTS/9/', false],
      'posts:9': ['/2024/03/nine/', false],
    });
    expect(result.digest).toBe(
      expectedDigest({
        'pages:5': '/about/',
        'posts:1': '/posts/1/',
        'posts:2': '/posts/2/',
        'posts:3': '/posts/3/',
        'posts:4': '/POSTS/9/',
        'posts:9': '/2024/03/nine/',
      }),
    );
  });

  it('reuses the stored rows while the public items and their links stay, and assigns again when one changes', () => {
    cache.store.items.upsertPage('pl', 'posts', [
      item(1, 'http://host/pl/a/'),
      item(2, 'http://host/pl/b/'),
    ]);
    const first = storeSitePaths(cache.store, 'pl', home);
    expect(first.reused).toBe(false);

    // Only the text changed: the same items at the same links.
    cache.store.items.upsertPage('pl', 'posts', [
      item(2, 'http://host/pl/b/', { content: { rendered: '<p>edited</p>', protected: false } }),
    ]);
    expect(storeSitePaths(cache.store, 'pl', home)).toEqual({ digest: first.digest, reused: true });

    // A link changed: post 1 now wants post 2's path and, earlier, wins it.
    cache.store.items.upsertPage('pl', 'posts', [item(1, 'http://host/pl/b/')]);
    const moved = storeSitePaths(cache.store, 'pl', home);
    expect(moved.reused).toBe(false);
    expect(stored()).toEqual({ 'posts:1': ['/b/', false], 'posts:2': ['/posts/2/', true] });
    expect(moved.digest).toBe(expectedDigest({ 'posts:1': '/b/', 'posts:2': '/posts/2/' }));

    // Unpublished: its row goes.
    cache.store.items.upsertPage('pl', 'posts', [
      item(1, 'http://host/pl/b/', { status: 'draft' }),
    ]);
    expect(storeSitePaths(cache.store, 'pl', home).reused).toBe(false);
    expect(stored()).toEqual({ 'posts:2': ['/b/', false] });

    // Another home: every path is read against it again.
    expect(storeSitePaths(cache.store, 'pl', 'http://host/').reused).toBe(false);
    expect(stored()).toEqual({ 'posts:2': ['/pl/b/', false] });
  });
});

describe('storeSitePaths after a change, from the items changed since the rows were current', () => {
  /** SQL on the cache file through a connection of its own, as another process would write. */
  const sql = (statement: string, ...params: unknown[]): void =>
    runOnAnotherConnection(cache.temp.file, statement, ...params);

  function assigned(): void {
    cache.store.items.upsertPage('pl', 'pages', [item(5, 'http://host/pl/about/')]);
    cache.store.items.upsertPage('pl', 'posts', [
      item(1, 'http://host/pl/a/'),
      item(2, 'http://host/pl/b/'),
      item(3, 'http://host/pl/c/'),
    ]);
    expect(storeSitePaths(cache.store, 'pl', home).reused).toBe(false);
  }

  const before = {
    'pages:5': ['/about/', false],
    'posts:1': ['/a/', false],
    'posts:2': ['/b/', false],
    'posts:3': ['/c/', false],
  };

  it.each([
    [
      'a tombstone',
      () => cache.store.items.tombstone('pl', 'posts', [2]),
      { 'pages:5': before['pages:5'], 'posts:1': before['posts:1'], 'posts:3': before['posts:3'] },
    ],
    [
      'a password set',
      () =>
        cache.store.items.upsertPage('pl', 'posts', [
          item(3, 'http://host/pl/c/', { password: 'x' }),
        ]),
      { 'pages:5': before['pages:5'], 'posts:1': before['posts:1'], 'posts:2': before['posts:2'] },
    ],
    [
      'a content protected',
      () =>
        cache.store.items.upsertPage('pl', 'posts', [
          item(1, 'http://host/pl/a/', { content: { rendered: '<p>1</p>', protected: true } }),
        ]),
      { 'pages:5': before['pages:5'], 'posts:2': before['posts:2'], 'posts:3': before['posts:3'] },
    ],
    [
      'a row deleted by another connection',
      () => sql("DELETE FROM items WHERE lang = 'pl' AND type = 'posts' AND id = 1"),
      { 'pages:5': before['pages:5'], 'posts:2': before['posts:2'], 'posts:3': before['posts:3'] },
    ],
    [
      'a link changed by another connection',
      () => sql("UPDATE items SET link = 'http://host/pl/about/' WHERE type = 'posts' AND id = 3"),
      { ...before, 'posts:3': ['/posts/3/', true] },
    ],
    [
      'a new public post',
      () => cache.store.items.upsertPage('pl', 'posts', [item(4, 'http://host/pl/d/')]),
      { ...before, 'posts:4': ['/d/', false] },
    ],
    [
      'a draft published',
      () => {
        sql(
          "INSERT INTO items (lang, type, id, status, link, json, content_hash, context, fetched_at) VALUES ('pl', 'posts', 6, 'draft', 'http://host/pl/f/', '{}', 'h', 'view', '2024-01-01')",
        );
        expect(storeSitePaths(cache.store, 'pl', home).reused).toBe(true);
        sql("UPDATE items SET status = 'publish' WHERE type = 'posts' AND id = 6");
      },
      { ...before, 'posts:6': ['/f/', false] },
    ],
  ] as const)('assigns every path again after %s', (_, change, after) => {
    assigned();
    change();
    expect(storeSitePaths(cache.store, 'pl', home).reused).toBe(false);
    expect(stored()).toEqual(after);
  });

  it('reuses the rows after changes that leave them current, and still sees a later change', () => {
    assigned();
    // The text, a new draft, and a link changed and changed back: none moves a row.
    cache.store.items.upsertPage('pl', 'posts', [
      item(2, 'http://host/pl/b/', { content: { rendered: '<p>edited</p>', protected: false } }),
      item(8, 'http://host/pl/h/', { status: 'draft' }),
    ]);
    sql("UPDATE items SET link = 'http://host/pl/z/' WHERE type = 'posts' AND id = 1");
    sql("UPDATE items SET link = 'http://host/pl/a/' WHERE type = 'posts' AND id = 1");
    expect(storeSitePaths(cache.store, 'pl', home).reused).toBe(true);
    expect(storeSitePaths(cache.store, 'pl', home).reused).toBe(true);
    // Only `es` changes: `pl`'s rows stay current.
    cache.store.items.upsertPage('es', 'posts', [item(1, 'http://host/es/a/')]);
    expect(storeSitePaths(cache.store, 'pl', home).reused).toBe(true);
    cache.store.items.upsertPage('pl', 'posts', [item(1, 'http://host/pl/b/')]);
    expect(storeSitePaths(cache.store, 'pl', home).reused).toBe(false);
    expect(stored()).toEqual({
      ...before,
      'posts:1': ['/b/', false],
      'posts:2': ['/posts/2/', true],
    });
  });

  it('checks every item once on a cache whose changes were not logged (made before the log)', () => {
    assigned();
    // As a cache of an older version holds them: rows and their state, nothing logged, and
    // an item changed since.
    sql('DELETE FROM site_paths_logging');
    sql("UPDATE items SET link = 'http://host/pl/d/' WHERE type = 'posts' AND id = 3");
    expect(storeSitePaths(cache.store, 'pl', home).reused).toBe(false);
    expect(stored()).toEqual({ ...before, 'posts:3': ['/d/', false] });

    sql('DELETE FROM site_paths_logging');
    expect(storeSitePaths(cache.store, 'pl', home).reused).toBe(true);
    // Checked whole once, then logged: a later change is seen.
    cache.store.items.tombstone('pl', 'pages', [5]);
    expect(storeSitePaths(cache.store, 'pl', home).reused).toBe(false);
    expect(stored()).toEqual({
      'posts:1': before['posts:1'],
      'posts:2': before['posts:2'],
      'posts:3': ['/d/', false],
    });
  });
});

describe('storedLinkResolver', () => {
  it('resolves links as the map of links then short links did: pages first, any spelling of the link, short links only as made', () => {
    cache.store.items.upsertPage('pl', 'pages', [
      item(7, 'http://host/pl/shared/'),
      item(8, 'http://host/pl/page-8/'),
    ]);
    cache.store.items.upsertPage('pl', 'posts', [
      item(3, 'http://host/pl/shared/'),
      item(7, 'http://host/pl/post-7/'),
      item(11, 'http://host/pl/eleven/'),
    ]);
    storeSitePaths(cache.store, 'pl', home);
    const resolve = storedLinkResolver(cache.store, 'pl', home);
    // Page 7 and post 3 share a link: the page has it (and its path).
    expect(resolve('http://host/pl/shared/')).toBe('/shared/');
    expect(resolve('https://HOST/pl/eleven')).toBe('/eleven/');
    // `?p=7`: page 7 before post 7; `?page_id=` names pages only.
    expect(resolve('http://host/pl/?p=7')).toBe('/shared/');
    expect(resolve('http://host/pl/?p=11')).toBe('/eleven/');
    expect(resolve('http://host/pl/?page_id=8')).toBe('/page-8/');
    expect(resolve('http://host/pl/?page_id=11')).toBeUndefined();
    expect(resolve('http://host/pl/?p=011')).toBeUndefined();
    expect(resolve('http://host/pl/?p=99')).toBeUndefined();
    expect(resolve('http://other/pl/eleven/')).toBeUndefined();
    expect(resolve('mailto:x@host')).toBeUndefined();
  });
});

describe('removedItemPages', () => {
  it('names the page files of the last build that no stored path makes any more', () => {
    cache.store.items.upsertPage('pl', 'posts', [
      item(1, 'http://host/pl/a/'),
      item(2, 'http://host/pl/zażółć/'),
    ]);
    storeSitePaths(cache.store, 'pl', home);
    const removed = removedItemPages(cache.store, 'pl', [
      'a/index.html',
      'zażółć/index.html',
      'gone/index.html',
      'gone/photo.png',
    ]);
    expect([...removed]).toEqual(['gone/index.html']);
  });
});
