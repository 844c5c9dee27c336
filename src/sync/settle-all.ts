/**
 * Waits for every promise, then throws the first failure: a failing language or stream does
 * not leave the others running unobserved while the cache is closed under them.
 */
export async function settleAll(promises: readonly Promise<unknown>[]): Promise<void> {
  await settleInOrder(promises);
}

/**
 * `settleAll` that returns the values, in order. Requests sent together report the failure
 * that comes first in `promises` (the most telling one first), whichever answered first.
 */
export async function settleInOrder<T extends readonly unknown[]>(promises: {
  readonly [K in keyof T]: Promise<T[K]>;
}): Promise<T> {
  const results = await Promise.allSettled(promises);
  const failure = results.find((result) => result.status === 'rejected');
  if (failure !== undefined) throw (failure as PromiseRejectedResult).reason;
  return results.map((result) => (result as PromiseFulfilledResult<unknown>).value) as unknown as T;
}
