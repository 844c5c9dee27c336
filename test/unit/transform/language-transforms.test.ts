import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import { sitePathsDigest } from '../../../src/transform/paths-digest.js';
import { transformLanguages } from '../../../src/transform/index.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

const home = 'http://host/pl/';
let cache: TempCache;
let store: Store;
let clock: Date;

function post(id: number, content: string) {
  return {
    id,
    status: 'publish',
    slug: `p${id}`,
    link: `http://host/pl/2024/03/p${id}/`,
    date_gmt: `2024-03-0${id}T10:00:00`,
    modified_gmt: '2024-03-09T10:00:00',
    title: { rendered: `Post ${id}` },
    content: { rendered: content, protected: false },
    excerpt: { rendered: `<p>Excerpt ${id}</p>`, protected: false },
  };
}

beforeEach(() => {
  cache = tempCache();
  clock = new Date('2024-05-01T10:00:00.000Z');
  store = openStore(cache.file, { now: () => clock });
});
afterEach(() => {
  store.close();
  cache.cleanup();
});

describe('transformLanguages', () => {
  it('gives back no public rows (the model reads them in order), and still stores the HTML facts rows of an older version lack', async () => {
    store.items.upsertPage('pl', 'posts', [post(1, '<p>one</p>'), post(2, '<p>two</p>')]);
    const first = await transformLanguages(store, [{ lang: 'pl', homeUrl: home }]);
    expect(first.get('pl')?.transformed).toBe(2);
    // Held from the transform to the model, the rows would cost ~0.8 KB a post at the peak.
    expect(Object.keys(first.get('pl') ?? { missing: true })).not.toContain('published');

    // A row transformed for its current content by a version that stored no facts.
    const stored = store.transformed.get('pl', 'posts', 2);
    if (stored === undefined) throw new Error('post 2 was not transformed');
    const facts = stored.meta as { sitePath: string; htmlDigest: string; media: string[] };
    expect(typeof facts.htmlDigest).toBe('string');
    store.transformed.put({ ...stored, meta: { sitePath: facts.sitePath } });
    expect((store.transformed.get('pl', 'posts', 2)?.meta as object | undefined) ?? {}).toEqual({
      sitePath: facts.sitePath,
    });

    const again = await transformLanguages(store, [{ lang: 'pl', homeUrl: home }]);
    expect(again.get('pl')?.transformed).toBe(0);
    expect(store.transformed.get('pl', 'posts', 2)?.meta).toEqual(facts);
  });

  it('stores the facts of exactly the rows lacking them: rows with facts are not written again', async () => {
    store.items.upsertPage(
      'pl',
      'posts',
      [1, 2, 3, 4].map((id) => post(id, `<p>${id}</p>`)),
    );
    await transformLanguages(store, [{ lang: 'pl', homeUrl: home }]);
    const before = new Map(
      [1, 2, 3, 4].map((id) => [id, store.transformed.get('pl', 'posts', id)]),
    );
    for (const id of [2, 4]) {
      const stored = before.get(id);
      if (stored === undefined) throw new Error(`post ${id} was not transformed`);
      store.transformed.put({
        ...stored,
        meta: { sitePath: (stored.meta as { sitePath: string }).sitePath },
      });
    }
    clock = new Date('2024-05-02T10:00:00.000Z');

    const again = await transformLanguages(store, [{ lang: 'pl', homeUrl: home }]);
    expect(again.get('pl')?.transformed).toBe(0);
    for (const id of [1, 2, 3, 4]) {
      const now = store.transformed.get('pl', 'posts', id);
      expect(now?.meta).toEqual(before.get(id)?.meta);
      // Written this run (the new clock) only when its facts were missing.
      expect(now?.transformedAt).toBe(
        id % 2 === 0 ? '2024-05-02T10:00:00.000Z' : before.get(id)?.transformedAt,
      );
    }
    expect(before.get(1)?.transformedAt).toBe('2024-05-01T10:00:00.000Z');
  });

  it('reads the last build’s pages only when the items’ paths changed, and then finds links into a page that is gone', async () => {
    const linking = post(1, '<p><a href="http://host/pl/2024/03/p2/">two</a></p>');
    store.items.upsertPage('pl', 'posts', [linking, post(2, '<p>two</p>'), post(3, '<p>3</p>')]);
    const first = (await transformLanguages(store, [{ lang: 'pl', homeUrl: home }])).get('pl');
    if (first === undefined) throw new Error('pl was not transformed');
    expect(store.transformed.getHtml('pl', 'posts', 1)).toContain('href="../p2/"');
    const row = { hash: 'h', input: 'i', bytes: 1 };
    store.buildState.record(
      'pl',
      {
        ...{ version: 1, buildVersion: 'b', templatesHash: 't', modelDigest: 'm' },
        files: Object.fromEntries(
          [1, 2, 3].map((id) => [`2024/03/p${id}/index.html`, row] as const),
        ),
      },
      {
        siteDigest: 's',
        sourcesAt: clock.toISOString(),
        transformVersion: '4',
        pathsDigest: first.pathsDigest,
      },
    );
    const pagePaths = vi.spyOn(store.buildState, 'pagePaths');
    const lastBuild = { pathsDigest: first.pathsDigest };

    // Nothing moved: every item page of the last build is made again; its pages are not read.
    await transformLanguages(store, [{ lang: 'pl', homeUrl: home, lastBuild }]);
    expect(pagePaths).not.toHaveBeenCalled();
    // A build that did not complete: its record may not be its pages, so they are read.
    await transformLanguages(store, [
      { lang: 'pl', homeUrl: home, lastBuild: { pathsDigest: null } },
    ]);
    expect(pagePaths).toHaveBeenCalledTimes(1);

    // Post 2 unpublished: its page goes, and post 1, unchanged itself, loses its link to it.
    store.items.upsertPage('pl', 'posts', [{ ...post(2, '<p>two</p>'), status: 'draft' }]);
    const after = (await transformLanguages(store, [{ lang: 'pl', homeUrl: home, lastBuild }])).get(
      'pl',
    );
    expect(pagePaths).toHaveBeenCalledTimes(2);
    expect(after?.pathsDigest).not.toBe(first.pathsDigest);
    expect(after?.transformed).toBe(1);
    const html = store.transformed.getHtml('pl', 'posts', 1);
    expect(html).toContain('two</a>');
    expect(html).not.toContain('href="../p2/"');
  });
});

describe('sitePathsDigest', () => {
  it('is the digest recorded by earlier builds: sha256 of the sorted pairs as JSON and a NUL, 32 hex', () => {
    const paths = new Map([
      ['posts:2', '/2024/03/p2/'],
      ['pages:1', '/about/'],
      ['posts:10', '/2024/03/p10/'],
    ]);
    const pairs = [
      ['pages:1', '/about/'],
      ['posts:10', '/2024/03/p10/'],
      ['posts:2', '/2024/03/p2/'],
    ];
    const expected = createHash('sha256')
      .update(`${JSON.stringify(pairs)}\u0000`)
      .digest('hex')
      .slice(0, 32);
    expect(sitePathsDigest(paths)).toBe(expected);
  });
});
