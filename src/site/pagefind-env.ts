/**
 * The environment a search worker starts Pagefind's process with.
 *
 * Pagefind allocates through jemalloc, which hands out a zeroed block of reused memory by
 * giving its pages back to the kernel (`madvise(MADV_DONTNEED)`) and faulting them in again,
 * unless the block comes from a thread's cache, which it clears with `memset`. Pagefind gzips
 * every fragment with freshly zeroed deflate tables (64 KB and 40 KB, above the 32 KB that
 * jemalloc caches per thread by default), so a 10,000-post build made some 31,000 of those
 * calls, each flushing the TLB of every core the process runs on: most of Pagefind's CPU time
 * was the kernel's. With blocks up to 64 KB cached per thread they are cleared in place (about
 * 3,400 calls are left). `thp:always` also clears in place, but it puts jemalloc's memory in
 * huge pages (+56 MB of process tree at 10,000 posts). Output bytes do not depend on it.
 */

/** The variable Pagefind's jemalloc reads its options from (its symbols carry the `_rjem_` prefix). */
export const PAGEFIND_MALLOC_CONF_VAR = '_RJEM_MALLOC_CONF';

/** Blocks up to 64 KB kept in the thread's cache, so zeroed ones are cleared in place. */
export const PAGEFIND_MALLOC_CONF = 'tcache_max:65536';

/**
 * `env` with Pagefind's allocator options. A user's own options come after ours in the same
 * variable, and jemalloc lets a later option win, so they still decide.
 */
export function pagefindEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const own = env[PAGEFIND_MALLOC_CONF_VAR];
  const conf = own ? `${PAGEFIND_MALLOC_CONF},${own}` : PAGEFIND_MALLOC_CONF;
  return { ...env, [PAGEFIND_MALLOC_CONF_VAR]: conf };
}
