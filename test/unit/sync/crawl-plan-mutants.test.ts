/**
 * Cases found by mutation testing (test/mutation/RESULTS.md): the crawl's resume point, its
 * window at the edges, the bound on its list requests and the guards against servers that do
 * not page. Pure rules, checked with values written out here.
 */
import { describe, expect, it } from 'vitest';
import { SiteError } from '../../../src/errors.js';
import { CrawlBudget, type ListClient } from '../../../src/sync/crawl-budget.js';
import { checkNotRepeated, endlessWalk, recordKey } from '../../../src/sync/crawl-guards.js';
import {
  afterKeysetPage,
  afterTie,
  afterTiePage,
  FIRST_SWEEP,
  parseCursor,
  tieQuery,
} from '../../../src/sync/crawl-plan.js';
import { cursor, T } from '../../helpers/sync/crawl-cursor.js';
import { versionCount } from '../../../src/sync/version-count.js';

describe('parseCursor', () => {
  const stored = cursor({ after: T, tie: T, page: 2, startedAt: T, maxSeen: T, full: false });

  it('reads back a cursor with every timestamp unset', () => {
    const blank = cursor();
    expect(parseCursor(JSON.parse(JSON.stringify(blank)))).toEqual(blank);
  });

  it.each([
    ['a string', 'cursor'],
    ['a number', 1],
    ['a bad tie', { ...stored, tie: '2024-05-01' }],
    ['a bad start', { ...stored, startedAt: 'now' }],
    ['a bad latest timestamp', { ...stored, maxSeen: 12 }],
    ['no after', { ...stored, after: undefined }],
    ['a page as text', { ...stored, page: '2' }],
    ['a fractional page', { ...stored, page: 1.5 }],
    ['a negative page', { ...stored, page: -1 }],
    ['a full flag as text', { ...stored, full: 'false' }],
    ['no version', { ...stored, v: undefined }],
  ])('refuses %s', (_what, value) => {
    expect(parseCursor(value)).toBeUndefined();
  });

  it('keeps only the cursor fields', () => {
    expect(parseCursor({ ...stored, extra: 'x' })).toEqual(stored);
  });
});

describe('the keyset window at its edges', () => {
  it('the last second a date can hold is swept without an upper bound', () => {
    const query = tieQuery('9999-12-31T23:59:59', 1, 10);
    expect(query).toMatchObject({ modified_after: '9999-12-31T23:59:58Z', page: 1 });
    expect(query).not.toHaveProperty('modified_before');
  });

  it('pages on when the window would not move past its own edge', () => {
    // One record at the window's edge (sent by a loose server), the rest one second later:
    // moving to "last − 1 s" would be the same window again.
    const c = cursor({ after: '2024-05-01T09:59:59' });
    const step = afterKeysetPage(c, {
      count: 3,
      perPage: 3,
      timestamps: ['2024-05-01T09:59:59', T, T],
    });
    expect(step).toEqual({ done: false, cursor: { ...c, page: 2 } });
  });

  it('moves on from a window that started at the beginning', () => {
    const step = afterKeysetPage(cursor({ page: 4 }), {
      count: 2,
      perPage: 2,
      timestamps: ['2024-05-01T09:00:00', T],
    });
    expect(step).toEqual({
      done: false,
      cursor: cursor({ after: '2024-05-01T09:59:59', page: 1 }),
    });
  });

  it('a sweep of a second that comes back empty is the last one', () => {
    expect(afterTiePage(FIRST_SWEEP, { count: 0, perPage: 100, newIds: 0 })).toBe('done');
  });

  it('keeps a cursor with no second being swept as it is', () => {
    const c = cursor({ after: T, page: 3 });
    expect(afterTie(c)).toEqual(c);
  });
});

/** A list route answering `records` to every request. */
function answering(records: unknown, url?: (route: string) => string): ListClient {
  return {
    get: <T>() => Promise.resolve({ data: records as T, status: 200, headers: {} } as never),
    ...(url === undefined ? {} : { url }),
  };
}

async function sendUntilStopped(
  budget: CrawlBudget,
  client: ListClient,
): Promise<{ sent: number; error: unknown }> {
  const counted = budget.wrap(client);
  for (let sent = 0; sent < 1_000; sent++) {
    try {
      await counted.get('cms/v2/posts', { page: sent + 1 });
    } catch (error) {
      return { sent, error };
    }
  }
  return { sent: 1_000, error: undefined };
}

describe('the crawl budget', () => {
  it('allows 3 requests per page of the cached items plus 10, and names them when it stops', async () => {
    const budget = new CrawlBudget(10, 25, 'posts in pl');
    expect(budget.limit).toBe(19);
    const { sent, error } = await sendUntilStopped(budget, answering([]));
    expect(sent).toBe(19);
    expect(budget.spent).toBe(19);
    expect(error).toBeInstanceOf(SiteError);
    expect((error as Error).message).toBe(
      'cms/v2/posts: stopped after 19 list requests for the 25 posts in pl seen (at most 3 per page of 10, plus 10): ' +
        "the site's answers do not move the crawl on (it ignores or loosens modified_after, modified_before, orderby or page); what was stored is kept",
    );
  });

  it('counts the distinct usable ids the site listed, and only those', async () => {
    // 20 usable ids are exactly 2 pages of 10: any junk record counted makes a third page.
    const good = Array.from({ length: 20 }, (_, i) => ({ id: i + 1, modified_gmt: T }));
    const junk = [
      null,
      'x',
      { id: 0, modified_gmt: T },
      { id: -1, modified_gmt: T },
      { id: 1.5, modified_gmt: T },
      { id: '30', modified_gmt: T },
      { id: 31 },
      { id: 32, modified_gmt: 'yesterday' },
    ];
    const budget = new CrawlBudget(10, 0, 'posts in pl');
    expect(budget.limit).toBe(10);
    await budget.wrap(answering([...good, ...good, ...junk])).get('cms/v2/posts');
    expect(budget.limit).toBe(3 * 2 + 10);
    for (const record of junk) {
      await budget.wrap(answering([record])).get('cms/v2/posts');
      expect(budget.limit).toBe(3 * 2 + 10);
    }
    // An answer that is not a list counts no id (and does not throw).
    await budget.wrap(answering({ id: 99, modified_gmt: T })).get('cms/v2/posts');
    expect(budget.limit).toBe(3 * 2 + 10);
    await budget.wrap(answering([{ id: 99, modified_gmt: T }])).get('cms/v2/posts');
    expect(budget.limit).toBe(19);
  });

  it('takes the larger of the listed ids and the cached items, capped at the most allowed', async () => {
    const budget = new CrawlBudget(10, 45, 'posts in pl', 30);
    expect(budget.limit).toBe(3 * 3 + 10);
    const listed = Array.from({ length: 25 }, (_, i) => ({ id: i + 1, modified_gmt: T }));
    const small = new CrawlBudget(10, 5, 'posts in pl');
    await small.wrap(answering(listed)).get('cms/v2/posts');
    expect(small.limit).toBe(3 * 3 + 10);
  });

  it('reads a per_page below 1 as 1', () => {
    expect(new CrawlBudget(0, 5, 'posts in pl').limit).toBe(3 * 5 + 10);
  });

  it('names the URL of the request it refused, without credentials', async () => {
    const budget = new CrawlBudget(10, 0, 'posts in pl');
    const client = answering([], (route) => `http://user:secret@127.0.0.1:9/${route}?page=11`);
    const { error } = await sendUntilStopped(budget, client);
    expect((error as Error).message).toMatch(/^http:\/\/127\.0\.0\.1:9\/cms\/v2\/posts\?page=11: /);
    expect((error as Error).message).not.toContain('secret');
  });

  it('refuses once the site listed one item more than the most allowed', async () => {
    const budget = new CrawlBudget(100, 0, 'posts in pl', 5);
    const six = Array.from({ length: 6 }, (_, i) => ({ id: i + 1, modified_gmt: T }));
    const counted = budget.wrap(answering(six));
    await counted.get('cms/v2/posts');
    await expect(counted.get('cms/v2/posts')).rejects.toThrow(
      'cms/v2/posts: the site listed more than 5 posts in pl',
    );
    const exactly = new CrawlBudget(100, 0, 'posts in pl', 6);
    const fits = exactly.wrap(answering(six));
    await fits.get('cms/v2/posts');
    await expect(fits.get('cms/v2/posts')).resolves.toBeInstanceOf(Object);
  });
});

describe('crawl guards', () => {
  const list = (records: unknown[]) => ({
    url: 'http://s/cms/v2/posts?page=3',
    records,
    total: undefined,
    totalPages: undefined,
    date: undefined,
  });

  it('refuses a page that repeats the ids of the page before it', () => {
    const key = checkNotRepeated(list([{ id: 1 }, { id: 2 }]), 2, undefined);
    expect(key).toBe('1,2');
    expect(() => checkNotRepeated(list([{ id: 1 }, { id: 2 }]), 3, key)).toThrow(
      'http://s/cms/v2/posts?page=3 answered the same items as page 2: the server ignores "page"; what was stored is kept',
    );
    expect(checkNotRepeated(list([{ id: 2 }, { id: 1 }]), 3, key)).toBe('2,1');
  });

  it('does not compare the first page, nor pages without any numeric id', () => {
    expect(checkNotRepeated(list([{ id: 1 }]), 1, '1')).toBe('1');
    expect(checkNotRepeated(list([{}, null, { id: 'x' }]), 2, undefined)).toBeUndefined();
    expect(() => checkNotRepeated(list([null, { id: 3 }]), 2, ',3')).toThrow(SiteError);
  });

  it('keys a record by its JSON, and one nested too deep by a fixed word', () => {
    expect(recordKey({ id: 'x', a: [1] })).toBe('{"id":"x","a":[1]}');
    expect(recordKey(undefined)).toBe('undefined');
    let deep: unknown = 1;
    for (let level = 0; level < 101; level++) deep = [deep];
    expect(recordKey(deep)).toBe('too deep');
  });

  it('an endless walk is a site error naming the URL and the bound', () => {
    const error = endlessWalk('http://s/cms/v2/posts?page=101');
    expect(error).toBeInstanceOf(SiteError);
    expect(error.message).toMatch(
      /^http:\/\/s\/cms\/v2\/posts\?page=101 still answered a full page after 100 pages/,
    );
  });
});

describe('versionCount', () => {
  it('is undefined for JSON that is not an object, or holds no list', () => {
    expect(versionCount('null')).toBeUndefined();
    expect(versionCount('3')).toBeUndefined();
    expect(versionCount(JSON.stringify({ _links: null }))).toBeUndefined();
    expect(versionCount(JSON.stringify({ _links: { 'version-history': [null] } }))).toBeUndefined();
    expect(versionCount(JSON.stringify({ _links: { 'version-history': [] } }))).toBeUndefined();
    expect(
      versionCount(JSON.stringify({ _links: { 'version-history': [{ count: 1.5 }] } })),
    ).toBeUndefined();
  });
});
