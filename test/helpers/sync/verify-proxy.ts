import type { ReferenceSite } from '../reference.js';
import { startTestServer, type TestServer } from '../test-server.js';

/**
 * A server on 127.0.0.1 that passes every request on to the reference site and returns its
 * answer, except that the JSON list of `path` (e.g. `/pl/cms-json/cms/v2/posts`) goes through
 * `rewrite` first: a site that lists records the reference never sends (null, an id that is
 * not a number, a `modified_gmt` that is not a string).
 */
export function startListingProxy(
  site: ReferenceSite,
  path: string,
  rewrite: (records: unknown[]) => unknown[],
): Promise<TestServer> {
  return startTestServer(async (request, response) => {
    const headers: Record<string, string> = {};
    const auth = request.headers.authorization;
    if (auth !== undefined) headers['authorization'] = auth;
    const answer = await fetch(`${site.url}${request.url}`, { method: request.method, headers });
    let body = Buffer.from(await answer.arrayBuffer());
    if (new URL(request.url, 'http://x').pathname === path && answer.status === 200) {
      body = Buffer.from(JSON.stringify(rewrite(JSON.parse(body.toString('utf8')) as unknown[])));
    }
    const out: Record<string, string> = {};
    for (const name of ['content-type', 'x-cms-total', 'x-cms-totalpages', 'date']) {
      const value = answer.headers.get(name);
      if (value !== null) out[name] = value;
    }
    response.writeHead(answer.status, out);
    response.end(body);
  });
}
