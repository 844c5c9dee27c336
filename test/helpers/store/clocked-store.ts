import { beforeEach } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import type { TempCache } from '../temp-cache.js';
import { useTempStore } from './temp-store.js';

export interface ClockedStore {
  /** The store of the running test, on a fresh cache file. */
  readonly store: Store;
  /** The store's "now"; set it to move time on. */
  clock: Date;
  /** The running test's cache file. */
  readonly temp: TempCache;
}

/** A fresh cache per test whose clock the test sets (starting at 2024-05-01T10:00:00Z). */
export function useClockedStore(): ClockedStore {
  // Set before the store opens (hooks run in the order they are registered).
  beforeEach(() => {
    fixture.clock = new Date('2024-05-01T10:00:00.000Z');
  });
  const cache = useTempStore({ now: () => fixture.clock });
  const fixture = {
    clock: new Date(0),
    get store(): Store {
      return cache.store;
    },
    get temp(): TempCache {
      return cache.temp;
    },
  };
  return fixture;
}
