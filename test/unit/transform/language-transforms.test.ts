import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import { transformLanguages } from '../../../src/transform/index.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

const home = 'http://host/pl/';
let cache: TempCache;
let store: Store;

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
  store = openStore(cache.file);
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
});
