import { describe, expect, it } from 'vitest';
import { emptyCounters, roundSeconds, sumCounters } from '../../../src/sync/pull-summary.js';
import { PULL_COUNTER_KEYS } from '../../helpers/sync/pull-counter-keys.js';

/** The counters a pull reports: every documented key, summed per language into the total. */
describe('pull counters', () => {
  const KEYS = PULL_COUNTER_KEYS;

  it('start at zero for every key of the summary, in the documented order', () => {
    const counters = emptyCounters();
    expect(Object.keys(counters)).toEqual(KEYS);
    expect(Object.values(counters).every((value) => value === 0)).toBe(true);
  });

  it('are fresh objects: counting in one language does not count in another', () => {
    const pl = emptyCounters();
    const es = emptyCounters();
    pl.created += 3;
    expect(es.created).toBe(0);
    expect(emptyCounters().created).toBe(0);
  });

  it('sum every key over the languages', () => {
    const pl = emptyCounters();
    const es = emptyCounters();
    KEYS.forEach((key, i) => {
      (pl as unknown as Record<string, number>)[key] = i + 1;
      (es as unknown as Record<string, number>)[key] = 100 * (i + 1);
    });
    const total = sumCounters([pl, es]);
    expect(Object.keys(total)).toEqual(KEYS);
    KEYS.forEach((key, i) => {
      expect((total as unknown as Record<string, number>)[key], key).toBe(101 * (i + 1));
    });
    // The parts are left as they were.
    expect(pl.created).toBe(2);
    expect(es.created).toBe(200);
  });

  it('sum to zero for no languages, and to the one language for one', () => {
    expect(sumCounters([])).toEqual(emptyCounters());
    const one = { ...emptyCounters(), created: 4, errors: 1, media_bytes: 2048 };
    expect(sumCounters([one])).toEqual(one);
  });

  it('round milliseconds to hundredths of a second', () => {
    expect(roundSeconds(0)).toBe(0);
    expect(roundSeconds(1234)).toBe(1.23);
    expect(roundSeconds(1235)).toBe(1.24);
    expect(roundSeconds(60_004)).toBe(60);
    expect(roundSeconds(7)).toBe(0.01);
  });
});
