import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import type { ReferenceOptions } from '../../src/reference/index.js';
import { startReference, type ReferenceSite } from './reference.js';
import { tempCache, type TempCache } from './temp-cache.js';

/** The reference site and temporary cache of the running test. */
export interface SiteAndCache {
  readonly site: ReferenceSite;
  readonly temp: TempCache;
}

/** A reference site of its own (a migration target, a second site), without a cache. */
export interface SiteOnly {
  readonly site: ReferenceSite;
}

/**
 * How long a fixture lives: `each` test gets a fresh one, or `all` tests of the calling
 * `describe` (or file) share one, made before the first and removed after the last. Share one
 * when starting a site and pulling it is the slow part and the tests only read what it holds.
 */
export type FixtureScope = 'each' | 'all';

function hooksOf(scope: FixtureScope): [typeof beforeEach, typeof afterEach] {
  return scope === 'each' ? [beforeEach, afterEach] : [beforeAll, afterAll];
}

function missing(what: string, scope: FixtureScope): Error {
  return new Error(
    `the ${what} exists only ${scope === 'each' ? 'during a test' : 'inside its describe'}`,
  );
}

/**
 * A reference site for the calling `describe` (fresh per test, or shared with `scope: 'all'`),
 * closed after it. Read `site` inside a test or hook.
 */
export function useSite(options: ReferenceOptions = {}, scope: FixtureScope = 'each'): SiteOnly {
  const [before, after] = hooksOf(scope);
  let site: ReferenceSite | undefined;
  before(async () => {
    site = await startReference(options);
  });
  after(async () => {
    try {
      await site?.close();
    } finally {
      site = undefined;
    }
  });
  return {
    get site(): ReferenceSite {
      if (site === undefined) throw missing('reference site', scope);
      return site;
    },
  };
}

/**
 * Gives the tests of the calling `describe` a reference site and temporary cache, closed and
 * removed after them: the set-up of every test that mirrors one site into one cache. Each
 * test gets its own (`scope: 'each'`, the default) or all share one (`useSharedSiteAndCache`).
 * Read `site` and `temp` inside a test or hook (e.g. `const { site, temp } = fixture;`).
 */
export function useSiteAndCache(
  options: ReferenceOptions = {},
  prefix?: string,
  scope: FixtureScope = 'each',
): SiteAndCache {
  const site = useSite(options, scope);
  const [before, after] = hooksOf(scope);
  let temp: TempCache | undefined;
  before(() => {
    temp = tempCache(prefix);
  });
  after(() => {
    temp?.cleanup();
    temp = undefined;
  });
  return {
    get site(): ReferenceSite {
      return site.site;
    },
    get temp(): TempCache {
      if (temp === undefined) throw missing('temporary cache', scope);
      return temp;
    },
  };
}

/**
 * One reference site and temporary cache for all tests of the calling `describe` (or file):
 * started before the first, closed and removed after the last. A `beforeAll` of the caller
 * that pulls runs after it (hooks run in the order they are declared).
 */
export function useSharedSiteAndCache(
  options: ReferenceOptions = {},
  prefix?: string,
): SiteAndCache {
  return useSiteAndCache(options, prefix, 'all');
}
