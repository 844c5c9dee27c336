import { describe, expect, it } from 'vitest';
import {
  afterKeysetPage,
  afterTie,
  afterTiePage,
  finalWatermark,
  FIRST_SWEEP,
  freshCursor,
  keysetQuery,
  parseCursor,
  tieQuery,
} from '../../../src/sync/crawl-plan.js';
import { cursor, T } from '../../helpers/sync/crawl-cursor.js';

describe('freshCursor and keysetQuery', () => {
  it('starts from the beginning without a watermark, without modified_after', () => {
    const c = freshCursor(null);
    expect(c).toMatchObject({ after: null, page: 1, tie: null, full: true });
    expect(keysetQuery(c, 100)).toEqual({
      orderby: 'modified',
      order: 'asc',
      per_page: 100,
      page: 1,
    });
  });

  it('re-reads the watermark second: modified_after = watermark - 1 s, in UTC with Z', () => {
    const c = freshCursor(T);
    expect(c.full).toBe(false);
    expect(keysetQuery(c, 100)).toMatchObject({ modified_after: '2024-05-01T09:59:59Z', page: 1 });
  });

  it('sweeps a tie second with strict bounds on both sides, in id order', () => {
    expect(tieQuery(T, 3, 100)).toEqual({
      orderby: 'id',
      order: 'asc',
      per_page: 100,
      page: 3,
      modified_after: '2024-05-01T09:59:59Z',
      modified_before: '2024-05-01T10:00:01Z',
    });
  });
});

describe('afterKeysetPage', () => {
  it('ends the crawl on a short page', () => {
    expect(afterKeysetPage(cursor(), { count: 99, perPage: 100, timestamps: [T] })).toEqual({
      done: true,
    });
    expect(afterKeysetPage(cursor(), { count: 0, perPage: 100, timestamps: [] })).toEqual({
      done: true,
    });
  });

  it('moves the window to one second before the last timestamp of a full page', () => {
    const step = afterKeysetPage(cursor(), {
      count: 3,
      perPage: 3,
      timestamps: ['2024-05-01T09:00:00', '2024-05-01T09:30:00', T],
    });
    expect(step).toEqual({
      done: false,
      cursor: cursor({ after: '2024-05-01T09:59:59', page: 1 }),
    });
  });

  it('sweeps the second alone when a full page holds one timestamp only', () => {
    const step = afterKeysetPage(cursor({ after: '2024-05-01T09:00:00' }), {
      count: 3,
      perPage: 3,
      timestamps: [T, T, T],
    });
    expect(step).toEqual({
      done: false,
      cursor: cursor({ after: '2024-05-01T09:00:00', tie: T, page: 1 }),
    });
  });

  it('falls back to the next page number when the window cannot move', () => {
    // Only bad records: no timestamp to move on.
    expect(afterKeysetPage(cursor(), { count: 2, perPage: 2, timestamps: [] })).toEqual({
      done: false,
      cursor: cursor({ page: 2 }),
    });
    // A server that ignores the order hands back older items: the window would go backwards.
    const c = cursor({ after: '2024-05-01T09:59:59' });
    expect(
      afterKeysetPage(c, {
        count: 2,
        perPage: 2,
        timestamps: ['2024-05-01T08:00:00', '2024-05-01T09:00:00'],
      }),
    ).toEqual({ done: false, cursor: { ...c, page: 2 } });
  });

  it('does not let X-CMS-TotalPages end a walk whose page is full (a lying server would lose items)', () => {
    const junk = { count: 2, perPage: 2, timestamps: [], totalPages: 3 };
    expect(afterKeysetPage(cursor({ page: 3 }), junk)).toEqual({
      done: false,
      cursor: cursor({ page: 4 }),
    });
    expect(afterKeysetPage(cursor({ page: 3 }), { ...junk, count: 1 })).toEqual({ done: true });
    // The count is only a bound: a window that moves is followed whatever it says.
    expect(
      afterKeysetPage(cursor({ page: 1 }), {
        count: 2,
        perPage: 2,
        timestamps: ['2024-05-01T09:00:00', T],
        totalPages: 1,
      }),
    ).toEqual({ done: false, cursor: cursor({ after: '2024-05-01T09:59:59', page: 1 }) });
  });

  it('pages on when records at or before the window were sent (a loose or filter-ignoring server)', () => {
    const c = cursor({ after: T });
    // 150 items of one second T, "at or after" T: the page is all T, nothing moves.
    expect(afterKeysetPage(c, { count: 3, perPage: 3, timestamps: [T, T, T] })).toEqual({
      done: false,
      cursor: { ...c, page: 2 },
    });
    // The page that follows mixes T with later seconds: the window moves on past T.
    const later = '2024-05-01T10:00:05';
    expect(
      afterKeysetPage({ ...c, page: 2 }, { count: 3, perPage: 3, timestamps: [T, later, later] }),
    ).toEqual({
      done: false,
      cursor: { ...c, after: '2024-05-01T10:00:04', page: 1 },
    });
  });

  it('pages on when a page is not in the order asked for', () => {
    const step = afterKeysetPage(cursor(), {
      count: 3,
      perPage: 3,
      timestamps: [T, '2024-05-01T09:00:00', '2024-05-01T09:30:00'],
    });
    expect(step).toEqual({ done: false, cursor: cursor({ page: 2 }) });
  });

  it('always makes progress: the window strictly grows or the page number does', () => {
    let c = cursor({ after: '2024-05-01T09:59:58' });
    for (const timestamps of [
      ['2024-05-01T09:59:59', T],
      ['2024-05-01T09:59:59', T],
      [T, '2024-05-01T10:00:01'],
    ]) {
      const step = afterKeysetPage(c, { count: 2, perPage: 2, timestamps });
      if (step.done) throw new Error('unexpected end');
      const moved =
        (step.cursor.after ?? '') > (c.after ?? '') ||
        step.cursor.page > c.page ||
        step.cursor.tie !== null;
      expect(moved).toBe(true);
      c = step.cursor;
    }
  });
});

describe('afterTiePage', () => {
  it('does not end a sweep on the last page the server reports while pages are full', () => {
    expect(
      afterTiePage(
        { page: 4, foundNew: false, sweeps: 1 },
        {
          count: 100,
          perPage: 100,
          newIds: 0,
          totalPages: 4,
        },
      ),
    ).toEqual({ page: 5, foundNew: false, sweeps: 1 });
  });

  it('pages through a sweep until a short page', () => {
    expect(afterTiePage(FIRST_SWEEP, { count: 100, perPage: 100, newIds: 100 })).toEqual({
      page: 2,
      foundNew: true,
      sweeps: 1,
    });
  });

  it('sweeps again after a sweep that found new ids, and stops after one that found none', () => {
    const second = afterTiePage(
      { page: 3, foundNew: true, sweeps: 1 },
      { count: 50, perPage: 100, newIds: 0 },
    );
    expect(second).toEqual({ page: 1, foundNew: false, sweeps: 2 });
    expect(
      afterTiePage({ page: 3, foundNew: false, sweeps: 2 }, { count: 50, perPage: 100, newIds: 0 }),
    ).toBe('done');
    // A new id on the last page of a sweep still calls for another sweep.
    expect(
      afterTiePage({ page: 3, foundNew: false, sweeps: 2 }, { count: 50, perPage: 100, newIds: 1 }),
    ).toEqual({
      page: 1,
      foundNew: false,
      sweeps: 3,
    });
  });

  it('continues strictly after the swept second', () => {
    expect(afterTie(cursor({ after: '2024-05-01T09:00:00', tie: T, page: 1 }))).toEqual(
      cursor({ after: T, tie: null, page: 1 }),
    );
  });
});

describe('finalWatermark', () => {
  it('is the latest timestamp stored, capped at the server clock when the crawl started', () => {
    expect(finalWatermark(null, cursor({ maxSeen: T, startedAt: '2024-06-01T00:00:00' }))).toBe(T);
    expect(finalWatermark(null, cursor({ maxSeen: T, startedAt: '2024-05-01T09:00:00' }))).toBe(
      '2024-05-01T09:00:00',
    );
    expect(finalWatermark(null, cursor({ maxSeen: T, startedAt: null }))).toBe(T);
  });

  it('keeps the old watermark when the crawl stored nothing', () => {
    expect(finalWatermark(T, cursor({ maxSeen: null }))).toBe(T);
  });
});

describe('parseCursor', () => {
  it('reads back what was stored and refuses anything else', () => {
    const c = cursor({ after: T, tie: T, page: 2, startedAt: T, maxSeen: T, full: false });
    expect(parseCursor(JSON.parse(JSON.stringify(c)))).toEqual(c);
    expect(parseCursor(null)).toBeUndefined();
    expect(parseCursor({ ...c, v: 2 })).toBeUndefined();
    expect(parseCursor({ ...c, after: '2024-05-01 10:00' })).toBeUndefined();
    expect(parseCursor({ ...c, page: 0 })).toBeUndefined();
  });
});
