import { afterEach, describe, expect, it } from 'vitest';
import { CmsClient, discoverSite, parseSiteIndex } from '../../../src/client/index.js';
import { SiteError } from '../../../src/errors.js';
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

const listArgs = {
  context: { type: 'string', enum: ['view', 'embed', 'edit'], default: 'view', required: false },
  page: { type: 'integer', default: 1, minimum: 1, required: false },
  per_page: { type: 'integer', default: 10, minimum: 1, maximum: 50, required: false },
};

/** A site index shaped like a deployed server's, with PCRE route keys. */
function siteIndex(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    name: 'Strona',
    description: 'Opis',
    url: 'http://example.test',
    home: 'http://example.test/pl/',
    gmt_offset: '5.5',
    timezone_string: '',
    namespaces: ['oembed/1.0', 'seo/v1', 'cms/v2'],
    authentication: {
      'application-passwords': {
        endpoints: { authorization: 'http://example.test/cms-admin/authorize-application.php' },
      },
    },
    routes: {
      '/': { namespace: '', methods: ['GET'], endpoints: [{ methods: ['GET'], args: {} }] },
      '/batch/v1': {
        namespace: '',
        methods: ['POST'],
        endpoints: [
          {
            methods: ['POST'],
            args: {
              validation: {
                type: 'string',
                enum: ['require-all-validate', 'normal'],
                default: 'normal',
              },
              requests: { type: 'array', required: true, maxItems: 20, items: { type: 'object' } },
            },
          },
        ],
      },
      '/cms/v2/posts': {
        namespace: 'cms/v2',
        methods: ['GET', 'POST'],
        endpoints: [
          { methods: ['GET'], allow_batch: { v1: true }, args: listArgs },
          { methods: ['POST'], allow_batch: { v1: true }, args: { title: { type: 'object' } } },
        ],
      },
      '/cms/v2/posts/(?P<id>[\\d]+)': {
        namespace: 'cms/v2',
        methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
        endpoints: [
          { methods: ['GET'], allow_batch: { v1: true }, args: { id: { type: 'integer' } } },
          {
            methods: ['POST', 'PUT', 'PATCH'],
            allow_batch: { v1: true },
            args: { id: { type: 'integer' }, slug: { type: 'string' } },
          },
          {
            methods: ['DELETE'],
            allow_batch: { v1: true },
            args: { force: { type: 'boolean', default: false } },
          },
        ],
      },
      '/cms/v2/posts/(?P<parent>[\\d]+)/revisions': {
        namespace: 'cms/v2',
        methods: ['GET'],
        endpoints: [{ methods: ['GET'], args: { parent: { type: 'integer' } } }],
      },
      '/cms/v2/media': {
        namespace: 'cms/v2',
        methods: ['GET', 'POST'],
        endpoints: [
          { methods: ['GET'], args: { context: listArgs.context } },
          { methods: ['POST'], args: {} },
        ],
      },
    },
    ...overrides,
  };
}

async function serve(
  body: unknown,
  status = 200,
  contentType = 'application/json',
): Promise<CmsClient> {
  server = await startTestServer((_q, response) => {
    if (contentType === 'application/json') return sendJson(response, status, body);
    response.writeHead(status, { 'content-type': contentType });
    response.end(String(body));
  });
  client = new CmsClient({ site: server.url, lang: 'pl', requestsPerSecond: 0, retries: 0 });
  return client;
}

describe('discoverSite', () => {
  it('reads the index fields and the limits from the route descriptors', async () => {
    const c = await serve(siteIndex());
    const site = await discoverSite(c, [
      'cms/v2/posts',
      { route: 'cms/v2/posts/{id}', methods: ['GET', 'PATCH'] },
      { route: 'batch/v1', methods: ['POST'] },
    ]);
    expect(server!.requests.map((r) => r.url)).toEqual(['/pl/cms-json/']);
    expect(site).toMatchObject({
      name: 'Strona',
      description: 'Opis',
      url: 'http://example.test',
      home: 'http://example.test/pl/',
      gmtOffset: 5.5,
      timezoneString: '',
      namespaces: ['oembed/1.0', 'seo/v1', 'cms/v2'],
      indexUrl: `${server!.url}/pl/cms-json/`,
    });
    expect(site.routes.has('cms/v2/posts/{parent}/revisions')).toBe(true);
    expect(site.perPageMax('cms/v2/posts')).toBe(50);
    expect(site.perPageMax('cms/v2/media')).toBe(100);
    expect(site.allowsBatch('cms/v2/posts', 'POST')).toBe(true);
    expect(site.allowsBatch('cms/v2/posts/42', 'patch')).toBe(true);
    expect(site.allowsBatch('cms/v2/posts/{id}', 'DELETE')).toBe(true);
    expect(site.allowsBatch('cms/v2/media', 'POST')).toBe(false);
    expect(site.allowsBatch('cms/v2/posts/42/revisions', 'GET')).toBe(false);
    expect(site.batchMaxItems()).toBe(20);
    expect(site.args('cms/v2/posts/7', 'PUT')).toEqual({
      id: { type: 'integer' },
      slug: { type: 'string' },
    });
    expect(site.args('cms/v2/nothing', 'GET')).toBeUndefined();
  });

  it('falls back to 25 per batch and 100 per page when the index does not say', () => {
    const body = siteIndex();
    const routes = body['routes'] as Record<string, unknown>;
    delete routes['/batch/v1'];
    const site = parseSiteIndex('http://x/pl/cms-json/', { ...body, gmt_offset: -3 });
    expect(site.batchMaxItems()).toBe(25);
    expect(site.perPageMax('cms/v2/posts/1/revisions')).toBe(100);
    expect(site.gmtOffset).toBe(-3);
  });

  it('names a missing namespace, route and method in one line', async () => {
    const c = await serve(siteIndex({ namespaces: ['oembed/1.0', 'cms/v2'] }));
    const error = await discoverSite(c, [
      'cms/v2/posts',
      'cms/v2/pages',
      { route: 'cms/v2/posts/{parent}/revisions', methods: ['GET', 'DELETE'] },
      { route: 'seo/v1/statistics' },
      { route: 'seo/v1/indexing/posts', methods: ['POST'] },
    ]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SiteError);
    const message = (error as SiteError).message;
    expect(message).not.toContain('\n');
    expect(message).toContain(`${server!.url}/pl/cms-json/`);
    expect(message).toContain('the route cms/v2/pages');
    expect(message).toContain('DELETE on cms/v2/posts/{parent}/revisions');
    expect(message).toContain('the namespace seo/v1');
    expect(message.match(/namespace seo\/v1/g)).toHaveLength(1);
    expect((error as SiteError).url).toBe(`${server!.url}/pl/cms-json/`);
  });

  it('says an HTML answer is not a cms-json site', async () => {
    const c = await serve(
      '<!doctype html><html><body>Welcome</body></html>',
      200,
      'text/html; charset=UTF-8',
    );
    const error = await discoverSite(c).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SiteError);
    expect((error as Error).message).toMatch(
      /is not a cms-json site: expected JSON, got text\/html/,
    );
    expect((error as Error).message).not.toContain('\n');
  });

  it('says a 404 answer is not a cms-json site', async () => {
    const c = await serve(
      restError('rest_no_route', 'No route was found matching the URL and request method.', 404),
      404,
    );
    await expect(discoverSite(c)).rejects.toThrow(
      /cms-json\/ is not a cms-json site: it answered 404 \(rest_no_route\)/,
    );
  });

  it('says a JSON document without routes is not a cms-json site', async () => {
    const c = await serve({ hello: 'world' });
    await expect(discoverSite(c)).rejects.toMatchObject({ code: 'E_SITE' });
  });

  it('refuses an unreadable gmt_offset', () => {
    expect(() => parseSiteIndex('http://x/', siteIndex({ gmt_offset: 'Europe/Warsaw' }))).toThrow(
      SiteError,
    );
  });
});
