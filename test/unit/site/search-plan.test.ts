import { describe, expect, it } from 'vitest';
import {
  bundleMembers,
  planSearch,
  shardCount,
  shardOf,
  type SearchDoc,
} from '../../../src/site/search-plan.js';

function docs(count: number): SearchDoc[] {
  return Array.from({ length: count }, (_, index) => ({
    key: `post:${index}`,
    url: `/p/${index}/`,
    title: `Post ${index}`,
    html: '<p>x</p>',
    digest: `d${index}`,
  }));
}

describe('search bundles', () => {
  it('uses the smallest power of two of bundles that holds the documents, capped', () => {
    expect(shardCount(0, 1000)).toBe(0);
    expect(shardCount(1, 1000)).toBe(1);
    expect(shardCount(1000, 1000)).toBe(1);
    expect(shardCount(1001, 1000)).toBe(2);
    expect(shardCount(10_000, 1000)).toBe(16);
    expect(shardCount(100_000, 1000)).toBe(32);
    expect(shardCount(256_000, 1000)).toBe(32);
    expect(shardCount(256_000, 20_000)).toBe(16);
  });

  it('past 32 bundles, keeps doubling until none holds more than 8,000 documents', () => {
    // Pagefind holds a bundle whole while indexing it: its memory must not grow with the site.
    expect(shardCount(256_001, 1000)).toBe(64);
    expect(shardCount(1_000_000, 1000)).toBe(128);
    expect(shardCount(10_000_000, 1000)).toBe(2048);
    for (const docs of [256_001, 700_000, 1_000_000, 3_000_000, 10_000_000]) {
      const count = shardCount(docs, 1000);
      expect(docs / count).toBeLessThanOrEqual(8000);
      // The smallest such count: half as many would hold more than 8,000 each.
      expect(docs / (count / 2)).toBeGreaterThan(8000);
    }
    // A larger bundle asked for is kept below the cap's doubling.
    expect(shardCount(1_000_000, 50_000)).toBe(32);
  });

  it('takes a lower cap past 32 bundles, for tests of a site with many bundles', () => {
    // 300 documents at most 8 a bundle: 32 would hold 9 or 10 each.
    expect(shardCount(300, 8, 8)).toBe(64);
    expect(shardCount(256, 8, 8)).toBe(32);
    expect(shardCount(300, 1000, 8)).toBe(1);
    expect(shardCount(300, 1, 1)).toBe(512);
  });

  it('places documents in bundles past the 256th, as many as there are', () => {
    // 2,048,001 documents make 512 bundles; this many keys in 512 bundles is enough to see it.
    const keys = Array.from({ length: 20_000 }, (_, index) => `post:${index}`);
    const members = bundleMembers(keys.length, 512, (index) => keys[index]!);
    expect(members).toHaveLength(512);
    expect(members.flat().sort((a, b) => a - b)).toEqual(keys.map((_, index) => index));
    expect(members.slice(256).every((bucket) => bucket.length > 0)).toBe(true);
    members.forEach((bucket, index) => {
      for (const at of bucket) expect(shardOf(keys[at]!, 512)).toBe(index);
    });
  });

  it('keeps a document in its bundle and spreads documents evenly', () => {
    expect(shardOf('post:42', 16)).toBe(shardOf('post:42', 16));
    const plan = planSearch(docs(8000), { lang: 'pl' });
    const sizes = plan.shards.map((shard) => shard.docs.length);
    expect(sizes).toHaveLength(8);
    expect(sizes.reduce((a, b) => a + b)).toBe(8000);
    expect(Math.min(...sizes)).toBeGreaterThan(800);
    expect(Math.max(...sizes)).toBeLessThan(1200);
    expect(plan.shards.map((shard) => shard.dir)).toEqual(
      Array.from({ length: 8 }, (_, i) => `pagefind/s${i}`),
    );
  });

  it('changes the digest of exactly the bundle whose document changed', () => {
    const before = planSearch(docs(3000), { lang: 'pl' });
    const changed = docs(3000);
    changed[1234]!.digest = 'edited';
    const after = planSearch(changed, { lang: 'pl' });
    const differing = after.shards.filter(
      (shard, index) => shard.digest !== before.shards[index]?.digest,
    );
    expect(differing).toHaveLength(1);
    expect(differing[0]?.docs.some((doc) => doc.key === 'post:1234')).toBe(true);
  });

  it('has no bundle for no documents', () => {
    expect(planSearch([], { lang: 'pl' }).shards).toEqual([]);
  });
});
