/**
 * A build opens the cache with a page cache smaller than a pull's 32 MiB: it reads each row
 * about once, and a full page cache was ~25 MB of its peak (test/bench/RESULTS.md, i-render-mem).
 */
import { describe, expect, it, vi } from 'vitest';
import type { Settings } from '../../../src/config/index.js';
import { build } from '../../../src/operations/build.js';
import { openStore, type Store } from '../../../src/store/index.js';

vi.mock('../../../src/store/index.js', async (original) => ({
  ...(await original<object>()),
  openStore: vi.fn(() => {
    throw new Error('stopped at the open');
  }),
}));

describe('build operation', () => {
  it('opens the cache with a small page cache', async () => {
    const settings = { cache: '/nonexistent/cache.sqlite', languages: [] } as unknown as Settings;
    await expect(build({ settings })).rejects.toThrow('stopped at the open');
    const options = vi.mocked(openStore).mock.calls[0]?.[1];
    expect(options?.pageCacheMib).toBeTypeOf('number');
    expect(options?.pageCacheMib).toBeLessThanOrEqual(4);
  });

  it("gives a run's open cache the same small page cache, and opens none", async () => {
    vi.mocked(openStore).mockClear();
    const setPageCache = vi.fn();
    const store = {
      setPageCache,
      file: '/nonexistent/cache.sqlite',
      items: {
        langs: () => {
          throw new Error('stopped at the languages');
        },
      },
    } as unknown as Store;
    const settings = { cache: '/nonexistent/cache.sqlite', languages: [] } as unknown as Settings;
    await expect(build({ settings, store })).rejects.toThrow('stopped at the languages');
    expect(openStore).not.toHaveBeenCalled();
    expect(setPageCache).toHaveBeenCalledOnce();
    expect(setPageCache.mock.calls[0]?.[0]).toBeLessThanOrEqual(4);
  });
});
