import { afterEach, describe, expect, it } from 'vitest';
import { CmsClient, type ListPage } from '../../../src/client/index.js';
import { HttpError, SiteError } from '../../../src/errors.js';
import {
  restError,
  sendJson,
  startTestServer,
  type TestServer,
} from '../../helpers/test-server.js';

let server: TestServer | undefined;
let client: CmsClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

type Mode = 'headers' | 'link' | 'neither';

/** A collection of `count` items that announces its pages the way `mode` says. */
async function collection(count: number, mode: Mode): Promise<CmsClient> {
  server = await startTestServer((request, response) => {
    const url = new URL(request.url, 'http://x');
    const page = Number(url.searchParams.get('page') ?? '1');
    const perPage = Number(url.searchParams.get('per_page') ?? '10');
    const pages = Math.max(1, Math.ceil(count / perPage));
    if (page > pages) {
      sendJson(
        response,
        400,
        restError(
          'rest_post_invalid_page_number',
          'The page number requested is larger than the number of pages available.',
          400,
        ),
      );
      return;
    }
    const items = Array.from({ length: count }, (_, i) => ({ id: i + 1 })).slice(
      (page - 1) * perPage,
      page * perPage,
    );
    const headers: Record<string, string> = {};
    if (mode === 'headers') {
      headers['x-cms-total'] = String(count);
      headers['x-cms-totalpages'] = String(pages);
    }
    if (mode === 'headers' || mode === 'link') {
      const links: string[] = [];
      if (page > 1) links.push(`<${server!.url}${url.pathname}?page=${page - 1}>; rel="prev"`);
      if (page < pages) links.push(`<${server!.url}${url.pathname}?page=${page + 1}>; rel="next"`);
      if (links.length > 0) headers['link'] = links.join(', ');
    }
    sendJson(response, 200, items, headers);
  });
  client = new CmsClient({
    site: server.url,
    lang: 'es',
    requestsPerSecond: 0,
    sleep: async () => {},
  });
  return client;
}

async function all(
  c: CmsClient,
  query: Record<string, number> = {},
): Promise<ListPage<{ id: number }>[]> {
  const pages: ListPage<{ id: number }>[] = [];
  for await (const page of c.paginate<{ id: number }>('cms/v2/posts', query)) pages.push(page);
  return pages;
}

describe('CmsClient pagination', () => {
  it('walks pages by X-CMS-TotalPages and reports the totals', async () => {
    const c = await collection(25, 'headers');
    const pages = await all(c, { per_page: 10 });
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 5]);
    expect(pages[0]).toMatchObject({
      total: 25,
      totalPages: 3,
      page: 1,
      perPage: 10,
      hasNext: true,
    });
    expect(pages.flatMap((p) => p.items.map((i) => i.id))).toEqual(
      Array.from({ length: 25 }, (_, i) => i + 1),
    );
    expect(server!.requests).toHaveLength(3);
  });

  it('follows Link rel=next when there are no total headers', async () => {
    const c = await collection(20, 'link');
    const pages = await all(c, { per_page: 10 });
    expect(pages.map((p) => p.items.length)).toEqual([10, 10]);
    expect(pages[1]).toMatchObject({ total: undefined, totalPages: undefined, hasNext: false });
    // Two full pages, but the last one has no rel=next: no third request.
    expect(server!.requests).toHaveLength(2);
  });

  it('with neither, stops at a short page', async () => {
    const c = await collection(23, 'neither');
    const pages = await all(c, { per_page: 10 });
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 3]);
    expect(server!.requests).toHaveLength(3);
  });

  it('with neither and a full last page, treats the past-the-end 400 as done', async () => {
    const c = await collection(20, 'neither');
    const pages = await all(c, { per_page: 10 });
    expect(pages.map((p) => p.items.length)).toEqual([10, 10, 0]);
    expect(pages[2]).toMatchObject({ hasNext: false, page: 3 });
    expect(server!.requests).toHaveLength(3);
  });

  it('uses the server default of 10 per page when the query does not say', async () => {
    const c = await collection(10, 'neither');
    const pages = await all(c);
    expect(pages.map((p) => p.items.length)).toEqual([10, 0]);
  });

  it('starts at query.page and yields an empty walk for an empty collection', async () => {
    const c = await collection(0, 'headers');
    const pages = await all(c);
    expect(pages).toHaveLength(1);
    expect(pages[0]).toMatchObject({ items: [], hasNext: false, total: 0 });
  });

  it('still throws a past-the-end 400 on page 1 and other 400s on any page', async () => {
    server = await startTestServer((request, response) => {
      if (new URL(request.url, 'http://x').searchParams.get('page') === '1') {
        sendJson(response, 400, restError('rest_post_invalid_page_number', 'past the end', 400));
      } else {
        sendJson(
          response,
          400,
          restError('rest_invalid_param', 'Invalid parameter(s): per_page', 400),
        );
      }
    });
    client = new CmsClient({ site: server.url, lang: 'es', requestsPerSecond: 0 });
    await expect(client.listPage('cms/v2/posts', { page: 1 })).rejects.toBeInstanceOf(HttpError);
    await expect(client.listPage('cms/v2/posts', { page: 2, per_page: 101 })).rejects.toMatchObject(
      {
        serverCode: 'rest_invalid_param',
      },
    );
  });

  it('stops with a SiteError when the server ignores the page parameter', async () => {
    server = await startTestServer((_q, response) =>
      sendJson(response, 200, [{ id: 1 }, { id: 2 }]),
    );
    client = new CmsClient({ site: server.url, lang: 'es', requestsPerSecond: 0 });
    await expect(all(client, { per_page: 2 })).rejects.toBeInstanceOf(SiteError);
    expect(server.requests).toHaveLength(2);
  });

  it('refuses a list route that answers an object', async () => {
    server = await startTestServer((_q, response) => sendJson(response, 200, { id: 1 }));
    client = new CmsClient({ site: server.url, lang: 'es', requestsPerSecond: 0 });
    await expect(client.listPage('cms/v2/posts')).rejects.toMatchObject({ code: 'E_SITE' });
  });

  it('sends array and object arguments in the bracket form', async () => {
    const c = await collection(3, 'headers');
    await c.listPage('cms/v2/posts', { include: [3, 1], orderby: 'include', per_page: 2 } as never);
    expect(server!.requests[0]?.url).toBe(
      '/es/cms-json/cms/v2/posts?include[]=3&include[]=1&orderby=include&per_page=2',
    );
  });
});
