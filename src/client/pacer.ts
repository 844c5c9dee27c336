import PQueue from 'p-queue';

/** Hands out request starts at a rate: every attempt, retries included, waits its turn here. */
export interface Pacer {
  /** Resolves when the next start is allowed, with the time (`Date.now()`) it was granted. */
  wait(): Promise<number>;
  /** Drops the starts still waiting (on close). */
  clear(): void;
}

/**
 * A sliding window of whole requests: N starts per N/rps seconds, N >= 1 (so 2.5 per second is
 * 2 per 800 ms), never more in any window of that length. Undefined when unlimited (rps <= 0).
 */
export function createPacer(requestsPerSecond: number): Pacer | undefined {
  if (!(requestsPerSecond > 0)) return undefined;
  const cap = Math.max(1, Math.floor(requestsPerSecond));
  const queue = new PQueue({
    intervalCap: cap,
    interval: (cap * 1000) / requestsPerSecond,
    strict: true,
  });
  return {
    // The job runs the moment the queue grants the start, so its clock reading is that moment.
    wait: () => queue.add(() => Date.now()),
    clear: () => queue.clear(),
  };
}
