import { afterEach, beforeEach } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempCache, type TempCache } from '../temp-cache.js';

export interface TempStore {
  /** The store of the running test, on a fresh cache file. */
  readonly store: Store;
  /** The running test's cache file and its directory. */
  readonly temp: TempCache;
}

export interface TempStoreOptions {
  /** Prefix of the temporary directory's name. */
  prefix?: string;
  /** The store's clock. @default the real time */
  now?: () => Date;
}

/**
 * A fresh cache file and store per test, closed and removed after it. A test that closes or
 * reopens the store itself assigns `reopen()`'s store or leaves `store` closed: closing twice
 * is harmless.
 */
export function useTempStore(options: TempStoreOptions = {}): TempStore & { reopen(): Store } {
  let temp: TempCache | undefined;
  let store: Store | undefined;
  const open = (): Store =>
    openStore(temp!.file, options.now === undefined ? {} : { now: options.now });
  beforeEach(() => {
    temp = tempCache(options.prefix);
    store = open();
  });
  afterEach(() => {
    store?.close();
    temp?.cleanup();
  });
  return {
    get store(): Store {
      return store!;
    },
    get temp(): TempCache {
      return temp!;
    },
    /** Closes the store and opens the same file again (a later run on the same cache). */
    reopen(): Store {
      store?.close();
      store = open();
      return store;
    },
  };
}
