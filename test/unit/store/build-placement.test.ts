/**
 * Where the last build placed each post: a build records the posts' record with its
 * `modelDigest` and the newest post; an edit that moved nothing records only a new digest and
 * newest post, the posts' record staying as it was; without a posts' record there is no
 * placement; each language has its own.
 */
import { describe, expect, it } from 'vitest';
import { useTempStore } from '../../helpers/store/temp-store.js';

const cache = useTempStore({ prefix: 'cms-build-placement-' });

describe('the recorded placement', () => {
  it('is the last one recorded, its posts kept when a build gives none', () => {
    const placement = cache.store.buildPlacement;
    expect(placement.get('pl')).toBeUndefined();
    placement.record('pl', 'digest-1', { data: '{"posts":1}', newest: '{"index":0}' });
    placement.record('es', 'digest-es', { data: '{"posts":"es"}', newest: null });
    expect(placement.get('pl')).toEqual({
      modelDigest: 'digest-1',
      data: '{"posts":1}',
      newest: '{"index":0}',
    });
    placement.record('pl', 'digest-2', { newest: '{"index":3}' });
    expect(placement.get('pl')).toEqual({
      modelDigest: 'digest-2',
      data: '{"posts":1}',
      newest: '{"index":3}',
    });
    placement.record('pl', 'digest-3', { data: '{"posts":2}', newest: null });
    expect(placement.get('pl')).toEqual({
      modelDigest: 'digest-3',
      data: '{"posts":2}',
      newest: null,
    });
    expect(placement.get('es')).toEqual({
      modelDigest: 'digest-es',
      data: '{"posts":"es"}',
      newest: null,
    });
  });

  it('is none when a build gives no posts and none were recorded', () => {
    cache.store.buildPlacement.record('pl', 'digest-1', { newest: '{"index":0}' });
    expect(cache.store.buildPlacement.get('pl')).toBeUndefined();
    cache.store.buildPlacement.record('pl', 'digest-2', { data: '{}', newest: null });
    expect(cache.store.buildPlacement.get('pl')?.modelDigest).toBe('digest-2');
  });
});
