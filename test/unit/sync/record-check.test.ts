import { describe, expect, it } from 'vitest';
import { checkRecords } from '../../../src/sync/record-check.js';

describe('checkRecords', () => {
  it('keeps objects with a positive integer id and a modified_gmt; reports the rest', () => {
    const good = { id: 5, modified_gmt: '2024-01-01T00:00:00', title: 'x' };
    const { items, bad } = checkRecords([
      good,
      'text',
      null,
      [1],
      { id: '7', modified_gmt: '2024-01-01T00:00:00' },
      { id: -1, modified_gmt: '2024-01-01T00:00:00' },
      { id: 1.5, modified_gmt: '2024-01-01T00:00:00' },
      { id: 9 },
      { id: 10, modified_gmt: '2024-01-01' },
    ]);
    expect(items).toEqual([good]);
    expect(bad.map((b) => [b.index, b.id])).toEqual([
      [1, undefined],
      [2, undefined],
      [3, undefined],
      [4, undefined],
      [5, undefined],
      [6, undefined],
      [7, 9],
      [8, 10],
    ]);
    expect(bad[0]?.reason).toMatch(/not an object/);
    expect(bad[6]?.reason).toMatch(/modified_gmt/);
  });
});
