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
 * Largest semi-space of a heap's young generation, in MB. Eleventy allocates mostly
 * short-lived objects per page; in the render worker's default young generation many outlive
 * a scavenge only because it came too soon, and were copied, promoted and marked again. At
 * 10,000 posts this cut a full build's CPU from 50.0 to 41.7 s (medians of two loaded A/B
 * pairs, the tree's peak RSS 312 → 314 MB: test/bench/RESULTS.md, i-fast2). Only heaps made
 * after the flag is set read it: the worker threads', not this thread's.
 */
const MAX_SEMI_SPACE_MB = 16;

/**
 * Sets the growth for every heap of this process, the threads started later included: V8
 * reads the flag whenever it sets a heap's next limit, and all threads share V8's flags.
 */
export function limitHeapGrowth(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
  v8.setFlagsFromString(`--max-semi-space-size=${MAX_SEMI_SPACE_MB}`);
}
