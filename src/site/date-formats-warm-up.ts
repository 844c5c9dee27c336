/**
 * ICU's date tables are loaded once per process and shared by its threads: the first
 * `Intl.DateTimeFormat` a process makes costs ~30 ms of CPU (`node -e`: 29 ms quiet), any later
 * one, in any thread and for any locale, under a millisecond (one made in a worker thread
 * first, the main thread's first took 0.2–0.3 ms). The render worker makes one as it starts
 * (an edit build starts no search worker), so that the main thread's plan (`dateFormatter`, on
 * the way to an edit build's render request) does not pay for loading them.
 */
export function warmDateFormats(): void {
  new Intl.DateTimeFormat('en', { dateStyle: 'long', timeZone: 'UTC' }).format(0);
}
