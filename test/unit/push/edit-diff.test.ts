import { describe, expect, it } from 'vitest';
import { changedFields } from '../../../src/push/edit-diff.js';

describe('changedFields', () => {
  it('returns only fields whose value changed', () => {
    const base = { title: 'A', slug: 'a', content: '<p>x</p>', categories: [1, 2], sticky: false };
    const local = { title: 'B', slug: 'a', content: '<p>x</p>', categories: [1, 2], sticky: true };
    expect(changedFields(base, local)).toEqual({ title: 'B', sticky: true });
  });

  it('treats equivalent dates and reordered term lists as unchanged, and ignores removed fields', () => {
    const base = {
      date_gmt: '2024-01-01T10:00:00',
      tags: [3, 1],
      excerpt: 'e',
      date: '2024-01-01T12:00:00',
    };
    const local = {
      date_gmt: '2024-01-01T10:00:00Z',
      tags: [1, 3],
      date: '2024-01-01T12:00:00.000',
    };
    expect(changedFields(base, local)).toEqual({});
    expect(changedFields(base, { date_gmt: '2024-01-01T10:00:01' })).toEqual({
      date_gmt: '2024-01-01T10:00:01',
    });
  });

  it('reports a field the base did not have', () => {
    expect(changedFields({ title: 'A' }, { title: 'A', template: 'wide' })).toEqual({
      template: 'wide',
    });
  });
});
