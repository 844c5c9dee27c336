/**
 * The hostile test server: a real reference site behind a proxy on 127.0.0.1 that lets a test
 * break the interface the way a loose, broken or malicious server would: answer lists while
 * ignoring their filters, lie in the total headers, send junk, gzip unasked, drip, cut, stall,
 * redirect, rate-limit without end. Deployed servers compare strictly and page correctly (see
 * observed-behaviour.md); this misbehaviour lives here, not in the reference site.
 *
 * A scenario sees every request and either returns an answer or `undefined` to pass the
 * request on to the reference site (optionally with a rewritten query, via `ctx.forward`).
 */
import http from 'node:http';
import type { Socket } from 'node:net';
import { startReferenceSite } from '../../../src/reference/index.js';
import type { ReferenceOptions, ReferenceSite } from '../../../src/reference/index.js';

/** One request the proxy saw. */
export interface HostileRequest {
  readonly method: string;
  /** Path and query as sent. */
  readonly path: string;
  readonly authorization: boolean;
  /** `{lang, collection}` for a list of posts, pages or media (no id in the path). */
  readonly list: { readonly lang: string; readonly collection: string } | undefined;
}

/** What the upstream reference site answered (origin already rewritten to the proxy's). */
export interface Upstream {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: Buffer;
  /** The body parsed as JSON, or undefined. */
  readonly json: unknown;
}

export interface HostileAnswer {
  readonly status?: number;
  readonly headers?: Readonly<Record<string, string>>;
  readonly body?: Buffer | string;
  /** Sends the body `chunkBytes` at a time, one chunk every `intervalMs`. */
  readonly drip?: { readonly chunkBytes: number; readonly intervalMs: number };
  /** Sends the headers (with this Content-Length) and the body, then destroys the socket. */
  readonly declaredLength?: number;
  /** Destroys the socket without an answer. */
  readonly destroy?: boolean;
  /** Sends the headers and never the body (the socket stays open until the server closes). */
  readonly hang?: boolean;
}

export interface ScenarioContext {
  readonly request: HostileRequest;
  readonly url: URL;
  /** Fetches the request from the reference site, with `query` instead of the one sent. */
  forward(query?: URLSearchParams): Promise<Upstream>;
  /** The proxy's own base URL (`http://127.0.0.1:port`). */
  readonly base: string;
}

export type Scenario = (
  ctx: ScenarioContext,
) => HostileAnswer | undefined | Promise<HostileAnswer | undefined>;

export interface HostileServer {
  /** The proxy: what the client is pointed at. */
  readonly url: string;
  /** The reference site behind it (control routes, credentials). */
  readonly site: ReferenceSite;
  readonly requests: HostileRequest[];
  setScenario(scenario: Scenario | undefined): void;
  /** GET list requests of `collection` (optionally in one language) since the last clear. */
  listRequests(collection: string, lang?: string): number;
  clearLog(): void;
  close(): Promise<void>;
}

const LIST_PATH = /^\/([^/]+)\/cms-json\/cms\/v2\/(posts|pages|media)\/?$/;
const DROPPED_HEADERS = new Set([
  'content-length',
  'transfer-encoding',
  'content-encoding',
  'connection',
  'keep-alive',
  'date',
]);

export async function startHostileServer(options: ReferenceOptions = {}): Promise<HostileServer> {
  const site = await startReferenceSite(options);
  const requests: HostileRequest[] = [];
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  let scenario: Scenario | undefined;
  let base = '';

  const forward = async (
    req: http.IncomingMessage,
    url: URL,
    body: Buffer,
    query?: URLSearchParams,
  ): Promise<Upstream> => {
    const target = new URL(url.pathname, site.url);
    target.search = (query ?? url.searchParams).toString();
    const headers: Record<string, string> = {};
    for (const name of ['authorization', 'content-type', 'content-disposition', 'accept']) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    const method = req.method ?? 'GET';
    const answer = await fetch(target, {
      method,
      headers,
      redirect: 'manual',
      ...(body.length > 0 && method !== 'GET' && method !== 'HEAD' ? { body } : {}),
    });
    const raw = Buffer.from(await answer.arrayBuffer());
    const text = raw.toString('utf8').split(site.url).join(base);
    const out: Record<string, string> = {};
    answer.headers.forEach((value, name) => {
      if (!DROPPED_HEADERS.has(name)) out[name] = value.split(site.url).join(base);
    });
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      json = undefined;
    }
    const isText = /json|text|xml/.test(out['content-type'] ?? '');
    return { status: answer.status, headers: out, body: isText ? Buffer.from(text) : raw, json };
  };

  const send = (res: http.ServerResponse, answer: HostileAnswer): void => {
    if (answer.destroy) {
      res.socket?.destroy();
      return;
    }
    const body =
      answer.body === undefined
        ? Buffer.alloc(0)
        : Buffer.isBuffer(answer.body)
          ? answer.body
          : Buffer.from(answer.body);
    const headers: Record<string, string | number> = {
      'content-type': 'application/json; charset=UTF-8',
      ...answer.headers,
    };
    if (answer.hang) {
      res.writeHead(answer.status ?? 200, headers);
      res.flushHeaders();
      return;
    }
    if (answer.declaredLength !== undefined) {
      res.writeHead(answer.status ?? 200, { ...headers, 'content-length': answer.declaredLength });
      res.write(body, () => res.socket?.destroy());
      return;
    }
    if (answer.drip !== undefined) {
      const { chunkBytes, intervalMs } = answer.drip;
      res.writeHead(answer.status ?? 200, { ...headers, 'content-length': body.length });
      let offset = 0;
      const tick = (): void => {
        if (res.destroyed) return;
        res.write(body.subarray(offset, offset + chunkBytes));
        offset += chunkBytes;
        if (offset >= body.length) {
          res.end();
          return;
        }
        const timer = setTimeout(() => {
          timers.delete(timer);
          tick();
        }, intervalMs);
        timers.add(timer);
      };
      tick();
      return;
    }
    res.writeHead(answer.status ?? 200, { ...headers, 'content-length': body.length });
    res.end(body);
  };

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', base);
      const match = LIST_PATH.exec(url.pathname);
      const request: HostileRequest = {
        method: req.method ?? 'GET',
        path: req.url ?? '/',
        authorization: typeof req.headers['authorization'] === 'string',
        list:
          match !== null && req.method === 'GET'
            ? { lang: match[1] as string, collection: match[2] as string }
            : undefined,
      };
      requests.push(request);
      const body = Buffer.concat(chunks);
      const ctx: ScenarioContext = {
        request,
        url,
        base,
        forward: (query) => forward(req, url, body, query),
      };
      void (async () => {
        const answer = scenario === undefined ? undefined : await scenario(ctx);
        if (answer !== undefined) {
          send(res, answer);
          return;
        }
        const upstream = await forward(req, url, body);
        send(res, { status: upstream.status, headers: upstream.headers, body: upstream.body });
      })().catch(() => res.socket?.destroy());
    });
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;

  return {
    url: base,
    site,
    requests,
    setScenario(next) {
      scenario = next;
    },
    listRequests(collection, lang) {
      return requests.filter(
        (r) =>
          r.list !== undefined &&
          r.list.collection === collection &&
          (lang === undefined || r.list.lang === lang),
      ).length;
    },
    clearLog() {
      requests.length = 0;
    },
    async close() {
      for (const timer of timers) clearTimeout(timer);
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((done) => server.close(() => done()));
      await site.close();
    },
  };
}

/** The query of a list request without the keys a loose server ignores. */
export function withoutKeys(query: URLSearchParams, keys: readonly string[]): URLSearchParams {
  const out = new URLSearchParams();
  for (const [key, value] of query) {
    if (!keys.includes(key.replace(/\[\]$/, ''))) out.append(key, value);
  }
  return out;
}

/** `2025-01-10T12:00:00` shifted by `seconds` (the format `modified_after` is sent in). */
export function shiftQueryTime(value: string, seconds: number): string {
  const hasZone = /(Z|[+-]\d\d:\d\d)$/.test(value);
  const at = Date.parse(hasZone ? value : `${value}Z`);
  const shifted = new Date(at + seconds * 1000).toISOString().slice(0, 19);
  return hasZone ? `${shifted}Z` : shifted;
}
