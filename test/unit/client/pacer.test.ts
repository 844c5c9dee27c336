import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createPacer } from '../../../src/client/pacer.js';

/** Asks for a start at each of `asks` (ms on the fake clock); resolves with the grant times. */
async function grantsFor(rate: number, asks: readonly number[]): Promise<number[]> {
  const pacer = createPacer(rate);
  if (pacer === undefined) throw new Error(`no pacer for ${rate}`);
  const grants: Promise<number>[] = [];
  for (const at of asks) {
    await vi.advanceTimersByTimeAsync(at - Date.now());
    grants.push(pacer.wait());
  }
  await vi.runAllTimersAsync();
  return Promise.all(grants);
}

describe('createPacer, on a fake clock', () => {
  beforeEach(() => {
    vi.useFakeTimers({ now: 0 });
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('grants `requestsPerSecond` starts a second, each as soon as the window allows', async () => {
    expect(await grantsFor(25, Array<number>(60).fill(0))).toEqual([
      ...Array<number>(25).fill(0),
      ...Array<number>(25).fill(1_000),
      ...Array<number>(10).fill(2_000),
    ]);
  });

  it('keeps a sliding window: a start waits one window after the start `rate` before it', async () => {
    // A fixed window would let the fourth start at 1 100 (a new second, one start in it).
    expect(await grantsFor(2, [0, 300, 600, 1_100])).toEqual([0, 300, 1_000, 1_300]);
  });

  it('paces a fractional rate by whole requests: 2.5 a second is 2 per 800 ms', async () => {
    expect(await grantsFor(2.5, [0, 0, 0, 0, 0])).toEqual([0, 0, 800, 800, 1_600]);
  });

  it('a rate below one a second is one start per 1/rps seconds', async () => {
    expect(await grantsFor(0.5, [0, 0, 0])).toEqual([0, 2_000, 4_000]);
  });

  it('no pacer when the rate is unlimited', () => {
    expect(createPacer(0)).toBeUndefined();
    expect(createPacer(-1)).toBeUndefined();
  });
});
