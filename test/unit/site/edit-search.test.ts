/**
 * The search bundle an edit indexes before it is planned (`edit-search.ts`): the guess is the
 * full plan's bundle (the oracle is `placeSite`'s own search plan, compared by index, digest and
 * documents), and a guess the plan does not confirm is never used.
 */
import { describe, expect, it } from 'vitest';
import { guessEditedShards, indexWithAhead } from '../../../src/site/edit-search.js';
import type { SearchBundles } from '../../../src/site/build-workers.js';
import type { SearchShard } from '../../../src/site/search-plan.js';
import type { SiteModel } from '../../../src/site/site-model.js';
import { placeSite } from '../../../src/site/site-plan.js';
import { fixtureModel } from '../../helpers/fixture-model.js';

const PER_SHARD = 8;

function planned(model: SiteModel): SearchShard[] {
  return placeSite(model, { searchDocsPerShard: PER_SHARD }).search.shards;
}

function edited(model: SiteModel, index: number, fields: Record<string, unknown>): SiteModel {
  const posts = model.posts.map((post, at) => (at === index ? { ...post, ...fields } : post));
  return { ...model, posts };
}

const shape = (shard: SearchShard) => ({
  index: shard.index,
  dir: shard.dir,
  digest: shard.digest,
  docs: shard.docs.map((doc) => [doc.key, doc.url, doc.title, doc.digest]),
});

describe('the search bundle guessed ahead of an edit plan', () => {
  const model = fixtureModel({ posts: 45 });

  it("is the plan's bundle of the edited post, documents and digest alike", () => {
    const after = edited(model, 22, { title: 'A new title' });
    const id = after.posts[22]?.id as number;
    const guessed = guessEditedShards(after, new Set([`posts:${id}`]), PER_SHARD);
    expect(guessed).toHaveLength(1);
    const shards = planned(after);
    expect(shards.length).toBeGreaterThan(2);
    const holding = shards.find((shard) => shard.docs.some((doc) => doc.key === `post:${id}`));
    expect(holding).toBeDefined();
    expect(shape(guessed[0]!)).toEqual(shape(holding!));
    // Not the bundle as it was: the edit changed it.
    const before = planned(model).find((shard) => shard.index === holding!.index);
    expect(before?.digest).not.toBe(guessed[0]!.digest);
  });

  it("guesses an edited page's bundle too", () => {
    const guessed = guessEditedShards(model, new Set(['pages:13']), PER_SHARD);
    const holding = planned(model).find((shard) => shard.docs.some((doc) => doc.key === 'page:13'));
    expect(guessed.map(shape)).toEqual([shape(holding!)]);
  });

  it('guesses nothing for an edit of another kind, or a post the plan leaves out by its path', () => {
    expect(guessEditedShards(model, new Set(['media:3']), PER_SHARD)).toEqual([]);
    const unsafe = edited(model, 22, { sitePath: '/a/../../escape/' });
    const id = unsafe.posts[22]?.id as number;
    // The plan leaves the post out of its bundle: no guess could be that bundle.
    expect(
      planned(unsafe).some((shard) => shard.docs.some((doc) => doc.key === `post:${id}`)),
    ).toBe(false);
    expect(guessEditedShards(unsafe, new Set([`posts:${id}`]), PER_SHARD)).toEqual([]);
  });
});

describe('a guessed bundle in the edit build', () => {
  const shard = (index: number, digest: string): SearchShard => ({
    index,
    dir: `pagefind/s${index}`,
    digest,
    docs: [],
  });
  const files = (name: string): Map<string, Uint8Array> => new Map([[name, new Uint8Array([1])]]);

  it('is used when the plan has it with the same digest, and not indexed again', async () => {
    const indexed: number[] = [];
    const result = await indexWithAhead(
      [shard(2, 'same')],
      {
        shards: [{ index: 2, digest: 'same' }],
        files: Promise.resolve<SearchBundles>(new Map([[2, files('ahead')]])),
      },
      (shards) => {
        indexed.push(...shards.map((s) => s.index));
        return Promise.resolve(new Map(shards.map((s) => [s.index, files('late')])));
      },
    );
    expect(indexed).toEqual([]);
    expect([...(result.get(2)?.keys() ?? [])]).toEqual(['ahead']);
  });

  it("is ignored when the digest differs: the plan's bundle is indexed", async () => {
    const indexed: number[] = [];
    const result = await indexWithAhead(
      [shard(2, 'planned'), shard(5, 'other')],
      {
        shards: [{ index: 2, digest: 'guessed' }],
        files: Promise.resolve<SearchBundles>(new Map([[2, files('ahead')]])),
      },
      (shards) => {
        indexed.push(...shards.map((s) => s.index));
        return Promise.resolve(new Map(shards.map((s) => [s.index, files('late')])));
      },
    );
    expect(indexed).toEqual([2, 5]);
    expect([...(result.get(2)?.keys() ?? [])]).toEqual(['late']);
    expect([...result.keys()].sort()).toEqual([2, 5]);
  });

  it('is indexed now when the guess did not make it after all', async () => {
    const result = await indexWithAhead(
      [shard(2, 'same')],
      { shards: [{ index: 2, digest: 'same' }], files: Promise.resolve<SearchBundles>(new Map()) },
      (shards) => Promise.resolve(new Map(shards.map((s) => [s.index, files('late')]))),
    );
    expect([...(result.get(2)?.keys() ?? [])]).toEqual(['late']);
  });
});
