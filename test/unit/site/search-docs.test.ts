/**
 * Issue 17: the search bundles of a site whose posts are read again from the cache
 * (`placedSearch`). A bundle sent to a search worker (`plainShard`) is its plan's bundle,
 * documents and digest, and reads each of its posts once: an edit build sends the edited
 * post's bundle (~620 documents at 10,000 posts) before anything asked for its digest. Placing
 * the site sorts no bundle's documents: only a bundle asked for is sorted.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { modelFromStore } from '../../../src/site/model-from-store.js';
import { PlacedPosts } from '../../../src/site/placed-posts.js';
import { plainShard } from '../../../src/site/search-docs.js';
import { placeSite, planSite } from '../../../src/site/site-plan.js';
import type { SiteModel } from '../../../src/site/site-model.js';
import type { CmsItem } from '../../../src/store/index.js';
import { useTempStore } from '../../helpers/store/temp-store.js';
import { countedPostReads } from '../../helpers/site/counted-posts.js';
import { storeTransform } from '../../helpers/site/stored-transform.js';

const cache = useTempStore({ prefix: 'cms-search-docs-' });
const POSTS = 240;

function post(id: number): CmsItem {
  const date = new Date(Date.UTC(2021, 0, 1) + id * 3_600_000).toISOString().slice(0, 19);
  return {
    id,
    status: 'publish',
    slug: `p${id}`,
    link: `http://h/pl/p${id}/`,
    date_gmt: date,
    modified_gmt: date,
    title: { rendered: `Wpis ${id}` },
    content: { rendered: `<p>Treść ${id}</p>`, protected: false },
    excerpt: { rendered: `<p>Zajawka ${id}</p>`, protected: false },
    sticky: false,
    featured_media: 0,
  };
}

beforeEach(() => {
  cache.store.siteInfo.set('pl', { lang: 'pl', name: 'S', description: 'D', home: 'http://h/pl/' });
  const items = Array.from({ length: POSTS }, (_, at) => post(at + 1));
  cache.store.items.upsertPage('pl', 'posts', items);
  for (const item of items)
    storeTransform(cache.store, {
      lang: 'pl',
      type: 'posts',
      id: item.id,
      html: `<p>Treść ${item.id}</p>`,
      excerpt: `Zajawka ${item.id}`,
      sitePath: `/p${item.id}/`,
    });
});

/** Four bundles; every post read again a window at a time (none held). */
const OPTIONS = { searchDocsPerShard: 60, heldPosts: 0 };

/** The streamed model, with the places of the posts read from it counted. */
function countedModel(): { model: SiteModel; reads: Map<number, number> } {
  const options = { lang: 'pl', languages: [{ lang: 'pl' }], streamPosts: true };
  return countedPostReads(modelFromStore(cache.store, options).model);
}

describe("a placed site's search bundle sent to a search worker", () => {
  it("is the plan's bundle and reads each of its posts once", () => {
    const held = planSite(
      modelFromStore(cache.store, { lang: 'pl', languages: [{ lang: 'pl' }] }).model,
      { searchDocsPerShard: 60 },
    );
    const { model, reads } = countedModel();
    const placed = placeSite(model, OPTIONS);
    expect(placed.search.shards.length).toBe(4);
    for (const [at, shard] of placed.search.shards.entries()) {
      reads.clear();
      const plain = plainShard(shard);
      const expected = held.search.shards[at]!;
      expect(plain.digest).toBe(expected.digest);
      expect(plain.docs).toEqual(
        expected.docs.map(({ key, url, title, html, digest }) => ({
          key,
          url,
          title,
          html,
          digest,
        })),
      );
      expect(plain.docs.length).toBeGreaterThan(30);
      // Each of the bundle's posts read once, none of the others.
      expect(reads.size).toBe(plain.docs.length);
      expect(Math.max(...reads.values())).toBe(1);
    }
  });
});

describe("a placed site's search bundles", () => {
  afterEach(() => vi.restoreAllMocks());

  it('are sorted only when asked for, one bundle at a time', () => {
    const { model } = countedModel();
    // Every key asked for is a post's id (`post:ID`): the site has no page.
    const keys = vi.spyOn(PlacedPosts.prototype, 'id');
    const placed = placeSite(model, OPTIONS);
    const asked = keys.mock.calls.length;
    const [first, second] = placed.search.shards;
    const firstDocs = plainShard(first!).docs.length;
    // Every post's key once to find the bundles, then the first bundle's keys to sort it.
    expect(keys.mock.calls.length - asked).toBe(POSTS + firstDocs);
    const secondDocs = plainShard(second!).docs.length;
    expect(keys.mock.calls.length - asked).toBe(POSTS + firstDocs + secondDocs);
  });
});
