import { afterEach, describe, expect, it } from 'vitest';
import { CmsClient, type ClientEvent } from '../../../src/client/index.js';
import { sendJson, startTestServer, type TestServer } from '../../helpers/test-server.js';

let server: TestServer | undefined;
let client: CmsClient | undefined;

afterEach(async () => {
  await client?.close();
  await server?.close();
  client = undefined;
  server = undefined;
});

describe('CmsClient pacing', () => {
  it('never has more than `concurrency` requests in flight', async () => {
    let inFlight = 0;
    let most = 0;
    server = await startTestServer((_q, response) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      setTimeout(() => {
        inFlight -= 1;
        sendJson(response, 200, []);
      }, 20);
    });
    client = new CmsClient({ site: server.url, lang: 'pl', concurrency: 3, requestsPerSecond: 0 });
    await Promise.all(
      Array.from({ length: 12 }, (_, i) => client!.get('cms/v2/posts', { page: i + 1 })),
    );
    expect(server.requests).toHaveLength(12);
    expect(most).toBe(3);
  });

  it('holds the concurrency slot through retries', async () => {
    let inFlight = 0;
    let most = 0;
    const seen = new Set<string>();
    server = await startTestServer((request, response) => {
      inFlight += 1;
      most = Math.max(most, inFlight);
      // The first attempt of every page fails once.
      const first = !seen.has(request.url);
      seen.add(request.url);
      setTimeout(() => {
        inFlight -= 1;
        sendJson(response, first ? 503 : 200, []);
      }, 10);
    });
    client = new CmsClient({
      site: server.url,
      lang: 'pl',
      concurrency: 2,
      requestsPerSecond: 0,
      sleep: async () => {},
    });
    await Promise.all(
      Array.from({ length: 6 }, (_, i) => client!.get('cms/v2/posts', { page: i + 1 })),
    );
    expect(most).toBe(2);
    expect(client.stats).toMatchObject({ requests: 12, retries: 6 });
  });

  it('starts at most `requestsPerSecond` attempts in any one-second window, retries included', async () => {
    const seen = new Set<string>();
    server = await startTestServer((request, response) => {
      // Every fifth page fails once, so some attempts are retries.
      const fail = !seen.has(request.url) && request.url.endsWith('0');
      seen.add(request.url);
      sendJson(response, fail ? 500 : 200, []);
    });
    // When the pacer granted each start, not when the test heard of it: under load the events
    // of a burst arrive late, and a late first start would make a window look short.
    const starts: (number | undefined)[] = [];
    const onEvent = (event: ClientEvent): void => {
      if (event.type === 'attempt') starts.push(event.pacedAt);
    };
    const rate = 25;
    client = new CmsClient({
      site: server.url,
      lang: 'pl',
      concurrency: 10,
      requestsPerSecond: rate,
      sleep: async () => {},
      onEvent,
    });
    await Promise.all(
      Array.from({ length: 30 }, (_, i) => client!.get('cms/v2/posts', { page: i + 1 })),
    );
    expect(client.stats.retries).toBe(3);
    expect(starts.length).toBe(33);
    // Every attempt, retries included, waited for the pacer.
    const granted = starts.map((at, i) => {
      expect(at, `attempt ${i}`).toBeTypeOf('number');
      return at as number;
    });
    granted.sort((a, b) => a - b);
    // Start i + rate was granted at least one window after start i (a lower bound only; the
    // slack covers the millisecond clock between the queue's reading and the pacer's).
    for (let i = 0; i + rate < granted.length; i += 1) {
      expect(granted[i + rate]! - granted[i]!).toBeGreaterThanOrEqual(1_000 - 50);
    }
  });
});
