/**
 * Waits for every promise, then throws the first failure: a failing language or stream does
 * not leave the others running unobserved while the cache is closed under them.
 */
export async function settleAll(promises: readonly Promise<unknown>[]): Promise<void> {
  const results = await Promise.allSettled(promises);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure !== undefined) throw (failure as PromiseRejectedResult).reason;
}
