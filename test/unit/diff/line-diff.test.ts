import { describe, expect, it } from 'vitest';
import { changedHunks, lineDiff } from '../../../src/diff/line-diff.js';

/** Length of a longest common subsequence, by the textbook table (the oracle). */
function lcsLength(a: readonly string[], b: readonly string[]): number {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = 1; i <= a.length; i += 1) {
    for (let j = 1; j <= b.length; j += 1) {
      table[i]![j] =
        a[i - 1] === b[j - 1]
          ? table[i - 1]![j - 1]! + 1
          : Math.max(table[i - 1]![j]!, table[i]![j - 1]!);
    }
  }
  return table[a.length]![b.length]!;
}

function sides(script: readonly { op: string; text: string }[]): [string[], string[]] {
  return [
    script.filter((line) => line.op !== '+').map((line) => line.text),
    script.filter((line) => line.op !== '-').map((line) => line.text),
  ];
}

describe('lineDiff', () => {
  it('marks removed and added lines between unchanged ones', () => {
    expect(lineDiff('a\nb\nc\nd', 'a\nx\nc\nd\ne')).toEqual([
      { op: ' ', text: 'a' },
      { op: '-', text: 'b' },
      { op: '+', text: 'x' },
      { op: ' ', text: 'c' },
      { op: ' ', text: 'd' },
      { op: '+', text: 'e' },
    ]);
    expect(lineDiff('', 'new')).toEqual([{ op: '+', text: 'new' }]);
    expect(lineDiff('old', '')).toEqual([{ op: '-', text: 'old' }]);
    expect(lineDiff('same', 'same')).toEqual([{ op: ' ', text: 'same' }]);
  });

  it('is a shortest script on random inputs: both texts come back, unchanged lines = LCS', () => {
    let seed = 7;
    const random = (n: number): number => {
      seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
      return (seed >>> 16) % n;
    };
    for (let round = 0; round < 300; round += 1) {
      const a = Array.from({ length: random(12) }, () => 'abcd'[random(4)]!);
      const b = Array.from({ length: random(12) }, () => 'abcd'[random(4)]!);
      const script = lineDiff(a.join('\n'), b.join('\n'));
      expect(sides(script)).toEqual([a, b]);
      expect(script.filter((line) => line.op === ' ')).toHaveLength(lcsLength(a, b));
    }
  });

  it('past the edit bound shows the middle as a rewrite, still both texts', () => {
    const a = ['same', '1', '2', '3', 'end'];
    const b = ['same', 'x', 'y', 'end'];
    const script = lineDiff(a.join('\n'), b.join('\n'), 1);
    expect(sides(script)).toEqual([a, b]);
    expect(script.map((line) => line.op).join('')).toBe(' ---++ ');
  });
});

describe('changedHunks', () => {
  it('keeps changed lines with their context and marks a gap with …', () => {
    const script = lineDiff(
      ['1', '2', '3', '4', '5', '6', '7', '8', '9'].join('\n'),
      ['1', 'two', '3', '4', '5', '6', '7', '8', 'nine'].join('\n'),
    );
    expect(changedHunks(script, 1).map((line) => `${line.op}${line.text}`)).toEqual([
      ' 1',
      '-2',
      '+two',
      ' 3',
      ' …',
      ' 8',
      '-9',
      '+nine',
    ]);
    expect(changedHunks(lineDiff('a', 'a'))).toEqual([]);
  });
});
