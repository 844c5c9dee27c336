import { afterEach, describe, expect, it } from 'vitest';
import {
  CmsClient,
  basicAuthHeader,
  verifyCredentials,
  type ClientEvent,
} from '../../../src/client/index.js';
import { AuthError, ConfigError } from '../../../src/errors.js';
import {
  restError,
  sendJson,
  startTestServer,
  type TestServer,
} from '../../helpers/test-server.js';

const USER = 'editor-zofia';
const PASSWORD = 'abcd EFGH ijkl MNOP qrst UVWX';
const encoded = Buffer.from(`${USER}:${PASSWORD}`).toString('base64');

let servers: TestServer[] = [];
let clients: CmsClient[] = [];

afterEach(async () => {
  await Promise.all(clients.map((c) => c.close()));
  await Promise.all(servers.map((s) => s.close()));
  clients = [];
  servers = [];
});

function leaks(text: string): boolean {
  return (
    text.includes(PASSWORD) ||
    text.includes(encoded) ||
    text.includes('abcd') ||
    text.includes(USER)
  );
}

/** Everything a user could see of an error: message, fields, cause chain, stack. */
function everything(value: unknown): string {
  const seen = new Set<unknown>();
  const walk = (v: unknown): string => {
    if (typeof v !== 'object' || v === null || seen.has(v)) return String(v);
    seen.add(v);
    const own = Object.getOwnPropertyNames(v).map(
      (k) => `${k}=${walk((v as Record<string, unknown>)[k])}`,
    );
    return own.join(' ');
  };
  return walk(value);
}

describe('credentials', () => {
  it('sends application passwords as HTTP Basic to the site', async () => {
    const server = await startTestServer((_q, response) => sendJson(response, 200, []));
    servers.push(server);
    const client = new CmsClient({
      site: server.url,
      lang: 'pl',
      auth: { user: USER, password: PASSWORD },
    });
    clients.push(client);
    await client.get('cms/v2/posts', { context: 'edit' });
    expect(server.requests[0]?.headers.authorization).toBe(`Basic ${encoded}`);
    expect(basicAuthHeader({ user: USER, password: PASSWORD })).toBe(`Basic ${encoded}`);
  });

  it('keeps credentials out of every error, event, stats and response', async () => {
    const server = await startTestServer((request, response, index) => {
      if (request.url.includes('reset')) return response.socket?.destroy();
      if (request.url.includes('html')) {
        response.writeHead(200, { 'content-type': 'text/html' });
        return response.end('<html>login</html>');
      }
      if (index === 0) return sendJson(response, 503, restError('down', 'Down', 503));
      sendJson(
        response,
        401,
        restError(
          'rest_forbidden_context',
          'Sorry, you are not allowed to edit posts in this post type.',
          401,
        ),
      );
    });
    servers.push(server);
    const events: ClientEvent[] = [];
    const client = new CmsClient({
      site: server.url,
      lang: 'pl',
      auth: { user: USER, password: PASSWORD },
      retries: 1,
      sleep: async () => {},
      onEvent: (event) => events.push(event),
    });
    clients.push(client);
    const errors = await Promise.all([
      client.get('cms/v2/posts', { context: 'edit' }).catch((e: unknown) => e),
      client.get('cms/v2/reset').catch((e: unknown) => e),
      client.get('cms/v2/html').catch((e: unknown) => e),
      client.get('cms/v2/posts/7', { password: 'item-secret' }).catch((e: unknown) => e),
    ]);
    expect(errors.map((e) => (e as { code: string }).code).sort()).toEqual([
      'E_BODY',
      'E_HTTP',
      'E_HTTP',
      'E_NETWORK',
    ]);
    for (const error of errors) {
      expect(leaks(everything(error))).toBe(false);
      expect(everything(error)).not.toContain('item-secret');
    }
    expect(events.length).toBeGreaterThan(4);
    expect(leaks(JSON.stringify(events))).toBe(false);
    expect(JSON.stringify(events)).not.toContain('item-secret');
    expect(leaks(JSON.stringify(client.stats))).toBe(false);
    expect(leaks(JSON.stringify(client.options))).toBe(false);
    expect(leaks(everything(client))).toBe(false);
    expect(Object.keys(client.stats).sort()).toEqual(['bytes', 'requests', 'retries']);
  });

  it('refuses a site URL with credentials in it, without echoing them', () => {
    const attempt = (): unknown =>
      new CmsClient({ site: `http://${USER}:hunter2@127.0.0.1:1`, lang: 'pl' });
    expect(attempt).toThrow(ConfigError);
    try {
      attempt();
    } catch (error) {
      expect((error as Error).message).not.toContain('hunter2');
      expect((error as Error).message).toContain('CMS_USER');
    }
  });

  it('verifies credentials with a request that needs them, without saying which part is wrong', async () => {
    const good = `Basic ${encoded}`;
    const server = await startTestServer((request, response) => {
      if (request.headers.authorization === good)
        return sendJson(response, 200, [{ id: 1, status: 'draft' }]);
      sendJson(
        response,
        401,
        restError(
          'rest_forbidden_context',
          'Sorry, you are not allowed to edit posts in this post type.',
          401,
        ),
      );
    });
    servers.push(server);
    const right = new CmsClient({
      site: server.url,
      lang: 'pl',
      auth: { user: USER, password: PASSWORD },
    });
    const wrong = new CmsClient({
      site: server.url,
      lang: 'pl',
      auth: { user: USER, password: 'wrong' },
    });
    const none = new CmsClient({ site: server.url, lang: 'pl' });
    clients.push(right, wrong, none);
    await expect(verifyCredentials(right)).resolves.toBeUndefined();
    expect(server.requests[0]?.url).toBe('/pl/cms-json/cms/v2/posts?context=edit&per_page=1');
    const error = await verifyCredentials(wrong).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).message).toContain(
      'the site refused the credentials in CMS_USER/CMS_APP_PASSWORD',
    );
    expect((error as AuthError).message).not.toMatch(
      /user name|password is (wrong|incorrect)|unknown user/i,
    );
    expect(leaks(everything(error))).toBe(false);
    await expect(verifyCredentials(none)).rejects.toMatchObject({ code: 'E_AUTH' });
    await expect(
      verifyCredentials(wrong, { names: { user: 'SHOP_USER', password: 'SHOP_PASS' } }),
    ).rejects.toThrow(/SHOP_USER\/SHOP_PASS/);
  });
});
