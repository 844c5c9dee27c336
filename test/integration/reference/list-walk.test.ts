import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, getJson, startReference } from '../../helpers/reference.js';
import type { ReferenceSite } from '../../helpers/reference.js';
import type { StoredItem } from '../../../src/reference/index.js';

/**
 * Lists ordered by date, modified or id, paged and narrowed by a range, answer what the site's
 * records say, also when the same filters come again after the site changed (the site keeps
 * counts per filter between requests). The oracle is computed here from `control.listItems`.
 */
let site: ReferenceSite;
beforeEach(async () => {
  site = await startReference({ posts: 240 });
});
afterEach(() => site.close());

type Key = 'modified' | 'date' | 'id';
const keyOf: Record<Key, (item: StoredItem) => number> = {
  modified: (item) => item.modifiedGmt,
  date: (item) => item.dateGmt,
  id: (item) => item.id,
};

interface Case {
  orderby: Key;
  order: 'asc' | 'desc';
  status?: string;
  after?: number;
  page: number;
  perPage: number;
}

function expected(c: Case): { ids: number[]; total: number } {
  const statuses = c.status === undefined ? undefined : new Set([c.status]);
  const key = keyOf[c.orderby];
  const matching = site.control
    .listItems('pl', 'posts')
    .filter((item) =>
      statuses ? statuses.has(item.status) : !['trash', 'auto-draft'].includes(item.status),
    )
    .filter((item) => c.after === undefined || item.modifiedGmt > c.after)
    .sort((a, b) => key(a) - key(b) || a.id - b.id);
  if (c.order === 'desc') matching.reverse();
  const start = (c.page - 1) * c.perPage;
  return {
    ids: matching.slice(start, start + c.perPage).map((item) => item.id),
    total: matching.length,
  };
}

async function listed(c: Case): Promise<{ ids: number[]; total: number }> {
  const response = await getJson(site, 'pl', '/cms/v2/posts', {
    auth: true,
    query: {
      orderby: c.orderby,
      order: c.order,
      status: c.status ?? 'any',
      per_page: c.perPage,
      page: c.page,
      _fields: 'id',
      ...(c.after === undefined
        ? {}
        : { modified_after: new Date(c.after * 1000).toISOString().replace(/\.000Z$/, 'Z') }),
    },
  });
  if (response.status === 400) return { ids: [], total: -1 };
  expect(response.status).toBe(200);
  return {
    ids: response.body.map((item: { id: number }) => item.id),
    total: Number(response.headers.get('x-cms-total')),
  };
}

function modifiedAt(fraction: number): number {
  const sorted = site.control
    .listItems('pl', 'posts')
    .map((item) => item.modifiedGmt)
    .sort((a, b) => a - b);
  return sorted[Math.floor(fraction * (sorted.length - 1))]!;
}

async function checkAll(cases: Case[]): Promise<void> {
  for (const c of cases) {
    const want = expected(c);
    const got = await listed(c);
    // A page past the last is a 400 on the site; the oracle says it holds nothing then.
    if (got.total === -1) expect(want.ids).toEqual([]);
    else expect([c, got]).toEqual([c, want]);
  }
}

function cases(): Case[] {
  const out: Case[] = [];
  for (const orderby of ['modified', 'date', 'id'] as const)
    for (const order of ['asc', 'desc'] as const)
      for (const status of [undefined, 'publish', 'draft'])
        for (const page of [1, 2, 7]) out.push({ orderby, order, status, page, perPage: 17 });
  for (const fraction of [0, 0.3, 0.9, 1])
    for (const order of ['asc', 'desc'] as const)
      for (const page of [1, 3])
        out.push({ orderby: 'modified', order, after: modifiedAt(fraction), page, perPage: 20 });
  return out;
}

describe('presorted list queries', () => {
  it('page, total and order follow the records for every order, status and range', async () => {
    await checkAll(cases());
  });

  it('the same filters after the site changed answer the new state', async () => {
    await checkAll(cases());
    const posts = site.control.listItems('pl', 'posts').filter((p) => p.status === 'publish');
    site.control.updateItem('pl', 'posts', posts[3]!.id, { title: 'Moved to the end' });
    site.control.updateItem('pl', 'posts', posts[40]!.id, { status: 'draft' });
    const removed = await callApi(site, 'pl', `/cms/v2/posts/${posts[7]!.id}`, {
      method: 'DELETE',
      auth: true,
      query: { force: true },
    });
    expect(removed.status).toBe(200);
    site.control.createItems('pl', 'posts', 3);
    await checkAll(cases());
  });
});
