import { afterEach, beforeEach } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import { openStore } from '../../../src/store/index.js';
import type { TempCache } from '../temp-cache.js';
import { tempCache } from '../temp-cache.js';

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
  let temp: TempCache | undefined;
  let store: Store | undefined;
  const fixture = {
    clock: new Date(0),
    get store(): Store {
      return store!;
    },
    get temp(): TempCache {
      return temp!;
    },
  };
  beforeEach(() => {
    temp = tempCache();
    fixture.clock = new Date('2024-05-01T10:00:00.000Z');
    store = openStore(temp.file, { now: () => fixture.clock });
  });
  afterEach(() => {
    store?.close();
    temp?.cleanup();
  });
  return fixture;
}
