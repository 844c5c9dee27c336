/**
 * Where the last build placed each post: a build records the posts' part (facts and chunks)
 * with its `modelDigest` and the newest post; an edit that moved nothing records only a new
 * digest and newest post, the posts' part staying as it was; a new posts' part replaces every
 * chunk of the old one; without a posts' part there is no placement; each language has its
 * own.
 */
import { describe, expect, it } from 'vitest';
import type { PlacementPosts } from '../../../src/store/index.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

const cache = useTempStore({ prefix: 'cms-build-placement-' });

/** A posts' part whose chunks are made as they are asked for. */
function posts(facts: string, chunks: string[]): PlacementPosts {
  return {
    facts,
    *chunks() {
      yield* chunks;
    },
  };
}

/** What is recorded for `lang`, its chunks read. */
function recorded(lang: string) {
  const placement = cache.store.buildPlacement.get(lang);
  return (
    placement && {
      modelDigest: placement.modelDigest,
      facts: placement.facts,
      chunks: [...placement.chunks()],
      newest: placement.newest,
    }
  );
}

describe('the recorded placement', () => {
  it('is the last one recorded, its posts kept when a build gives none', () => {
    const placement = cache.store.buildPlacement;
    expect(recorded('pl')).toBeUndefined();
    placement.record('pl', 'digest-1', {
      posts: posts('{"posts":1}', ['a', 'b', 'c']),
      newest: '{"index":0}',
    });
    placement.record('es', 'digest-es', { posts: posts('{"posts":"es"}', ['x']), newest: null });
    expect(recorded('pl')).toEqual({
      modelDigest: 'digest-1',
      facts: '{"posts":1}',
      chunks: ['a', 'b', 'c'],
      newest: '{"index":0}',
    });
    placement.record('pl', 'digest-2', { newest: '{"index":3}' });
    expect(recorded('pl')).toEqual({
      modelDigest: 'digest-2',
      facts: '{"posts":1}',
      chunks: ['a', 'b', 'c'],
      newest: '{"index":3}',
    });
    placement.record('pl', 'digest-3', { posts: posts('{"posts":2}', ['d']), newest: null });
    expect(recorded('pl')).toEqual({
      modelDigest: 'digest-3',
      facts: '{"posts":2}',
      chunks: ['d'],
      newest: null,
    });
    expect(recorded('es')).toEqual({
      modelDigest: 'digest-es',
      facts: '{"posts":"es"}',
      chunks: ['x'],
      newest: null,
    });
  });

  it('reads its chunks one at a time, in order, as they are asked for', () => {
    const chunks = Array.from({ length: 12 }, (_, index) => `chunk ${index}`);
    cache.store.buildPlacement.record('pl', 'digest-1', {
      posts: posts('{}', chunks),
      newest: null,
    });
    const read = cache.store.buildPlacement.get('pl')!.chunks()[Symbol.iterator]();
    expect(read.next().value).toBe('chunk 0');
    expect(read.next().value).toBe('chunk 1');
    expect([...{ [Symbol.iterator]: () => read }]).toEqual(chunks.slice(2));
  });

  it('is none when a build gives no posts and none were recorded', () => {
    cache.store.buildPlacement.record('pl', 'digest-1', { newest: '{"index":0}' });
    expect(recorded('pl')).toBeUndefined();
    cache.store.buildPlacement.record('pl', 'digest-2', { posts: posts('{}', []), newest: null });
    expect(recorded('pl')?.modelDigest).toBe('digest-2');
    expect(recorded('pl')?.chunks).toEqual([]);
  });
});
