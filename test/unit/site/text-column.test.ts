/**
 * The text column the placed posts' files and dates are held in (issue 17's memory): every
 * text comes back as added, past any capacity, and texts compare as their code points do.
 */
import { describe, expect, it } from 'vitest';
import { TextColumn } from '../../../src/site/text-column.js';

const texts = [
  '2024/03/kronika-kulinarna-123/index.html',
  '',
  'zażółć/gęślą/jaźń/index.html',
  '😀/index.html',
  '\uff61/index.html',
  'a',
  'a',
  'ab',
  '2024-03-01T10:00:00',
];

/** The oracle: the order of code points (not of UTF-16 units, where 😀 sorts before ｡). */
function byCodePoints(a: string, b: string): number {
  const left = Array.from(a, (char) => char.codePointAt(0) as number);
  const right = Array.from(b, (char) => char.codePointAt(0) as number);
  for (let at = 0; at < Math.min(left.length, right.length); at++)
    if (left[at] !== right[at]) return (left[at] as number) - (right[at] as number);
  return left.length - right.length;
}

describe('TextColumn', () => {
  it('gives every text back as added, well past its first capacity', () => {
    const column = new TextColumn(1, 1);
    const many = Array.from(
      { length: 5000 },
      (_, index) => `${texts[index % texts.length]}${index}`,
    );
    for (const text of many) column.push(text);
    expect(column.length).toBe(many.length);
    expect(column.get(0)).toBe(many[0]);
    expect(column.get(4321)).toBe(many[4321]);
    expect([...column]).toEqual(many);
  });

  it('compares texts as their code points, equal texts as equal', () => {
    const column = TextColumn.from(texts);
    for (const [a, left] of texts.entries()) {
      for (const [b, right] of texts.entries()) {
        expect(Math.sign(column.compare(a, b)), `${left} / ${right}`).toBe(
          Math.sign(byCodePoints(left, right)),
        );
        expect(Math.sign(column.compareTo(a, Buffer.from(right)))).toBe(
          Math.sign(byCodePoints(left, right)),
        );
      }
    }
  });

  it('picks texts by index into a column of their own', () => {
    const column = TextColumn.from(texts);
    const picked = column.picked([3, 0, 3, 8]);
    expect([...picked]).toEqual([texts[3], texts[0], texts[3], texts[8]]);
    picked.push('more');
    expect(picked.get(4)).toBe('more');
    expect(column.length).toBe(texts.length);
  });

  it('refuses an index it does not hold', () => {
    const column = TextColumn.from(['a']);
    expect(() => column.get(1)).toThrow(RangeError);
    expect(() => column.get(-1)).toThrow(RangeError);
    expect(() => column.compare(0, 1)).toThrow(RangeError);
  });
});
