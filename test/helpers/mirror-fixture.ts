import { afterEach, beforeEach } from 'vitest';
import type { ReferenceOptions } from '../../src/reference/index.js';
import { startReference, type ReferenceSite } from './reference.js';
import { tempCache, type TempCache } from './temp-cache.js';

/** The reference site and temporary cache of the running test. */
export interface SiteAndCache {
  readonly site: ReferenceSite;
  readonly temp: TempCache;
}

/**
 * Gives every test of the calling `describe` a fresh reference site and temporary cache, closed
 * and removed after it: the set-up of every test that mirrors one site into one cache.
 * Read `site` and `temp` inside a test or hook (e.g. `const { site, temp } = fixture;`).
 */
export function useSiteAndCache(options: ReferenceOptions = {}, prefix?: string): SiteAndCache {
  let site: ReferenceSite | undefined;
  let temp: TempCache | undefined;
  beforeEach(async () => {
    site = await startReference(options);
    temp = tempCache(prefix);
  });
  afterEach(async () => {
    try {
      await site?.close();
    } finally {
      temp?.cleanup();
      site = undefined;
      temp = undefined;
    }
  });
  return {
    get site(): ReferenceSite {
      if (site === undefined) throw new Error('the reference site exists only during a test');
      return site;
    },
    get temp(): TempCache {
      if (temp === undefined) throw new Error('the temporary cache exists only during a test');
      return temp;
    },
  };
}
