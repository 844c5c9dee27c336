import { existsSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/errors.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { PullCache } from '../../../src/sync/pull-cache.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

/**
 * When the pull's connection to the cache is opened: a file that is there is opened ahead of
 * the site's checks (once), a new one only when the pull asks after them (a refused password
 * leaves no file), never once the pull is over, and a failure ahead is left for the pull's own
 * open to report. Opens are counted through the caller's function (`run` gives one).
 */
describe('PullCache', () => {
  let temp: TempCache;
  const opened: Store[] = [];
  const counted = (file: string) => (): Store => {
    const store = openStore(file);
    opened.push(store);
    return store;
  };

  beforeEach(() => {
    temp = tempCache('cms-mirror-pull-cache-');
    opened.length = 0;
  });
  afterEach(() => {
    for (const store of opened) if (store.isOpen) store.close();
    temp.cleanup();
  });

  it('leaves a new cache unopened ahead, and creates it when the pull opens it', () => {
    const cache = new PullCache(temp.file);
    expect(cache.ahead).toBe(false);
    expect(cache.openAhead()).toBeUndefined();
    expect(existsSync(temp.file)).toBe(false);
    const store = cache.open();
    expect(existsSync(temp.file)).toBe(true);
    cache.close();
    expect(store.isOpen).toBe(false);
  });

  it('opens a cache that is there ahead, once: the pull gets the same connection', () => {
    openStore(temp.file).close();
    const cache = new PullCache(temp.file, counted(temp.file));
    const ahead = cache.openAhead();
    expect(ahead).toBeDefined();
    expect(cache.openAhead()).toBe(ahead);
    expect(cache.open()).toBe(ahead);
    expect(opened).toHaveLength(1);
    // The caller's connection: closed by the caller, not here.
    cache.close();
    expect(ahead?.isOpen).toBe(true);
  });

  it('opens nothing ahead once the pull is over', () => {
    openStore(temp.file).close();
    const cache = new PullCache(temp.file, counted(temp.file));
    cache.close();
    expect(cache.openAhead()).toBeUndefined();
    expect(opened).toHaveLength(0);
  });

  it('tries a cache that cannot be opened once ahead, and lets the pull report it', () => {
    writeFileSync(temp.file, 'not a cache, and long enough to be read as one. '.repeat(40));
    let tries = 0;
    const cache = new PullCache(temp.file, () => {
      tries += 1;
      return openStore(temp.file);
    });
    expect(cache.openAhead()).toBeUndefined();
    expect(cache.openAhead()).toBeUndefined();
    expect(tries).toBe(1);
    expect(() => cache.open()).toThrow(StoreError);
  });
});
