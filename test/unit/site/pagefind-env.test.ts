/**
 * Pagefind's process gets jemalloc's thread cache raised to 64 KB (zeroed blocks cleared with
 * memset, not given back to the kernel page by page), and a user's own options still win.
 */
import { describe, expect, it } from 'vitest';
import { pagefindEnv } from '../../../src/site/pagefind-env.js';

describe('pagefindEnv', () => {
  it('sets jemalloc to cache blocks up to 64 KB per thread, keeping the rest of the environment', () => {
    const env = pagefindEnv({ PATH: '/usr/bin', LANG: 'C' });
    expect(env).toEqual({ PATH: '/usr/bin', LANG: 'C', _RJEM_MALLOC_CONF: 'tcache_max:65536' });
  });

  it("puts a user's own options after it, so that jemalloc lets theirs win", () => {
    const env = pagefindEnv({ _RJEM_MALLOC_CONF: 'tcache_max:4096,narenas:2' });
    expect(env._RJEM_MALLOC_CONF).toBe('tcache_max:65536,tcache_max:4096,narenas:2');
  });

  it('does not change the environment it is given', () => {
    const given = { PATH: '/usr/bin' };
    pagefindEnv(given);
    expect(given).toEqual({ PATH: '/usr/bin' });
  });
});
