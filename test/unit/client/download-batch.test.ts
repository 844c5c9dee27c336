import { createHash } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { CmsClient } from '../../../src/client/index.js';
import { BodyError, HttpError, SiteError, UnsafeUrlError } from '../../../src/errors.js';
import { sendJson, startTestServer, type TestServer } from '../../helpers/test-server.js';

let servers: TestServer[] = [];
let clients: CmsClient[] = [];

afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  clients = [];
  servers = [];
});

const png = Buffer.from([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a,
  ...Array.from({ length: 300 }, (_, i) => i % 256),
]);

describe('download', () => {
  it('returns the bytes with their sha256, content type and etag', async () => {
    const server = await startTestServer((_q, response) => {
      response.writeHead(200, {
        'content-type': 'image/png',
        etag: '"v1"',
        'content-length': png.length,
      });
      response.end(png);
    });
    servers.push(server);
    const client = new CmsClient({ site: server.url, lang: 'pl', requestsPerSecond: 0 });
    clients.push(client);
    const file = await client.download(`${server.url}/pl/cms-content/uploads/2024/05/a.png`);
    expect(file.data.equals(png)).toBe(true);
    expect(file).toMatchObject({
      sha256: createHash('sha256').update(png).digest('hex'),
      bytes: png.length,
      contentType: 'image/png',
      etag: '"v1"',
    });
  });

  it('refuses URLs outside the allowed origins, and redirects that leave them', async () => {
    const other = await startTestServer((_q, response) => response.end('nope'));
    const server = await startTestServer((_q, response) => {
      response.writeHead(302, { location: `${other.url}/evil.png` });
      response.end();
    });
    servers.push(server, other);
    const client = new CmsClient({ site: server.url, lang: 'pl', requestsPerSecond: 0 });
    clients.push(client);
    for (const url of [`${other.url}/a.png`, 'file:///etc/passwd', 'not a url']) {
      const error = await client.download(url).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(UnsafeUrlError);
      expect((error as UnsafeUrlError).code).toBe('E_UNSAFE_URL');
    }
    await expect(client.download(`${server.url}/redirect.png`)).rejects.toBeInstanceOf(
      UnsafeUrlError,
    );
    expect(other.requests).toHaveLength(0);
  });

  it('follows redirects within allowed origins and sends credentials only to the site', async () => {
    const cdn = await startTestServer((_q, response) => {
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(png);
    });
    const server = await startTestServer((_q, response) => {
      response.writeHead(301, { location: `${cdn.url}/a.png` });
      response.end();
    });
    servers.push(server, cdn);
    const client = new CmsClient({
      site: server.url,
      lang: 'pl',
      requestsPerSecond: 0,
      auth: { user: 'u', password: 'p' },
    });
    clients.push(client);
    const file = await client.download(`${server.url}/a.png`, {
      allowedOrigins: [server.url, cdn.url],
    });
    expect(file.url).toBe(`${cdn.url}/a.png`);
    expect(file.data.equals(png)).toBe(true);
    expect(server.requests[0]?.headers.authorization).toMatch(/^Basic /);
    expect(cdn.requests[0]?.headers.authorization).toBeUndefined();
  });

  it('enforces maxBytes and maps a 404 to HttpError', async () => {
    const server = await startTestServer((request, response) => {
      if (request.url.endsWith('missing.png')) {
        response.writeHead(404, { 'content-type': 'text/html' });
        return response.end('<h1>Not found</h1>');
      }
      response.writeHead(200, { 'content-type': 'image/png' });
      response.end(png);
    });
    servers.push(server);
    const client = new CmsClient({ site: server.url, lang: 'pl', requestsPerSecond: 0 });
    clients.push(client);
    await expect(client.download(`${server.url}/a.png`, { maxBytes: 100 })).rejects.toBeInstanceOf(
      BodyError,
    );
    await expect(client.download(`${server.url}/missing.png`)).rejects.toMatchObject({
      status: 404,
    });
    await expect(client.download(`${server.url}/missing.png`)).rejects.toBeInstanceOf(HttpError);
  });
});

describe('batch', () => {
  it('posts the requests and types the 207 body', async () => {
    const server = await startTestServer((request, response) => {
      const sent = JSON.parse(request.body.toString()) as { requests: unknown[] };
      expect(sent.requests).toHaveLength(2);
      sendJson(response, 207, {
        failed: null,
        responses: [
          {
            body: { id: 5, title: { raw: 'A' } },
            status: 201,
            headers: { Location: 'http://x/pl/cms-json/cms/v2/posts/5', Allow: 'GET, POST' },
          },
          { body: { id: 3 }, status: 200, headers: [] },
        ],
      });
    });
    servers.push(server);
    const client = new CmsClient({ site: server.url, lang: 'pl', requestsPerSecond: 0 });
    clients.push(client);
    const result = await client.batch([
      { path: 'cms/v2/posts', body: { title: 'A', status: 'draft' } },
      { method: 'PATCH', path: '/cms/v2/posts/3', body: { slug: 'b' } },
    ]);
    expect(result.failed).toBeNull();
    expect(result.responses[0]).toEqual({
      status: 201,
      body: { id: 5, title: { raw: 'A' } },
      headers: { Location: 'http://x/pl/cms-json/cms/v2/posts/5', Allow: 'GET, POST' },
    });
    expect(result.responses[1]).toEqual({ status: 200, body: { id: 3 }, headers: {} });
    const sent = JSON.parse(server.requests[0]!.body.toString()) as unknown;
    expect(server.requests[0]).toMatchObject({ method: 'POST', url: '/pl/cms-json/batch/v1' });
    expect(server.requests[0]?.headers['content-type']).toMatch(/^application\/json/);
    expect(sent).toEqual({
      validation: 'require-all-validate',
      requests: [
        { method: 'POST', path: '/cms/v2/posts', body: { title: 'A', status: 'draft' } },
        { method: 'PATCH', path: '/cms/v2/posts/3', body: { slug: 'b' } },
      ],
    });
  });

  it('keeps the nulls of a failed validation and refuses a body of the wrong shape', async () => {
    let answer: unknown = {
      failed: 'validation',
      responses: [
        null,
        {
          body: {
            code: 'rest_invalid_param',
            message: 'Invalid parameter(s): status',
            data: { status: 400 },
          },
          status: 400,
          headers: [],
        },
      ],
    };
    const server = await startTestServer((_q, response) => sendJson(response, 207, answer));
    servers.push(server);
    const client = new CmsClient({ site: server.url, lang: 'pl', requestsPerSecond: 0 });
    clients.push(client);
    const requests = [
      { path: '/cms/v2/posts/1', method: 'PUT' as const, body: { slug: 'ok' } },
      { path: '/cms/v2/posts/2', method: 'PUT' as const, body: { status: 'bogus' } },
    ];
    const result = await client.batch(requests, 'require-all-validate');
    expect(result.failed).toBe('validation');
    expect(result.responses[0]).toBeNull();
    expect(result.responses[1]).toMatchObject({
      status: 400,
      body: { code: 'rest_invalid_param' },
    });

    answer = { failed: null, responses: [{ status: 200, body: {}, headers: [] }] };
    await expect(client.batch(requests)).rejects.toBeInstanceOf(SiteError);
    answer = { failed: null, responses: [{ body: {} }, null] };
    await expect(client.batch(requests)).rejects.toThrow(/response 0 without a status/);
  });
});
