import { describe, expect, it } from 'vitest';
import { parseSrcset, stringifySrcset } from '../../../src/transform/srcset.js';

describe('parseSrcset', () => {
  it.each([
    [
      'a.png 1x, b.png 2x',
      [
        ['a.png', '1x'],
        ['b.png', '2x'],
      ],
    ],
    ['a.png', [['a.png', '']]],
    // As the HTML standard reads it: a URL runs to whitespace, so this is one URL.
    ['a.png,b.png', [['a.png,b.png', '']]],
    [
      'a.png, b.png',
      [
        ['a.png', ''],
        ['b.png', ''],
      ],
    ],
    [
      '  a.png   300w ,\n b.png\t800w  ',
      [
        ['a.png', '300w'],
        ['b.png', '800w'],
      ],
    ],
    [
      '/img.php?w=1,2 1x, b.png 2x',
      [
        ['/img.php?w=1,2', '1x'],
        ['b.png', '2x'],
      ],
    ],
    [
      'a.png 100w 200h, b.png',
      [
        ['a.png', '100w 200h'],
        ['b.png', ''],
      ],
    ],
    [
      'a.png foo(1, 2) 1x, b.png',
      [
        ['a.png', 'foo(1, 2) 1x'],
        ['b.png', ''],
      ],
    ],
    [', , ,', []],
    ['', []],
    [
      'a.png 1x,, , b.png 2x,',
      [
        ['a.png', '1x'],
        ['b.png', '2x'],
      ],
    ],
  ])('%j', (input, expected) => {
    expect(parseSrcset(input).map((candidate) => [candidate.url, candidate.descriptor])).toEqual(
      expected,
    );
  });
});

describe('stringifySrcset', () => {
  it('joins candidates with descriptors', () => {
    expect(
      stringifySrcset([
        { url: 'a.png', descriptor: '1x' },
        { url: 'b.png', descriptor: '' },
      ]),
    ).toBe('a.png 1x, b.png');
  });

  it('round-trips what it parses', () => {
    const value = '/img.php?w=1,2 1x, b.png 800w';
    expect(stringifySrcset(parseSrcset(value))).toBe(value);
  });
});
