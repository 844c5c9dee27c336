import { describe, expect, it } from 'vitest';
import { chunkIds, describeConflict, findConflicts } from '../../../src/push/conflicts.js';

describe('findConflicts', () => {
  it('reports changed, gone and base-less items and passes unchanged ones', () => {
    const remote = new Map([
      [1, '2024-01-01T10:00:00'],
      [2, '2024-01-02T10:00:00'],
      [4, '2024-01-04T10:00:00'],
    ]);
    const conflicts = findConflicts(
      [
        { ref: 'a', id: 1, base: '2024-01-01T10:00:00Z' },
        { ref: 'b', id: 2, base: '2024-01-01T10:00:00' },
        { ref: 'c', id: 3, base: '2024-01-01T10:00:00' },
        { ref: 'd', id: 4, base: undefined },
      ],
      remote,
    );
    expect(conflicts).toEqual([
      {
        ref: 'b',
        id: 2,
        base: '2024-01-01T10:00:00',
        remote: '2024-01-02T10:00:00',
        reason: 'changed',
      },
      { ref: 'c', id: 3, base: '2024-01-01T10:00:00', remote: undefined, reason: 'gone' },
      { ref: 'd', id: 4, base: undefined, remote: '2024-01-04T10:00:00', reason: 'no-base' },
    ]);
    expect(describeConflict(conflicts[0]!, 'pl/posts/2-x.html')).toBe(
      'pl/posts/2-x.html: changed on the site since checkout (base 2024-01-01T10:00:00, now 2024-01-02T10:00:00); your edit is kept — pull and merge, or push with --force',
    );
  });
});

describe('chunkIds', () => {
  it('dedupes, sorts and splits', () => {
    expect(chunkIds([5, 3, 3, 1, 9, 7], 2)).toEqual([[1, 3], [5, 7], [9]]);
    expect(chunkIds([], 100)).toEqual([]);
    expect(() => chunkIds([1], 0)).toThrow(RangeError);
  });
});
