import type { Socket } from 'node:net';
import { clientOptionsFor } from '../../../src/client/settings-options.js';
import { CmsClient } from '../../../src/client/index.js';
import { settingsFor } from '../mirror-check.js';
import type { Json, ReferenceSite } from '../reference.js';
import { startTestServer, type TestServer } from '../test-server.js';

/**
 * The client a pull makes for one language of the reference site (or of a proxy in front of
 * it): the test settings of `settingsFor` (no pacing), with or without the demo admin's
 * credentials (or `credentials` given; `retries`: the client's retries, for a failure the test wants at once). Close
 * it after the test.
 */
export function languageClient(
  site: Pick<ReferenceSite, 'url' | 'credentials'>,
  lang: string,
  options: {
    auth?: boolean;
    siteUrl?: string;
    retries?: number;
    credentials?: ReferenceSite['credentials'];
  } = {},
): CmsClient {
  const login = { ...site, credentials: options.credentials ?? site.credentials };
  const settings = settingsFor(login as ReferenceSite, '/nowhere/cache.sqlite', {
    languages: [lang],
    auth: options.auth ?? true,
  });
  if (options.retries !== undefined) settings.http = { ...settings.http, retries: options.retries };
  return new CmsClient(clientOptionsFor(settings, options.siteUrl ?? site.url, lang));
}

/** Headers of the site's answers a pull reads (the body is sent decoded, so no encoding). */
const PASSED_HEADERS = ['content-type', 'x-cms-total', 'x-cms-totalpages', 'date', 'link'];

/**
 * A server on 127.0.0.1 in front of the reference site: every request is forwarded as it is,
 * except the index (`GET /{lang}/cms-json/`), whose JSON body goes through `editIndex` first —
 * a site whose index lacks a route, say. `answerIndex` replaces the index answer entirely
 * (status, content type and body), for a site that is not a cms-json site; `editList`
 * edits list answers (items without a field, say). `openConnections`
 * counts the connections clients hold open to it.
 */
export async function startIndexProxy(
  site: ReferenceSite,
  options: {
    editIndex?: (index: Json) => Json;
    /** Edits every list answer (a JSON array) of the API path given (`/cms/v2/posts`). */
    editList?: (path: string, records: Json[]) => Json[];
    answerIndex?: { status: number; contentType: string; body: string };
  },
): Promise<TestServer & { openConnections(): number }> {
  const open = new Set<Socket>();
  const server = await startTestServer(async (request, response, _index, raw) => {
    if (!open.has(raw.socket)) {
      open.add(raw.socket);
      raw.socket.once('close', () => open.delete(raw.socket));
    }
    const isIndex = /^\/[a-z]{2}\/cms-json\/?(\?.*)?$/.test(request.url);
    if (isIndex && options.answerIndex !== undefined) {
      response.writeHead(options.answerIndex.status, {
        'content-type': options.answerIndex.contentType,
      });
      response.end(options.answerIndex.body);
      return;
    }
    const headers: Record<string, string> = {};
    const authorization = request.headers['authorization'];
    if (typeof authorization === 'string') headers['authorization'] = authorization;
    const answer = await fetch(`${site.url}${request.url}`, { method: request.method, headers });
    let body = Buffer.from(await answer.arrayBuffer());
    if (isIndex && answer.ok && options.editIndex !== undefined) {
      body = Buffer.from(JSON.stringify(options.editIndex(JSON.parse(body.toString('utf8')))));
    }
    const path = /^\/[a-z]{2}\/cms-json(\/[^?]*)/.exec(request.url)?.[1];
    if (!isIndex && path !== undefined && answer.ok && options.editList !== undefined) {
      const data = JSON.parse(body.toString('utf8')) as unknown;
      if (Array.isArray(data)) body = Buffer.from(JSON.stringify(options.editList(path, data)));
    }
    const passed: Record<string, string> = {};
    for (const name of PASSED_HEADERS) {
      const value = answer.headers.get(name);
      if (value !== null) passed[name] = value;
    }
    response.writeHead(answer.status, passed);
    response.end(body);
  });
  return { ...server, openConnections: () => open.size };
}
