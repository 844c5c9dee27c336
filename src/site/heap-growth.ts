/**
 * How far V8 lets a heap grow past what was live at its last full collection. By default it
 * lets an old generation grow to 2–4 times that before collecting again, which at a full
 * build's peak made every thread's heap mostly garbage: the render worker ~30 MB live after a
 * chunk against 110–140 MB committed, the main thread's 2–3 KB at the peak for each KB a post
 * holds live (test/bench/RESULTS.md, i-stream2 and i-render-mem). A growth of 20 % cut the
 * build's peak by ~50 MB at 20,000 posts for about the same CPU (the old generation is marked
 * concurrently, and a smaller one is quicker to mark).
 */
import v8 from 'node:v8';

/** Percent past the live size at which V8 starts the next full collection. */
const HEAP_GROWING_PERCENT = 20;

/**
 * The young generation of the render worker, in MB (V8 counts three semi-spaces: 16 MB
 * semi-spaces). Eleventy allocates mostly short-lived objects per page; in a smaller young
 * generation many outlive a scavenge only because it came too soon, and were copied, promoted
 * and marked again (at 10,000 posts a full build's CPU 50.0 → 41.7 s with 16 MB semi-spaces:
 * test/bench/RESULTS.md, i-fast2).
 */
export const RENDER_YOUNG_GENERATION_MB = 48;

/**
 * The young generation of a search worker, in MB (2 MB semi-spaces). A search worker only
 * passes documents on to its Pagefind process; V8's default (16 MB semi-spaces on a machine
 * with this much memory) let each one commit 10–32 MB of young generation it barely used
 * (test/bench/RESULTS.md, i-mem4).
 */
export const SEARCH_YOUNG_GENERATION_MB = 6;

/**
 * Sets the growth for every heap of this process, the threads started later included: V8
 * reads the flag whenever it sets a heap's next limit, and all threads share V8's flags. The
 * young generation is each worker's own (`resourceLimits`): V8's `--max-semi-space-size`, set
 * here, would override every worker's limit with one size for all.
 */
export function limitHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
