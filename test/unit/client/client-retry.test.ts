import { afterEach, describe, expect, it } from 'vitest';
import { CmsClient } from '../../../src/client/index.js';
import type { ClientOptions } from '../../../src/client/index.js';
import { BodyError, HttpError, NetworkError } from '../../../src/errors.js';
import {
  recordingSleep,
  restError,
  sendJson,
  startTestServer,
  type TestHandler,
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

async function setup(handler: TestHandler, options: Partial<ClientOptions> = {}) {
  server = await startTestServer(handler);
  const sleeper = recordingSleep();
  client = new CmsClient({
    site: server.url,
    lang: 'pl',
    requestsPerSecond: 0,
    sleep: sleeper.sleep,
    random: () => 0.5,
    ...options,
  });
  return { server, client, delays: sleeper.delays };
}

/** Fails the first `times` requests with `fail`, then answers `[{id: 1}]`. */
function failThenSucceed(times: number, fail: TestHandler): TestHandler {
  return (request, response, index, raw) => {
    if (index < times) return fail(request, response, index, raw);
    sendJson(response, 200, [{ id: 1 }]);
  };
}

describe('CmsClient retries', () => {
  for (const status of [500, 503, 408, 429]) {
    it(`retries a ${status} and then succeeds`, async () => {
      const { client, server } = await setup(
        failThenSucceed(2, (_q, response) =>
          sendJson(response, status, restError('oops', 'transient', status)),
        ),
      );
      const response = await client.get<{ id: number }[]>('cms/v2/posts');
      expect(response.data).toEqual([{ id: 1 }]);
      expect(server.requests).toHaveLength(3);
      expect(client.stats).toMatchObject({ requests: 3, retries: 2 });
    });
  }

  it('waits what Retry-After asks (seconds and HTTP date) instead of its own backoff', async () => {
    const now = Date.parse('2024-05-01T12:00:00Z');
    const { client, delays } = await setup(
      failThenSucceed(2, (_q, response, index) =>
        sendJson(response, 429, restError('too_many', 'slow down', 429), {
          'retry-after': index === 0 ? '7' : 'Wed, 01 May 2024 12:00:03 GMT',
        }),
      ),
      { now: () => now, retryMaxMs: 1_000 },
    );
    await client.get('cms/v2/posts');
    expect(delays).toEqual([7_000, 3_000]);
  });

  it('backs off exponentially with jitter when the server gives no Retry-After', async () => {
    const { client, delays } = await setup(
      failThenSucceed(3, (_q, response) => sendJson(response, 502, {})),
      { retryBaseMs: 100, retryMaxMs: 10_000 },
    );
    await client.get('cms/v2/posts');
    // random() = 0.5: half of 100, 200, 400.
    expect(delays).toEqual([50, 100, 200]);
  });

  for (const [status, code] of [
    [400, 'rest_invalid_param'],
    [401, 'rest_forbidden_context'],
    [404, 'rest_no_route'],
    [410, 'rest_already_trashed'],
  ] as const) {
    it(`does not retry a ${status} and reports the server code`, async () => {
      const { client, server } = await setup((_q, response) =>
        sendJson(response, status, restError(code, 'Nope.', status)),
      );
      const error = await client.get('cms/v2/posts', { context: 'edit' }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect(error).toMatchObject({
        code: 'E_HTTP',
        status,
        method: 'GET',
        serverCode: code,
        serverMessage: 'Nope.',
        url: `${server.url}/pl/cms-json/cms/v2/posts?context=edit`,
      });
      expect(server.requests).toHaveLength(1);
      expect(client.stats.retries).toBe(0);
    });
  }

  it('gives up after `retries` retries with an HttpError carrying the server code', async () => {
    const { client, server } = await setup(
      (_q, response) =>
        sendJson(response, 503, restError('maintenance', 'Down for maintenance.', 503)),
      { retries: 3 },
    );
    const error = await client.get('cms/v2/posts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(HttpError);
    expect(error).toMatchObject({ status: 503, serverCode: 'maintenance' });
    expect(server.requests).toHaveLength(4);
  });

  it('retries a connection reset', async () => {
    const { client, server } = await setup(
      failThenSucceed(2, (_q, response) => response.socket?.destroy()),
    );
    expect((await client.get('cms/v2/posts')).data).toEqual([{ id: 1 }]);
    expect(server.requests).toHaveLength(3);
  });

  it('gives a NetworkError when resets go on past the last retry', async () => {
    const { client, server } = await setup((_q, response) => response.socket?.destroy(), {
      retries: 2,
    });
    const error = await client.get('cms/v2/posts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as NetworkError).code).toBe('E_NETWORK');
    expect((error as NetworkError).message).toContain('/pl/cms-json/cms/v2/posts');
    expect(server.requests).toHaveLength(3);
  });

  it('retries a body cut short by the connection (Content-Length not reached)', async () => {
    const { client, server } = await setup(
      failThenSucceed(1, (_q, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '200' });
        response.write('[{"id":1},{"id":');
        setTimeout(() => response.socket?.destroy(), 5);
      }),
    );
    expect((await client.get('cms/v2/posts')).data).toEqual([{ id: 1 }]);
    expect(server.requests).toHaveLength(2);
  });

  it('retries a 2xx whose JSON is malformed, then fails with a BodyError naming the URL', async () => {
    const cut: TestHandler = (_q, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('[{"id":1},{"id":');
    };
    const first = await setup(failThenSucceed(1, cut));
    expect((await first.client.get('cms/v2/posts')).data).toEqual([{ id: 1 }]);
    await first.client.close();
    await first.server.close();

    const { client, server } = await setup(cut, { retries: 2 });
    const error = await client.get('cms/v2/posts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(BodyError);
    expect(error).toMatchObject({ code: 'E_BODY', reason: 'malformed' });
    expect((error as Error).message).toContain(`${server.url}/pl/cms-json/cms/v2/posts`);
    expect(server.requests).toHaveLength(3);
  });

  it('times out a hanging attempt, retries it, and ends in a NetworkError', async () => {
    const { client, server } = await setup(
      () => {
        // never answer
      },
      { timeoutMs: 150, retries: 1 },
    );
    const error = await client.get('cms/v2/posts').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NetworkError);
    expect((error as Error).message).toMatch(/timed out/);
    expect(server.requests).toHaveLength(2);
  });

  it('recovers when only the first attempt hangs', async () => {
    const { client, server } = await setup(
      failThenSucceed(1, () => {
        // hang
      }),
      { timeoutMs: 150 },
    );
    expect((await client.get('cms/v2/posts')).data).toEqual([{ id: 1 }]);
    expect(server.requests).toHaveLength(2);
  });

  it('does not repeat a POST after a 500 or a reset (it may have been applied), but does after a 429', async () => {
    const { client, server } = await setup((request, response, index) => {
      if (index === 0) return sendJson(response, 500, restError('boom', 'Boom', 500));
      if (index === 1) return response.socket?.destroy();
      if (index === 2)
        return sendJson(response, 429, restError('slow', 'Slow down', 429), { 'retry-after': '1' });
      sendJson(response, 201, { id: 9, echo: JSON.parse(request.body.toString()) });
    });
    await expect(
      client.request('POST', 'cms/v2/posts', { body: { title: 'a' } }),
    ).rejects.toMatchObject({ status: 500 });
    await expect(
      client.request('POST', 'cms/v2/posts', { body: { title: 'a' } }),
    ).rejects.toBeInstanceOf(NetworkError);
    const created = await client.request<{ id: number; echo: unknown }>('POST', 'cms/v2/posts', {
      body: { title: 'a' },
    });
    expect(created).toMatchObject({ status: 201, data: { id: 9, echo: { title: 'a' } } });
    expect(server.requests).toHaveLength(4);
  });

  it('repeats a POST marked idempotent like a GET', async () => {
    const { client, server } = await setup(
      failThenSucceed(1, (_q, response) => sendJson(response, 500, {})),
    );
    await client.request('POST', 'batch/v1', { body: { requests: [] }, idempotent: true });
    expect(server.requests).toHaveLength(2);
  });

  it('refuses a body larger than maxBodyBytes, declared or streamed, without retrying', async () => {
    const big = JSON.stringify(Array.from({ length: 200 }, (_, id) => ({ id })));
    const { client, server } = await setup(
      (request, response) => {
        if (request.url.includes('chunked')) {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.write(big.slice(0, 500));
          response.end(big.slice(500));
          return;
        }
        response.writeHead(200, {
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(big),
        });
        response.end(big);
      },
      { maxBodyBytes: 1_000 },
    );
    for (const route of ['cms/v2/posts', 'cms/v2/chunked']) {
      const error = await client.get(route).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(BodyError);
      expect(error).toMatchObject({ reason: 'too-large' });
      expect((error as Error).message).toContain(`/pl/cms-json/${route}`);
    }
    expect(server.requests).toHaveLength(2);
  });

  it('reports HTML where JSON was expected, and invalid UTF-8, at once and by URL', async () => {
    const { client, server } = await setup((request, response) => {
      if (request.url.includes('html')) {
        response.writeHead(200, { 'content-type': 'text/html' });
        response.end('<br /><b>Warning</b>: something [{"id":1}]');
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(Buffer.from([0x5b, 0x22, 0xc3, 0x28, 0x61, 0x22, 0x5d]));
    });
    await expect(client.get('cms/v2/html')).rejects.toMatchObject({
      code: 'E_BODY',
      reason: 'not-json',
    });
    await expect(client.get('cms/v2/bytes')).rejects.toMatchObject({
      code: 'E_BODY',
      reason: 'not-utf8',
    });
    expect(server.requests).toHaveLength(2);
  });

  it('answers HEAD with the headers and no body', async () => {
    const { client, server } = await setup((_q, response) => {
      response.writeHead(200, {
        'x-cms-total': '57',
        'x-cms-totalpages': '6',
        'content-type': 'application/json',
      });
      response.end();
    });
    const response = await client.head('cms/v2/posts', { per_page: 10 });
    expect(response.data).toBeUndefined();
    expect(response.headers['x-cms-total']).toBe('57');
    expect(server.requests[0]?.method).toBe('HEAD');
  });
});
