/**
 * Runs calls of an async function one after the other, in the order they were made. The
 * build queues its next render chunk while the current one renders; two Eleventy runs at
 * once on one thread would interleave and finish together, and the first chunk's pages
 * would wait for the second.
 */
export function oneAtATime<P, R>(run: (payload: P) => Promise<R>): (payload: P) => Promise<R> {
  let last: Promise<unknown> = Promise.resolve();
  return (payload) => {
    const result = last.then(() => run(payload));
    // A failed call fails its caller only; the next call still runs.
    last = result.catch(() => undefined);
    return result;
  };
}
