import { describe, expect, it } from 'vitest';
import { settleAll } from '../../../src/sync/settle-all.js';

/**
 * A pull runs its languages and collection streams side by side; when one fails, the others
 * must finish (or fail) before the cache is closed under them, and the caller must see a
 * failure — the first in the order the streams were started, not whichever settled first.
 */
describe('settleAll', () => {
  const later = <T>(ms: number, value: T): Promise<T> =>
    new Promise((resolve) => setTimeout(() => resolve(value), ms));
  const failLater = (ms: number, error: Error): Promise<never> =>
    new Promise((_, reject) => setTimeout(() => reject(error), ms));

  it('resolves once every promise has fulfilled, whatever their values', async () => {
    const finished: string[] = [];
    const track = async (name: string, ms: number): Promise<string> => {
      await later(ms, undefined);
      finished.push(name);
      return `value of ${name}`;
    };
    await expect(settleAll([track('pl', 15), track('es', 1), later(1, 0)])).resolves.toBe(
      undefined,
    );
    expect(finished.sort()).toEqual(['es', 'pl']);
  });

  it('resolves for no promises at all', async () => {
    await expect(settleAll([])).resolves.toBe(undefined);
  });

  it('rejects with the failure only after the slower promises have settled', async () => {
    const failure = new Error('posts stream failed');
    let slowDone = false;
    const slow = later(30, 'pages').then((value) => {
      slowDone = true;
      return value;
    });
    const outcome = await settleAll([failLater(1, failure), slow]).then(
      () => 'resolved',
      (error: unknown) => ({ error, slowDone }),
    );
    expect(outcome).toEqual({ error: failure, slowDone: true });
  });

  it('rejects with the first failure in the order given, after a fulfilled one', async () => {
    const first = new Error('pl failed');
    const second = new Error('es failed');
    // The second failure settles first: the order given decides, not the timing.
    await expect(
      settleAll([later(1, 'media'), failLater(20, first), failLater(1, second)]),
    ).rejects.toBe(first);
  });

  it('passes a non-Error rejection on as it is', async () => {
    await expect(settleAll([later(1, 1), Promise.reject('plain reason')])).rejects.toBe(
      'plain reason',
    );
  });
});
