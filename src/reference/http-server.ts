import type { IncomingMessage, ServerResponse } from 'node:http';
import { authenticate } from './auth.js';
import { parseBody, readBody } from './body-parser.js';
import { errorResponse } from './dispatch.js';
import type { FaultInjector } from './faults.js';
import { etagOf } from './media-files.js';
import { flatQuery, parseQueryString } from './query-string.js';
import { RestError } from './rest-error.js';
import { findUpload, isShortLinkQuery, shortLinkTarget } from './site-urls.js';
import { HTTP_METHODS } from './route-types.js';
import type { Dispatcher, HttpMethod, RestResponse } from './route-types.js';
import type { RequestLogEntry, SiteState } from './site-state.js';
import type { User } from './users.js';

/**
 * The node:http shell: classifies the URL (API, upload file, admin page, other), applies
 * injected faults, authenticates, parses the body, calls the dispatcher and writes the
 * answer. Every request is logged in `site.log`.
 */
export interface ServerDeps {
  readonly site: SiteState;
  readonly dispatchers: ReadonlyMap<string, Dispatcher>;
  readonly faults: () => FaultInjector;
  /** Timers of delayed answers, cleared when the site closes. */
  readonly timers: Set<NodeJS.Timeout>;
}

/** Requests kept in `site.requests` (oldest dropped first). */
export const MAX_LOG_ENTRIES = 100_000;

const API_PATH = /^\/([^/]+)\/cms-json(\/.*)?$/;
/** An uploaded file, under a language's prefix or none. */
const UPLOAD_PATH = /^\/(?:([^/]+)\/)?cms-content\/uploads\//;

const JSON_HEADERS = {
  'Content-Type': 'application/json; charset=UTF-8',
  'X-Content-Type-Options': 'nosniff',
  'Access-Control-Expose-Headers': 'X-CMS-Total, X-CMS-TotalPages, Link',
};

function wait(deps: ServerDeps, ms: number): Promise<void> {
  if (ms <= 0) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      deps.timers.delete(timer);
      resolve();
    }, ms);
    deps.timers.add(timer);
  });
}

function html(res: ServerResponse, status: number, title: string, body: string): number {
  const page = `<!doctype html>\n<html><head><meta charset="utf-8"><title>${title}</title></head><body>${body}</body></html>\n`;
  res.writeHead(status, {
    'Content-Type': 'text/html; charset=UTF-8',
    'Content-Length': Buffer.byteLength(page),
  });
  res.end(page);
  return status;
}

function sendJson(res: ServerResponse, response: RestResponse, truncate: boolean): number {
  const text = response.raw ? response.raw.text : JSON.stringify(response.body);
  const headers: Record<string, string | number> = { ...JSON_HEADERS, ...response.headers };
  if (response.raw) headers['Content-Type'] = response.raw.contentType;
  if (truncate) {
    // A cut body with a correct status and a clean end: the client sees JSON that does not parse.
    res.writeHead(response.status, headers);
    res.end(text.slice(0, Math.floor(text.length / 2)));
    return response.status;
  }
  headers['Content-Length'] = Buffer.byteLength(text);
  res.writeHead(response.status, headers);
  res.end(text);
  return response.status;
}

function methodOf(req: IncomingMessage, query: URLSearchParams): HttpMethod | undefined {
  let method = (req.method ?? 'GET').toUpperCase();
  if (method === 'HEAD') method = 'GET';
  const override = req.headers['x-http-method-override'] ?? query.get('_method') ?? undefined;
  if (method === 'POST' && typeof override === 'string') method = override.toUpperCase();
  return (HTTP_METHODS as readonly string[]).includes(method) ? (method as HttpMethod) : undefined;
}

async function serveApi(
  deps: ServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  lang: string,
  routePath: string,
  search: string,
  user: User | undefined,
  truncate: boolean,
): Promise<number> {
  const dispatcher = deps.dispatchers.get(lang) as Dispatcher;
  const method = methodOf(req, new URLSearchParams(search));
  const isBatch = method === 'POST' && routePath.replace(/\/+$/, '') === '/batch/v1';
  const batchCut = isBatch ? deps.faults().spec.batchCut : undefined;
  let response: RestResponse;
  try {
    const bytes = await readBody(req);
    if (!method)
      throw new RestError(
        404,
        'rest_no_route',
        'No route was found matching the URL and request method.',
      );
    const disposition = req.headers['content-disposition'];
    const body = parseBody(
      bytes,
      req.headers['content-type'],
      typeof disposition === 'string' ? disposition : undefined,
    );
    const headers: Record<string, string | undefined> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      headers[name] = Array.isArray(value) ? value.join(', ') : value;
    }
    response = dispatcher.handle({
      method,
      path: routePath,
      query: parseQueryString(search),
      rawQuery: search,
      body: body.params,
      upload: body.upload,
      user,
      headers,
      batchCut,
    });
  } catch (error) {
    if (!(error instanceof RestError)) throw error;
    response = errorResponse(error);
  }
  if (batchCut !== undefined) {
    // The server died part-way through the batch: what ran stays done, no answer leaves.
    req.socket.destroy();
    return 0;
  }
  return sendJson(res, response, truncate && response.status < 400);
}

function serveFile(
  deps: ServerDeps,
  req: IncomingMessage,
  res: ServerResponse,
  lang: string | undefined,
  path: string,
  truncate: boolean,
): number {
  const file = findUpload(deps.site, lang, path);
  const method = (req.method ?? 'GET').toUpperCase();
  if (!file) return html(res, 404, 'Not found', '<h1>Not found</h1>');
  if (method !== 'GET' && method !== 'HEAD') {
    res.writeHead(405, { Allow: 'GET, HEAD', 'Content-Length': 0 });
    res.end();
    return 405;
  }
  const bytes = file.bytes();
  const etag = etagOf(bytes);
  const headers: Record<string, string | number> = {
    'Content-Type': file.mimeType,
    'Content-Length': bytes.length,
    ETag: etag,
    'Last-Modified': new Date(file.lastModified * 1000).toUTCString(),
    'Cache-Control': 'public, max-age=31536000',
  };
  if (req.headers['if-none-match'] === etag) {
    res.writeHead(304, { ETag: etag });
    res.end();
    return 304;
  }
  res.writeHead(200, headers);
  if (truncate && method === 'GET') {
    // Fewer bytes than Content-Length, then the connection drops: a download cut short.
    res.write(bytes.subarray(0, Math.floor(bytes.length / 2)), () => res.destroy());
    return 200;
  }
  res.end(bytes);
  return 200;
}

/** Outside the API and the uploads: the admin page, short links, a language's home, else 404. */
function servePage(site: SiteState, res: ServerResponse, path: string, search: string): number {
  if (path === '/cms-admin/authorize-application.php') {
    return html(
      res,
      200,
      'Authorize application',
      '<h1>Authorize application</h1><p>Application passwords are created by the site administrator.</p>',
    );
  }
  const home = /^\/([^/]+)\/?$/.exec(path);
  if (home && site.languages.includes(home[1] as string) && isShortLinkQuery(search)) {
    const target = shortLinkTarget(site, home[1] as string, search);
    if (target === undefined) return html(res, 404, 'Not found', '<h1>Not found</h1>');
    res.writeHead(301, { Location: target, 'Content-Length': 0 });
    res.end();
    return 301;
  }
  if (home && site.languages.includes(home[1] as string)) {
    return html(res, 200, 'cms-mirror reference', `<h1>cms-mirror reference (${home[1]})</h1>`);
  }
  return html(res, 404, 'Not found', '<h1>Not found</h1>');
}

/** An injected 500 or 429 (with `Retry-After`). */
function sendFaultAnswer(deps: ServerDeps, res: ServerResponse, kind: 'error' | '429'): number {
  const tooMany = kind === '429';
  const error = tooMany
    ? new RestError(429, 'rest_too_many_requests', 'Too many requests. Try again later.')
    : new RestError(
        500,
        'internal_server_error',
        'There has been a critical error on this website.',
      );
  const retryAfter = String(deps.faults().spec.retryAfterSeconds ?? 1);
  return sendJson(
    res,
    { ...errorResponse(error), headers: tooMany ? { 'Retry-After': retryAfter } : {} },
    false,
  );
}

/** A bug in the reference: answer 500 with the message so the failing test shows it. */
function sendInternalError(res: ServerResponse, error: unknown): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const message = error instanceof Error ? error.message : String(error);
  sendJson(res, errorResponse(new RestError(500, 'reference_internal_error', message)), false);
}

export function createRequestListener(
  deps: ServerDeps,
): (req: IncomingMessage, res: ServerResponse) => void {
  const { site } = deps;
  return (req, res) => {
    const url = req.url ?? '/';
    const queryAt = url.indexOf('?');
    const path = queryAt >= 0 ? url.slice(0, queryAt) : url;
    const search = queryAt >= 0 ? url.slice(queryAt + 1) : '';
    const api = API_PATH.exec(path);
    const upload = UPLOAD_PATH.exec(path);
    const lang = api?.[1] ?? upload?.[1];
    const known = lang !== undefined && site.languages.includes(lang);
    // Files are served under another language's prefix or none too (see site-urls.ts).
    const servedUpload = upload !== null && (known || upload[1] === undefined);
    const user = authenticate(req.headers.authorization, site.users);
    const entry: RequestLogEntry = {
      method: (req.method ?? 'GET').toUpperCase(),
      path: api && known ? (api[2] ?? '/') : path,
      lang: known ? lang : undefined,
      query: flatQuery(search),
      status: 0,
      authenticated: user !== undefined,
    };
    site.log.push(entry);
    // A long-running demo must not grow without bound; tests read far fewer entries.
    if (site.log.length > MAX_LOG_ENTRIES) site.log.splice(0, site.log.length - MAX_LOG_ENTRIES);
    const run = async (): Promise<number> => {
      if (!servedUpload && (!known || !api)) return servePage(site, res, path, search);
      const decision = deps.faults().decide();
      await wait(deps, decision.delayMs);
      if (decision.kind === 'reset') {
        req.socket.destroy();
        return 0;
      }
      if (decision.kind === 'error' || decision.kind === '429') {
        await readBody(req).catch(() => Buffer.alloc(0));
        return sendFaultAnswer(deps, res, decision.kind);
      }
      if (decision.kind === 'slow') await wait(deps, deps.faults().spec.slowMs ?? 30_000);
      const truncate = decision.kind === 'truncate';
      if (api)
        return serveApi(deps, req, res, lang as string, api[2] ?? '/', search, user, truncate);
      return serveFile(deps, req, res, known ? lang : undefined, path, truncate);
    };
    run()
      .then((status) => {
        entry.status = status;
      })
      .catch((error: unknown) => {
        entry.status = 500;
        sendInternalError(res, error);
      });
  };
}
