import type { ServerResponse } from 'node:http';
import { startTestServer, type TestServer } from '../test-server.js';

/** An answer of the scripted site: status, JSON body, headers. */
export interface ScriptedAnswer {
  readonly status: number;
  readonly body: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

/** An empty list page with `X-CMS-Total: total`. */
export function listAnswer(total: number): ScriptedAnswer {
  return { status: 200, body: [], headers: { 'x-cms-total': String(total) } };
}

/** A REST error body as the interface sends it. */
export function restError(status: number, code: string, details?: unknown): ScriptedAnswer {
  return {
    status,
    body: {
      code,
      message: `refused (${code})`,
      data: details === undefined ? { status } : { status, details },
    },
  };
}

/**
 * A site that answers each collection route of one language (`/pl/cms-json/cms/v2/{name}`) with
 * the scripted answer of that collection (404 for anything else): for the refusals the
 * reference site does not make (a 401 or 403 after the credentials check passed, a 400 for
 * another parameter, a 500). An answer may depend on the request's URL. `requests` records
 * what was asked.
 */
export function startScriptedSite(
  answers: Readonly<Record<string, ScriptedAnswer | ((url: URL) => ScriptedAnswer)>>,
): Promise<TestServer> {
  return startTestServer((request, response: ServerResponse) => {
    const url = new URL(request.url, 'http://x');
    const match = /^\/pl\/cms-json\/cms\/v2\/([a-z]+)$/.exec(url.pathname);
    const scripted = match && answers[match[1]!];
    const answer =
      (typeof scripted === 'function' ? scripted(url) : scripted) ??
      restError(404, 'rest_no_route');
    response.writeHead(answer.status, {
      'content-type': 'application/json; charset=UTF-8',
      ...answer.headers,
    });
    response.end(JSON.stringify(answer.body));
  });
}
