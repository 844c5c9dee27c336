import { beforeEach, describe, expect, it } from 'vitest';
import type { CmsResponse, Query } from '../../../src/client/index.js';
import { HttpError, NetworkError, SiteError } from '../../../src/errors.js';
import { fetchChildren, fetchList, presentIds, remoteCount } from '../../../src/sync/list-fetch.js';
import type { ListClient } from '../../../src/sync/crawl-budget.js';

/**
 * The pull's three list requests against an in-memory collection that pages like the
 * interface says (`per_page`/`page`, `include`, `parent`, `X-CMS-Total`/`X-CMS-TotalPages`,
 * `Date`), and against servers that do not: a list that is not one, a page that ignores
 * `per_page`, a page past the end (400 `rest_post_invalid_page_number`).
 */

interface Item {
  readonly id: number;
  readonly parent?: number;
}

const DATE = 'Wed, 01 May 2024 10:00:00 GMT';

class FakeListSite {
  items: Item[] = [];
  readonly requests: { route: string; query: Query }[] = [];
  /** Replaces the answer (headers and body) of every request, when set. */
  answer: ((query: Query) => Partial<CmsResponse<unknown>>) | undefined;
  /** Thrown by every request, when set. */
  failure: Error | undefined;

  readonly client: ListClient = {
    get: async <T>(route: string, query: Query = {}): Promise<CmsResponse<T>> => {
      this.requests.push({ route, query });
      // A walk that never ends is a bug of the caller: stop it instead of hanging.
      if (this.requests.length > 50) throw new Error('more than 50 requests');
      if (this.failure !== undefined) throw this.failure;
      const url = `https://site.test/cms-json/${route}?n=${this.requests.length}`;
      return { status: 200, url, ...this.#serve(query), ...this.answer?.(query) } as CmsResponse<T>;
    },
  };

  #serve(query: Query): { headers: Record<string, string>; data: unknown } {
    const include = query['include'] as readonly number[] | undefined;
    const parents = query['parent'] as readonly number[] | undefined;
    const matching = this.items
      .filter((item) => include === undefined || include.includes(item.id))
      .filter((item) => parents === undefined || parents.includes(item.parent ?? 0))
      .sort((a, b) => a.id - b.id);
    const perPage = Number(query['per_page'] ?? 10);
    const page = Number(query['page'] ?? 1);
    return {
      headers: {
        'x-cms-total': String(matching.length),
        'x-cms-totalpages': String(Math.ceil(matching.length / perPage)),
        date: DATE,
      },
      data: matching.slice((page - 1) * perPage, page * perPage),
    };
  }
}

function items(...ids: number[]): Item[] {
  return ids.map((id) => ({ id }));
}

describe('fetchList (one page of a list)', () => {
  let site: FakeListSite;
  beforeEach(() => {
    site = new FakeListSite();
    site.items = items(3, 1, 2, 4, 5);
  });

  it('gives the records, X-CMS-Total, X-CMS-TotalPages and the server clock in GMT', async () => {
    const list = await fetchList(site.client, 'cms/v2/posts', { per_page: 2, page: 2 });
    expect(list).toEqual({
      url: 'https://site.test/cms-json/cms/v2/posts?n=1',
      records: [{ id: 3 }, { id: 4 }],
      total: 5,
      totalPages: 3,
      date: '2024-05-01T10:00:00',
    });
    expect(site.requests).toEqual([{ route: 'cms/v2/posts', query: { per_page: 2, page: 2 } }]);
  });

  it('reads headers sent twice by their first value, and leaves out what is not a count or a date', async () => {
    const headersOf = async (headers: Record<string, string | string[]>) => {
      site.answer = () => ({ headers });
      const { total, totalPages, date } = await fetchList(site.client, 'cms/v2/posts', {});
      return { total, totalPages, date };
    };
    expect(
      await headersOf({
        'x-cms-total': ['7', '9'],
        'x-cms-totalpages': [' 2 ', 'x'],
        date: [DATE],
      }),
    ).toEqual({ total: 7, totalPages: 2, date: '2024-05-01T10:00:00' });
    expect(await headersOf({ 'x-cms-total': '12', 'x-cms-totalpages': '003' })).toEqual({
      total: 12,
      totalPages: 3,
      date: undefined,
    });
    for (const bad of ['', ' ', '-3', '1.5', '12abc', 'abc12', '1e3', 'twelve', '1 2'])
      expect(
        await headersOf({ 'x-cms-total': bad, 'x-cms-totalpages': bad, date: 'yesterday' }),
        JSON.stringify(bad),
      ).toEqual({ total: undefined, totalPages: undefined, date: undefined });
  });

  it('accepts a full page (as many records as per_page allows) and an empty one', async () => {
    expect((await fetchList(site.client, 'cms/v2/posts', { per_page: 5 })).records).toHaveLength(5);
    site.items = [];
    const empty = await fetchList(site.client, 'cms/v2/posts', { per_page: 5 });
    expect(empty.records).toEqual([]);
    expect(empty.total).toBe(0);
  });

  it('refuses a page longer than per_page, naming the request and both counts', async () => {
    site.answer = () => ({ data: items(1, 2, 3) });
    const error = await fetchList(site.client, 'cms/v2/posts', { per_page: 2 }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(SiteError);
    expect((error as SiteError).url).toBe('https://site.test/cms-json/cms/v2/posts?n=1');
    expect((error as SiteError).message).toBe(
      'https://site.test/cms-json/cms/v2/posts?n=1 answered 3 items where per_page=2 allows 2: it does not page like a cms-json site',
    );
  });

  it('does not bound a request that names no per_page', async () => {
    site.items = items(...Array.from({ length: 40 }, (_, i) => i + 1));
    site.answer = () => ({ data: site.items });
    expect((await fetchList(site.client, 'cms/v2/posts', {})).records).toHaveLength(40);
  });

  it('refuses an answer that is not a list, naming the request', async () => {
    for (const data of [{ id: 1 }, 'posts', null, undefined, 3]) {
      site.answer = () => ({ data });
      const error = await fetchList(site.client, 'cms/v2/posts', { per_page: 2 }).catch(
        (e: unknown) => e,
      );
      expect(error, JSON.stringify(data)).toBeInstanceOf(SiteError);
      expect((error as SiteError).url).toMatch(/^https:\/\/site\.test\/cms-json\/cms\/v2\/posts/);
      expect((error as SiteError).message).toMatch(
        /^https:\/\/site\.test\/cms-json\/cms\/v2\/posts\?n=\d+ answered something other than a list; is this a cms-json site\?$/,
      );
    }
  });

  it('reads a page past the last one (400 rest_post_invalid_page_number) as an empty page', async () => {
    const url = 'https://site.test/cms-json/cms/v2/posts?page=9';
    site.failure = new HttpError({
      status: 400,
      method: 'GET',
      url,
      serverCode: 'rest_post_invalid_page_number',
    });
    expect(await fetchList(site.client, 'cms/v2/posts', { page: 9 })).toEqual({
      url,
      records: [],
      total: undefined,
      totalPages: undefined,
      date: undefined,
    });
  });

  it('passes every other failure on unchanged', async () => {
    const failures = [
      new HttpError({ status: 400, method: 'GET', url: 'u', serverCode: 'rest_invalid_param' }),
      new HttpError({ status: 400, method: 'GET', url: 'u' }),
      new HttpError({
        status: 404,
        method: 'GET',
        url: 'u',
        serverCode: 'rest_post_invalid_page_number',
      }),
      new NetworkError({ method: 'GET', url: 'u', reason: 'connection reset' }),
      // Not an HttpError, though it looks like one.
      Object.assign(new Error('lookalike'), {
        status: 400,
        serverCode: 'rest_post_invalid_page_number',
        url: 'u',
      }),
    ];
    for (const failure of failures) {
      site.failure = failure;
      await expect(fetchList(site.client, 'cms/v2/posts', { page: 2 })).rejects.toBe(failure);
    }
  });
});

describe('remoteCount', () => {
  it('asks for one record under the filter and gives X-CMS-Total', async () => {
    const site = new FakeListSite();
    site.items = items(1, 2, 3);
    expect(await remoteCount(site.client, 'cms/v2/pages', { status: 'any', per_page: 50 })).toBe(3);
    expect(site.requests).toEqual([
      { route: 'cms/v2/pages', query: { status: 'any', per_page: 1 } },
    ]);
  });

  it('is undefined when the server sends no count', async () => {
    const site = new FakeListSite();
    site.answer = () => ({ headers: {} });
    expect(await remoteCount(site.client, 'cms/v2/pages', {})).toBeUndefined();
  });
});

describe('presentIds (include probes)', () => {
  let site: FakeListSite;
  beforeEach(() => {
    site = new FakeListSite();
    site.items = items(1, 2, 4, 5, 7, 8, 9);
  });

  it('finds which ids the site still lists, one request per chunk of ids, in id order', async () => {
    const present = await presentIds(
      site.client,
      'cms/v2/posts',
      { status: 'any' },
      [1, 2, 3, 4, 5, 6, 7],
      3,
    );
    expect([...present].sort((a, b) => a - b)).toEqual([1, 2, 4, 5, 7]);
    expect(site.requests.map((request) => request.query)).toEqual([
      { status: 'any', include: [1, 2, 3], per_page: 3, orderby: 'id', order: 'asc' },
      { status: 'any', include: [4, 5, 6], per_page: 3, orderby: 'id', order: 'asc' },
      { status: 'any', include: [7], per_page: 1, orderby: 'id', order: 'asc' },
    ]);
    expect(new Set(site.requests.map((request) => request.route))).toEqual(
      new Set(['cms/v2/posts']),
    );
  });

  it('makes exactly one request per chunk when the ids fill the chunks, and none for no ids', async () => {
    await presentIds(site.client, 'cms/v2/posts', {}, [1, 2, 3, 4], 2);
    expect(site.requests.map((request) => request.query['include'])).toEqual([
      [1, 2],
      [3, 4],
    ]);
    site.requests.length = 0;
    expect([...(await presentIds(site.client, 'cms/v2/posts', {}, [], 2))]).toEqual([]);
    expect(site.requests).toEqual([]);
  });

  it('keeps only numeric ids from what the site sends, and survives records that are not objects', async () => {
    site.answer = () => ({ data: [null, 'x', { id: '2' }, { title: 'no id' }, { id: 5 }] });
    const present = await presentIds(site.client, 'cms/v2/posts', {}, [2, 5, 6, 7, 8], 5);
    expect([...present]).toEqual([5]);
  });

  it('fails when a probe fails', async () => {
    site.failure = new NetworkError({ method: 'GET', url: 'u', reason: 'connection reset' });
    await expect(presentIds(site.client, 'cms/v2/posts', {}, [1], 5)).rejects.toBe(site.failure);
  });
});

describe('fetchChildren', () => {
  let site: FakeListSite;
  beforeEach(() => {
    site = new FakeListSite();
    // Children of 10 (ids 11–15), of 20 (21–22), of 30 (none), of 40 (41); and others.
    site.items = [
      ...[11, 12, 13, 14, 15].map((id) => ({ id, parent: 10 })),
      { id: 21, parent: 20 },
      { id: 22, parent: 20 },
      { id: 41, parent: 40 },
      { id: 50 },
      { id: 61, parent: 60 },
    ];
  });

  it('walks every page of every chunk of parents, in id order, until a short page', async () => {
    const records = await fetchChildren(
      site.client,
      'cms/v2/pages',
      { status: 'any' },
      [10, 20, 30, 40],
      2,
      3,
    );
    expect((records as Item[]).map((record) => record.id)).toEqual([
      11, 12, 13, 14, 15, 21, 22, 41,
    ]);
    expect(site.requests.map((request) => request.query)).toEqual([
      ...[1, 2, 3, 4].map((page) => ({
        status: 'any',
        parent: [10, 20, 30],
        per_page: 2,
        page,
        orderby: 'id',
        order: 'asc',
      })),
      { status: 'any', parent: [40], per_page: 2, page: 1, orderby: 'id', order: 'asc' },
    ]);
  });

  it('asks for the next page after a full one, even when X-CMS-TotalPages says it was the last', async () => {
    site.items = [11, 12, 13, 14].map((id) => ({ id, parent: 10 }));
    site.answer = () => ({ headers: { 'x-cms-total': '2', 'x-cms-totalpages': '1' } });
    const records = await fetchChildren(site.client, 'cms/v2/pages', {}, [10], 2, 5);
    expect((records as Item[]).map((record) => record.id)).toEqual([11, 12, 13, 14]);
    expect(site.requests.map((request) => request.query['page'])).toEqual([1, 2, 3]);
  });

  it('asks nothing for no parents', async () => {
    expect(await fetchChildren(site.client, 'cms/v2/pages', {}, [], 2, 5)).toEqual([]);
    expect(site.requests).toEqual([]);
  });
});
