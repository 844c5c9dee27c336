/**
 * The placement recorded by a build, taken by the next edit build instead of placing every
 * post again. The oracle is placing the edited model in full (`placeSite`): where the record
 * fits, the site placed from it is the same (layout, warnings, media, search bundles and their
 * digests, the newest post) and records the same; where the edit moves a post, changes what
 * it uses or touches a page, the record is not used.
 */
import { describe, expect, it } from 'vitest';
import { layoutDigestOf } from '../../../src/site/edit-plan.js';
import type { SiteModel } from '../../../src/site/site-model.js';
import { placeSite, type PlacedSite } from '../../../src/site/site-plan.js';
import {
  placedFromRecord,
  placementRecord,
  type RecordedPlacement,
} from '../../../src/site/stored-placement.js';
import { fixtureModel } from '../../helpers/fixture-model.js';

const OPTIONS = { postsPerPage: 10, searchDocsPerShard: 8 };

/** The model with one post's fields changed (the same object otherwise). */
function edited(model: SiteModel, id: number, fields: Record<string, unknown>): SiteModel {
  const posts = model.posts.map((post) => (post.id === id ? { ...post, ...fields } : post));
  return { ...model, posts };
}

/** What a plan takes of a placed site. */
function seen(placed: PlacedSite) {
  return {
    layout: layoutDigestOf(placed),
    warnings: placed.warnings,
    newest: [placed.posts.newestModified, placed.posts.newestIndex],
    media: placed.media.map((item) => item.file),
    pages: placed.pages.map((page) => page.file),
    shards: placed.search.shards.map((shard) => [shard.dir, shard.digest]),
    record: asRecorded(placementRecord(placed)),
  };
}

/** A record with its chunks made: what the cache is given. */
function asRecorded(record: RecordedPlacement) {
  return { facts: record.posts.facts, chunks: [...record.posts.chunks()], newest: record.newest };
}

/** The posts newest first, as placed. */
function newestFirst(model: SiteModel) {
  return [...model.posts].sort((a, b) =>
    a.dateGmt < b.dateGmt ? 1 : a.dateGmt > b.dateGmt ? -1 : b.id - a.id,
  );
}

describe('a recorded placement', () => {
  const model = fixtureModel({ posts: 45 });
  const recorded = placementRecord(placeSite(model, OPTIONS));
  const publicPosts = newestFirst(model).filter((post) => post.status === 'publish');
  const newest = publicPosts[0]!;
  const middle = publicPosts[20]!;
  const later = '2030-01-01T00:00:00';

  const fits: [string, number, Record<string, unknown>][] = [
    ['a title', middle.id, { title: 'A new title', modifiedGmt: middle.modifiedGmt }],
    [
      'a title, the post now the newest changed',
      middle.id,
      { title: 'Renamed', modifiedGmt: later },
    ],
    ['the newest post, changed again', newest.id, { title: 'Newest, renamed', modifiedGmt: later }],
    [
      'its content (the same media)',
      middle.id,
      { html: `${middle.html}<p>More.</p>`, contentHash: 'changed' },
    ],
  ];
  for (const [what, id, fields] of fits) {
    it(`after an edit of ${what}: places the site as placing it in full does`, () => {
      const after = edited(model, id, fields);
      const fromRecord = placedFromRecord(after, recorded, new Set([`posts:${id}`]), OPTIONS);
      expect(fromRecord).toBeDefined();
      const full = placeSite(after, OPTIONS);
      expect(seen(fromRecord!.placed)).toEqual(seen(full));
      const index = Array.from({ length: full.posts.length }, (_, at) => full.posts.id(at));
      expect(fromRecord!.edited).toEqual([index.indexOf(id)]);
    });
  }

  it('after an edit that ties the newest date: the first post with it is the newest', () => {
    // The newest date is a later post's; the first post is edited to the same date.
    const base = edited(model, publicPosts[5]!.id, { modifiedGmt: later });
    const record = placementRecord(placeSite(base, OPTIONS));
    const after = edited(base, newest.id, { title: 'Tied', modifiedGmt: later });
    const fromRecord = placedFromRecord(after, record, new Set([`posts:${newest.id}`]), OPTIONS);
    expect(fromRecord).toBeDefined();
    expect(fromRecord!.placed.posts.newestIndex).toBe(0);
    expect(seen(fromRecord!.placed)).toEqual(seen(placeSite(after, OPTIONS)));
  });

  const moves: [string, number, Record<string, unknown>][] = [
    ['a date that moves it in the listing', middle.id, { dateGmt: '2001-01-01T00:00:00' }],
    ['its path', middle.id, { sitePath: '/2024/05/another-path/' }],
    ['its sticky flag', middle.id, { sticky: true }],
    ['its status', middle.id, { status: 'draft' }],
    ['the media it uses', middle.id, { html: '<p>No picture now.</p>', htmlMedia: [] }],
    ['the newest post made older', newest.id, { modifiedGmt: '2001-01-01T00:00:00' }],
  ];
  for (const [what, id, fields] of moves) {
    it(`after an edit of ${what}: is not used`, () => {
      const after = edited(model, id, fields);
      expect(placedFromRecord(after, recorded, new Set([`posts:${id}`]), OPTIONS)).toBeUndefined();
    });
  }

  it('is not used after an edit of a page, or of a post it did not place', () => {
    const page = model.pages[0]!;
    expect(placedFromRecord(model, recorded, new Set([`pages:${page.id}`]), OPTIONS)).toBe(
      undefined,
    );
    expect(placedFromRecord(model, recorded, new Set(['posts:999999']), OPTIONS)).toBe(undefined);
  });

  it('is not used for a site with another post', () => {
    const grown = fixtureModel({ posts: 46 });
    const id = publicPosts[3]!.id;
    expect(placedFromRecord(grown, recorded, new Set([`posts:${id}`]), OPTIONS)).toBe(undefined);
  });
});

describe('a recorded placement of more posts than a chunk holds', () => {
  const model = fixtureModel({ posts: 2600 });
  const recorded = placementRecord(placeSite(model, OPTIONS));
  const chunks = [...recorded.posts.chunks()];
  const publicPosts = newestFirst(model).filter((post) => post.status === 'publish');

  it('is kept as several chunks of at most a thousand posts', () => {
    expect(chunks.length).toBeGreaterThanOrEqual(2);
    for (const chunk of chunks)
      expect((JSON.parse(chunk) as { ids: number[] }).ids.length).toBeLessThanOrEqual(1000);
  });

  for (const at of [0, 999, 1000, publicPosts.length - 1]) {
    it(`places the site as placing it in full does after an edit of post ${at} of the order`, () => {
      const post = publicPosts[at]!;
      const after = edited(model, post.id, { title: 'Renamed', modifiedGmt: post.modifiedGmt });
      const fromRecord = placedFromRecord(after, recorded, new Set([`posts:${post.id}`]), OPTIONS);
      expect(fromRecord).toBeDefined();
      expect(seen(fromRecord!.placed)).toEqual(seen(placeSite(after, OPTIONS)));
    });
  }

  const withChunks = (made: string[]): RecordedPlacement => ({
    posts: { facts: recorded.posts.facts, chunks: () => made },
    newest: recorded.newest,
  });

  it('is not used when a chunk is missing or holds another number of posts', () => {
    const id = publicPosts[3]!.id;
    const changed = new Set([`posts:${id}`]);
    expect(placedFromRecord(model, withChunks(chunks), changed, OPTIONS)).toBeDefined();
    expect(placedFromRecord(model, withChunks(chunks.slice(0, -1)), changed, OPTIONS)).toBe(
      undefined,
    );
    expect(placedFromRecord(model, withChunks([...chunks, chunks[0]!]), changed, OPTIONS)).toBe(
      undefined,
    );
    const short = JSON.parse(chunks[0]!) as { files: string[] };
    short.files.pop();
    const damaged = [JSON.stringify(short), ...chunks.slice(1)];
    expect(placedFromRecord(model, withChunks(damaged), changed, OPTIONS)).toBe(undefined);
  });

  it('digests the posts as read: a post recorded at another file makes another layout digest', () => {
    // The layout digest of a site placed from a record is made from the chunks read, not
    // taken on trust: a record that is not what the last build placed cannot pass for it.
    const id = publicPosts[3]!.id;
    const changed = new Set([`posts:${id}`]);
    const full = layoutDigestOf(placeSite(model, OPTIONS));
    const intact = placedFromRecord(model, withChunks(chunks), changed, OPTIONS);
    expect(layoutDigestOf(intact!.placed)).toBe(full);
    for (const at of [0, chunks.length - 1]) {
      const chunk = JSON.parse(chunks[at]!) as { files: string[] };
      chunk.files[5] = `elsewhere-${at}/index.html`;
      const moved = chunks.map((text, index) => (index === at ? JSON.stringify(chunk) : text));
      const fromRecord = placedFromRecord(model, withChunks(moved), changed, OPTIONS);
      expect(fromRecord).toBeDefined();
      expect(fromRecord!.placed.posts.file(at * 1000 + 5)).toBe(`elsewhere-${at}/index.html`);
      expect(layoutDigestOf(fromRecord!.placed)).not.toBe(full);
    }
  });
});
