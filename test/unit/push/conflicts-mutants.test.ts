import { describe, expect, it } from 'vitest';
import {
  chunkIds,
  describeConflict,
  findConflicts,
  resolveSteps,
} from '../../../src/push/conflicts.js';

// Cases found by mutation testing (test/mutation/RESULTS.md): each pins a promise of the
// conflict check that the broader tests in conflicts.test.ts left open.

describe('findConflicts reads one instant written several ways as the same instant', () => {
  it.each([
    ['fractional seconds', '2024-01-01T10:00:00.123', '2024-01-01T10:00:00'],
    ['a Z suffix and fractions', '2024-01-01T10:00:00', '2024-01-01T10:00:00.5Z'],
    ['a +00:00 offset', '2024-01-01T10:00:00+00:00', '2024-01-01T10:00:00'],
  ])('%s: no conflict', (_label, base, remote) => {
    expect(findConflicts([{ ref: 'a', id: 7, base }], new Map([[7, remote]]))).toEqual([]);
  });

  it('still sees a change hidden after the fraction or in another offset', () => {
    const conflicts = findConflicts(
      [
        { ref: 'a', id: 1, base: '2024-01-01T10:00:00.123' },
        { ref: 'b', id: 2, base: '2024-01-01T10:00:00+00:00' },
        { ref: 'c', id: 3, base: '2024-01-01T10:00:00Z' },
      ],
      new Map([
        [1, '2024-01-01T10:00:01.123'],
        [2, '2024-01-01T10:00:00+02:00'],
        [3, '2024-01-01T10:00:00Zx'],
      ]),
    );
    expect(conflicts.map((conflict) => [conflict.ref, conflict.reason])).toEqual([
      ['a', 'changed'],
      ['b', 'changed'],
      ['c', 'changed'],
    ]);
  });

  it('an item without a base is a conflict even when the site has it unchanged', () => {
    expect(
      findConflicts([{ ref: 'a', id: 1, base: undefined }], new Map([[1, '2024-01-01T10:00:00']])),
    ).toEqual([
      { ref: 'a', id: 1, base: undefined, remote: '2024-01-01T10:00:00', reason: 'no-base' },
    ]);
  });
});

describe('describeConflict tells the user what happened and that the edit is kept', () => {
  it('for an item gone from the site', () => {
    const line = describeConflict(
      { ref: 'r', id: 12, base: 'x', remote: undefined, reason: 'gone' },
      'pl/posts/12-a.html',
    );
    expect(line).toBe(
      'pl/posts/12-a.html: item 12 no longer exists on the site (deleted or trashed); your edit is kept',
    );
  });

  it('for an edit without a checkout base', () => {
    const line = describeConflict(
      { ref: 'r', id: 12, base: undefined, remote: 'y', reason: 'no-base' },
      'pl/posts/12-a.html',
    );
    expect(line).toBe(
      'pl/posts/12-a.html: no checkout base recorded for item 12; check it out again or push with --force',
    );
  });

  const changed = {
    ref: 'r',
    id: 12,
    base: '2024-01-01T10:00:00',
    remote: '2024-01-02T10:00:00',
    reason: 'changed',
  } as const;

  it('for a checkout file changed on the site: where its version is and how to resolve', () => {
    const hint = { file: 'pl/posts/12-a.html', copy: 'pl/posts/12-a.remote.html', exists: true };
    const line = describeConflict(changed, 'pl/posts/12-a.html', hint);
    expect(line).toBe(
      'pl/posts/12-a.html: changed on the site since checkout (base 2024-01-01T10:00:00, now 2024-01-02T10:00:00); your edit is kept — ' +
        `the site's version is in pl/posts/12-a.remote.html: merge what you want to keep into your file, ` +
        'then "cms-mirror push --resolve pl/posts/12-a.html" sends your version (or push --force to overwrite the site\'s version)',
    );
  });

  it('for a changed file whose site version is not fetched yet: pull first', () => {
    expect(
      resolveSteps({ file: 'es/pages/3-b.html', copy: 'es/pages/3-b.remote.html', exists: false }),
    ).toBe(
      'run "cms-mirror pull" and push again: the site\'s version is then written beside your file as es/pages/3-b.remote.html; ' +
        'merge what you want to keep into your file, then "cms-mirror push --resolve es/pages/3-b.html" sends your version ' +
        "(or push --force to overwrite the site's version)",
    );
  });

  it('for a changed item without a checkout file: pull and merge, or force', () => {
    expect(describeConflict(changed, 'posts/12')).toBe(
      'posts/12: changed on the site since checkout (base 2024-01-01T10:00:00, now 2024-01-02T10:00:00); your edit is kept — pull and merge, or push with --force',
    );
  });
});

describe('chunkIds', () => {
  it('sorts numerically, not as text', () => {
    expect(chunkIds([100, 9, 10, 2], 3)).toEqual([[2, 9, 10], [100]]);
  });

  it('keeps every id: chunks of exactly the size, the last one short', () => {
    const ids = Array.from({ length: 7 }, (_, index) => index + 1);
    expect(chunkIds(ids, 3)).toEqual([[1, 2, 3], [4, 5, 6], [7]]);
    expect(chunkIds(ids, 7)).toEqual([ids]);
    expect(chunkIds(ids, 1)).toHaveLength(7);
  });

  it.each([0, -1, 1.5, Number.NaN])('refuses the chunk size %s with the size named', (size) => {
    expect(() => chunkIds([1, 2], size)).toThrow(
      new RangeError(`chunk size must be a whole number ≥ 1, got ${size}`),
    );
  });
});
