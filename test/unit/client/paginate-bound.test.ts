/**
 * The bound of `CmsClient.paginate` (issue 14, point 1): a walk asks for at most
 * ⌈total/per_page⌉ + 2 pages of what its first page declared, refuses a declared total past
 * the walk's item cap at once, and without a declaration stops at the cap. The numbers here
 * are written out, not imported, so that a change of the bound fails these tests.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { CmsClient } from '../../../src/client/index.js';
import { SiteError } from '../../../src/errors.js';
import { sendJson, startTestServer, type TestServer } from '../../helpers/test-server.js';

let server: TestServer | undefined;
let client: CmsClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

/** A server that answers every page with `per_page` new ids and the headers `headers` says. */
async function endless(
  headers: (page: number) => Record<string, string>,
): Promise<{ client: CmsClient; server: TestServer }> {
  server = await startTestServer((request, response) => {
    const url = new URL(request.url, 'http://x');
    const page = Number(url.searchParams.get('page') ?? '1');
    const perPage = Number(url.searchParams.get('per_page') ?? '10');
    const items = Array.from({ length: perPage }, (_, i) => ({ id: page * 1000 + i }));
    sendJson(response, 200, items, headers(page));
  });
  client = new CmsClient({
    site: server.url,
    lang: 'es',
    requestsPerSecond: 0,
    sleep: async () => {},
  });
  return { client, server };
}

async function walk(
  c: CmsClient,
  query: Record<string, number>,
  options: { maxItems?: number } = {},
): Promise<{ pages: number; error: unknown }> {
  let pages = 0;
  try {
    for await (const _page of c.paginate('cms/v2/posts', query, options)) {
      pages += 1;
      if (pages > 1000) throw new Error('runaway walk');
    }
    return { pages, error: undefined };
  } catch (error) {
    return { pages, error };
  }
}

describe('CmsClient.paginate against endless pagination', () => {
  it('stops 2 pages past what the first page declared when X-CMS-TotalPages keeps growing', async () => {
    const { client: c, server: s } = await endless((page) => ({
      'x-cms-total': String((page + 1) * 10),
      'x-cms-totalpages': String(page + 1),
    }));
    const { pages, error } = await walk(c, { per_page: 10 });
    expect(error).toBeInstanceOf(SiteError);
    // Page 1 declared 20 items, 2 pages: pages 1-4 are read, page 5 is never asked for.
    expect(s.requests).toHaveLength(4);
    expect(pages).toBe(4);
    const message = (error as SiteError).message;
    expect(message).toContain(`${s.url}/es/cms-json/cms/v2/posts?per_page=10&page=4`);
    expect(message).toMatch(/page 4 still says another page follows/);
    expect(message).toMatch(/declared X-CMS-Total: 20, X-CMS-TotalPages: 2 \(2 pages of 10\)/);
    expect(message).not.toContain('\n');
  });

  it('stops when a Link rel=next never ends after X-CMS-Total: 25', async () => {
    const { client: c, server: s } = await endless((page) => ({
      'x-cms-total': '25',
      link: `<${server!.url}/es/cms-json/cms/v2/posts?page=${page + 1}>; rel="next"`,
    }));
    const { error } = await walk(c, { per_page: 10 });
    expect(error).toBeInstanceOf(SiteError);
    expect(s.requests).toHaveLength(5); // ⌈25/10⌉ + 2
  });

  it('without any total, stops at the walk item cap', async () => {
    const { client: c, server: s } = await endless(() => ({}));
    const { error } = await walk(c, { per_page: 10 }, { maxItems: 50 });
    expect(error).toBeInstanceOf(SiteError);
    expect(s.requests).toHaveLength(5);
    expect((error as SiteError).message).toMatch(
      /declared no total and cms-mirror reads at most 50 items from one list/,
    );
  });

  it('refuses a declared total of 10^9 after one request', async () => {
    const { client: c, server: s } = await endless(() => ({
      'x-cms-total': '1000000000',
      'x-cms-totalpages': '100000000',
    }));
    const { pages, error } = await walk(c, { per_page: 10 });
    expect(error).toBeInstanceOf(SiteError);
    expect(pages).toBe(0);
    expect(s.requests).toHaveLength(1);
    expect((error as SiteError).message).toMatch(
      /declares X-CMS-Total: 1000000000, X-CMS-TotalPages: 100000000 on its first page, more than the 1000000 items/,
    );
  });

  it('refuses a declared total past a smaller cap the caller sets', async () => {
    const { client: c, server: s } = await endless(() => ({ 'x-cms-total': '51' }));
    const { error } = await walk(c, { per_page: 10 }, { maxItems: 50 });
    expect((error as SiteError).code).toBe('E_SITE');
    expect(s.requests).toHaveLength(1);
  });

  it('counts the declared pages from page 1 when the walk starts later', async () => {
    const { client: c, server: s } = await endless((page) => ({
      'x-cms-total': '30',
      link: `<${server!.url}/es/cms-json/cms/v2/posts?page=${page + 1}>; rel="next"`,
    }));
    const { pages, error } = await walk(c, { per_page: 10, page: 2 });
    expect(error).toBeInstanceOf(SiteError);
    // 3 declared pages + 2: the walk may reach page 5, so pages 2-5.
    expect(pages).toBe(4);
    expect(s.requests).toHaveLength(4);
  });

  it('lets a list that grows while it is walked finish within the slack', async () => {
    let count = 25;
    server = await startTestServer((request, response) => {
      const url = new URL(request.url, 'http://x');
      const page = Number(url.searchParams.get('page') ?? '1');
      const pagesNow = Math.ceil(count / 10);
      const items = Array.from({ length: count }, (_, i) => ({ id: i + 1 })).slice(
        (page - 1) * 10,
        page * 10,
      );
      sendJson(response, 200, items, {
        'x-cms-total': String(count),
        'x-cms-totalpages': String(pagesNow),
      });
      count += 5; // 30, 35, 40: three pages declared, four read
    });
    client = new CmsClient({ site: server.url, lang: 'es', requestsPerSecond: 0 });
    const { pages, error } = await walk(client, { per_page: 10 });
    expect(error).toBeUndefined();
    expect(pages).toBe(4);
  });
});
