/**
 * The edit plan against the full plan (the oracle is the full planner's own digests, compared
 * page by page): after an edit that keeps the layout, every page whose digest changes is in
 * the edit plan, with the digest the full plan gives it.
 */
import { describe, expect, it } from 'vitest';
import { layoutDigestOf, planEdited } from '../../../src/site/edit-plan.js';
import type { SiteModel } from '../../../src/site/site-model.js';
import { placeSite, planPlaced } from '../../../src/site/site-plan.js';
import { fixtureModel } from '../../helpers/fixture-model.js';

const OPTIONS = { postsPerPage: 10, searchDocsPerShard: 8 };

function digests(model: SiteModel): Map<string, string> {
  const jobs = planPlaced(placeSite(model, OPTIONS)).jobs;
  return new Map(Array.from(jobs, (job) => [job.file, job.digest]));
}

/** The model with one post's fields changed (the same object otherwise). */
function edited(model: SiteModel, index: number, fields: Record<string, unknown>): SiteModel {
  const posts = model.posts.map((post, at) => (at === index ? { ...post, ...fields } : post));
  return { ...model, posts };
}

describe('the edit plan', () => {
  const model = fixtureModel({ posts: 45 });
  const cases: [string, number, Record<string, unknown>][] = [
    ['a title', 22, { title: 'A new title' }],
    ['an excerpt', 31, { excerptHtml: '<p>Another excerpt</p>', contentHash: 'changed' }],
    ['the sticky post', 3, { title: 'Sticky, renamed' }],
    ['the newest post', 0, { title: 'Newest, renamed' }],
  ];
  for (const [what, index, fields] of cases) {
    it(`after an edit of ${what}: every page whose digest changes, and those digests`, () => {
      const after = edited(model, index, fields);
      const placed = placeSite(after, OPTIONS);
      expect(layoutDigestOf(placed)).toBe(layoutDigestOf(placeSite(model, OPTIONS)));
      const id = after.posts[index]?.id as number;
      const plan = planEdited(placed, new Set([`posts:${id}`]), OPTIONS.postsPerPage);
      expect(plan).toBeDefined();
      const planned = new Map(Array.from(plan?.plan.jobs ?? [], (job) => [job.file, job.digest]));
      const before = digests(model);
      const full = digests(after);
      const changed = [...full].filter(([file, digest]) => before.get(file) !== digest);
      expect(changed.length).toBeGreaterThan(1);
      for (const [file, digest] of changed) expect(planned.get(file), file).toBe(digest);
      for (const [file, digest] of planned) expect(full.get(file), file).toBe(digest);
      // Bounded: the post, its two neighbours, one listing page, the 404 and search pages.
      expect(planned.size).toBeLessThanOrEqual(6);
      // The search bundle holding the post, and only it (found here by its documents).
      const holding = placed.search.shards.filter((shard) =>
        shard.docs.some((doc) => doc.key === `post:${id}`),
      );
      expect(holding).toHaveLength(1);
      expect(plan?.shards.map((shard) => shard.dir)).toEqual(holding.map((shard) => shard.dir));
    });
  }

  it('sees a post moved in the listing as another layout', () => {
    const moved = edited(model, 5, { dateGmt: '2001-01-01T00:00:00' });
    expect(layoutDigestOf(placeSite(moved, OPTIONS))).not.toBe(
      layoutDigestOf(placeSite(model, OPTIONS)),
    );
  });

  it('does not bound an edit of a media item', () => {
    expect(planEdited(placeSite(model, OPTIONS), new Set(['media:7']), 10)).toBeUndefined();
  });
});
