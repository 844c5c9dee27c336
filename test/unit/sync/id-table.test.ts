import { describe, expect, it } from 'vitest';
import { IdSet, IdTable } from '../../../src/sync/id-table.js';

type Counted = 'created' | 'updated' | 'unchanged';
const VALUES: readonly Counted[] = ['created', 'updated', 'unchanged'];

/** A deterministic shuffle of 0..n-1 scaled, so ids arrive out of order (xorshift). */
function shuffledIds(n: number, scale: number): number[] {
  const ids = Array.from({ length: n }, (_, i) => i * scale);
  let seed = 12345;
  for (let i = n - 1; i > 0; i--) {
    seed ^= seed << 13;
    seed ^= seed >>> 17;
    seed ^= seed << 5;
    const j = (seed >>> 0) % (i + 1);
    [ids[i], ids[j]] = [ids[j] as number, ids[i] as number];
  }
  return ids;
}

describe('IdTable', () => {
  it('answers like a Map through many merges, ids out of order, values overwritten', () => {
    const table = new IdTable(VALUES);
    const oracle = new Map<number, Counted>();
    const ids = shuffledIds(20_000, 7);
    ids.forEach((id, i) => {
      const value = VALUES[i % 3] as Counted;
      table.set(id, value);
      oracle.set(id, value);
      // Overwrite some ids long after they were merged into the sorted part.
      if (i % 997 === 0 && i > 0) {
        const old = ids[i >> 1] as number;
        table.set(old, 'updated');
        oracle.set(old, 'updated');
      }
    });
    expect(table.size).toBe(oracle.size);
    for (const [id, value] of oracle) {
      expect(table.get(id)).toBe(value);
      expect(table.has(id)).toBe(true);
    }
    for (const absent of [1, 8, 6, 140_001, 20_000 * 7]) {
      expect(table.has(absent)).toBe(false);
      expect(table.get(absent)).toBeUndefined();
    }
    const counts = (values: Iterable<Counted>) =>
      [...values].reduce<Record<string, number>>(
        (acc, v) => ({ ...acc, [v]: (acc[v] ?? 0) + 1 }),
        {},
      );
    expect(counts(table.values())).toEqual(counts(oracle.values()));
  });

  it('holds id 0 and the largest safe integer, and a duplicate is one id', () => {
    const table = new IdTable(VALUES);
    table.set(0, 'created').set(Number.MAX_SAFE_INTEGER, 'unchanged').set(0, 'updated');
    for (let id = 1; id <= 3000; id++) table.set(id, 'unchanged'); // merges 0 and the huge id
    table.set(Number.MAX_SAFE_INTEGER, 'created');
    table.set(0, 'unchanged'); // the first id of the sorted part
    expect(table.size).toBe(3002);
    expect(table.get(0)).toBe('unchanged');
    expect(table.has(0)).toBe(true);
    expect(table.get(Number.MAX_SAFE_INTEGER)).toBe('created');
    expect(table.has(Number.MAX_SAFE_INTEGER - 1)).toBe(false);
    expect(table.get(3001)).toBeUndefined();
  });

  it('refuses what it cannot hold: a negative, fractional or unsafe id, an unknown value', () => {
    const table = new IdTable(VALUES);
    for (const id of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 1, Infinity]) {
      expect(() => table.set(id, 'created')).toThrow(RangeError);
    }
    expect(() => table.set(1, 'deleted' as Counted)).toThrow(/not one of this IdTable's values/);
    expect(() => new IdTable([])).toThrow(RangeError);
    expect(() => new IdTable(Array.from({ length: 257 }, (_, i) => i))).toThrow(RangeError);
    expect(new IdTable(Array.from({ length: 256 }, (_, i) => i)).set(5, 255).get(5)).toBe(255);
    expect(table.size).toBe(0);
  });
});

describe('IdSet', () => {
  it('counts distinct ids, id 0 and huge ids included', () => {
    const set = new IdSet();
    for (const id of [0, 5, 5, Number.MAX_SAFE_INTEGER, 0, 3]) set.add(id);
    expect(set.size).toBe(4);
    expect(set.has(0)).toBe(true);
    expect(set.has(4)).toBe(false);
    expect(set.has(Number.MAX_SAFE_INTEGER)).toBe(true);
    for (let id = 10; id < 5000; id++) set.add(id).add(id);
    expect(set.size).toBe(4 + 4990);
    expect(set.has(4999)).toBe(true);
    expect(set.has(5000)).toBe(false);
  });
});

describe('IdTable refusals', () => {
  it('names what it refused in its message', () => {
    const table = new IdTable(VALUES);
    expect(() => table.set(-1, 'created')).toThrow(
      'an IdTable holds non-negative safe integer ids, not -1',
    );
    expect(() => table.set(2.5, 'created')).toThrow(/not 2\.5$/);
    expect(() => new IdTable([])).toThrow('an IdTable holds 1 to 256 distinct values, not 0');
    expect(() => new IdTable(Array.from({ length: 300 }, (_, i) => i))).toThrow(/, not 300$/);
  });
});
