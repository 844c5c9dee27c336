/**
 * Cases found by mutation testing (test/mutation/RESULTS.md): which records a pull stores and
 * the reason it logs for each one it skips, and the GMT arithmetic the crawl relies on.
 */
import { describe, expect, it } from 'vitest';
import { checkRecords, unstorableReason } from '../../../src/sync/record-check.js';
import {
  earlierGmt,
  gmtFromHttpDate,
  isGmt,
  laterGmt,
  shiftGmt,
} from '../../../src/sync/gmt-time.js';

const GMT = '2024-01-01T00:00:00';

/** A value nested `depth` levels deep (an object is one level). */
function nested(depth: number): unknown {
  let value: unknown = 'leaf';
  for (let level = 0; level < depth; level++) value = { child: value };
  return value;
}

describe('checkRecords: the reason logged for each skipped record', () => {
  it.each([
    ['text', 'not an object ("text")'],
    [null, 'not an object (null)'],
    [undefined, 'not an object (missing)'],
    [[1], 'not an object (a list)'],
    [7, 'not an object (7)'],
    [true, 'not an object (true)'],
    [{ id: '7', modified_gmt: GMT }, 'no positive integer id ("7")'],
    [{ id: 0, modified_gmt: GMT }, 'no positive integer id (0)'],
    [{ id: -3, modified_gmt: GMT }, 'no positive integer id (-3)'],
    [{ id: 1.5, modified_gmt: GMT }, 'no positive integer id (1.5)'],
    [{ id: 2 ** 53, modified_gmt: GMT }, `no positive integer id (${2 ** 53})`],
    [{ modified_gmt: GMT }, 'no positive integer id (missing)'],
    [{ id: null, modified_gmt: GMT }, 'no positive integer id (null)'],
    [{ id: [1], modified_gmt: GMT }, 'no positive integer id (a list)'],
    [{ id: { n: 1 }, modified_gmt: GMT }, 'no positive integer id (a object)'],
    [{ id: false, modified_gmt: GMT }, 'no positive integer id (false)'],
    [{ id: 9 }, 'no modified_gmt timestamp (missing)'],
    [{ id: 9, modified_gmt: '2024-01-01' }, 'no modified_gmt timestamp ("2024-01-01")'],
    [{ id: 9, modified_gmt: 'x'.repeat(50) }, `no modified_gmt timestamp ("${'x'.repeat(40)}")`],
  ])('%j: %s', (record, reason) => {
    const { items, bad } = checkRecords([{ id: 1, modified_gmt: GMT }, record]);
    expect(items).toEqual([{ id: 1, modified_gmt: GMT }]);
    expect(bad).toHaveLength(1);
    expect(bad[0]?.reason).toBe(reason);
    expect(bad[0]?.index).toBe(1);
  });

  it('names the id of a record that had one, and none of one that had not', () => {
    const { bad } = checkRecords([{ id: 9 }, { id: -1, modified_gmt: GMT }]);
    expect(bad.map((b) => b.id)).toEqual([9, undefined]);
  });

  it('skips a record nested deeper than 100 levels, with its id, and keeps one at 100', () => {
    const deep = { id: 4, modified_gmt: GMT, content: nested(100) };
    const fits = { id: 5, modified_gmt: GMT, content: nested(99) };
    const { items, bad } = checkRecords([deep, fits]);
    expect(items).toEqual([fits]);
    expect(bad).toEqual([{ index: 0, id: 4, reason: 'nested deeper than 100 levels' }]);
    expect(unstorableReason(deep)).toBe('nested deeper than 100 levels');
    expect(unstorableReason(fits)).toBeUndefined();
  });
});

describe('GMT timestamps', () => {
  it('are exactly the remote format, and a real date', () => {
    expect(isGmt(GMT)).toBe(true);
    expect(isGmt(` ${GMT}`)).toBe(false);
    expect(isGmt(`${GMT} `)).toBe(false);
    expect(isGmt('2024-1-01T00:00:00')).toBe(false);
    expect(isGmt('2024-01-01T00:00:60')).toBe(false);
    expect(isGmt('2024-02-30T25:00:00')).toBe(false);
    expect(isGmt(`${GMT}.000`)).toBe(false);
    expect(isGmt([GMT])).toBe(false);
  });

  it('shift by whole seconds either way', () => {
    expect(shiftGmt(GMT, 90)).toBe('2024-01-01T00:01:30');
    expect(shiftGmt(GMT, -90)).toBe('2023-12-31T23:58:30');
  });

  it('read the first Date header of several', () => {
    expect(
      gmtFromHttpDate(['Thu, 14 Mar 2024 02:00:05 GMT', 'Fri, 15 Mar 2024 02:00:05 GMT']),
    ).toBe('2024-03-14T02:00:05');
    expect(gmtFromHttpDate([])).toBeUndefined();
  });

  it('later and earlier: either side may be none, equal values are themselves', () => {
    const a = '2024-01-01T00:00:00';
    const b = '2024-01-01T00:00:01';
    expect(laterGmt(b, a)).toBe(b);
    expect(laterGmt(a, b)).toBe(b);
    expect(laterGmt(a, a)).toBe(a);
    expect(laterGmt(undefined, a)).toBe(a);
    expect(laterGmt(a, undefined)).toBe(a);
    expect(laterGmt(a, null)).toBe(a);
    expect(laterGmt(undefined, undefined)).toBeNull();
    expect(earlierGmt(b, a)).toBe(a);
    expect(earlierGmt(a, b)).toBe(a);
    expect(earlierGmt(null, b)).toBe(b);
    expect(earlierGmt(undefined, b)).toBe(b);
    expect(earlierGmt(b, undefined)).toBe(b);
    expect(earlierGmt(null, null)).toBeNull();
    expect(earlierGmt(undefined, undefined)).toBeNull();
  });
});
