import { createHash } from 'node:crypto';
import PQueue from 'p-queue';
import type { Agent as UndiciAgent, Dispatcher } from 'undici';
// undici's Agent alone: the package's entry point also loads its mock agents, fetch,
// WebSocket, caches and every other dispatcher (~0.15 s of CPU on each start, a third of a
// no-op run's module loading), none of which the client uses. undici is pinned to a patch
// range in package.json; test/unit/client covers this path on every request. A static import
// (typed in `undici-agent.d.ts`), so the CLI's bundle holds the Agent's ~40 CommonJS files
// instead of Node resolving, reading and compiling each on every start.
import Agent from 'undici/lib/dispatcher/agent.js';
import { HttpError } from '../errors.js';
import { basicAuthHeader } from './auth.js';
import {
  batchBody,
  parseBatchResult,
  type BatchRequest,
  type BatchResult,
  type BatchValidation,
} from './batch.js';
import { Collector, type RawResponse } from './collect-handler.js';
import { resolveClientOptions, type ClientOptions, type ResolvedClientOptions } from './options.js';
import { listPageOf } from './list-page.js';
import { isPastLastPageCode, positiveInteger } from './pagination.js';
import { walkPages, type WalkOptions } from './page-walk.js';
import { buildApiUrl, type Query } from './query.js';
import { redactUrl } from './redact.js';
import { checkOrigin, originOf } from './origin-guard.js';
import { headerText, httpError, toClientError } from './response-errors.js';
import { createPacer, type Pacer } from './pacer.js';
import { createRetryInterceptor, type CmsDispatchOptions } from './retry-interceptor.js';

export type ResponseHeaders = Readonly<Record<string, string | string[] | undefined>>;

export interface CmsResponse<T> {
  readonly status: number;
  readonly headers: ResponseHeaders;
  /** The parsed JSON body; `undefined` for HEAD and empty (204) answers. */
  readonly data: T;
  /** The requested URL, redacted (no credentials, no secret query values). */
  readonly url: string;
}

export interface RequestOptions {
  readonly query?: Query;
  /** Sent as JSON. */
  readonly body?: unknown;
  /** Sent as-is (media upload); a Buffer so that a retry can send it again. */
  readonly rawBody?: { readonly data: Uint8Array; readonly contentType: string };
  /** Extra request headers (`Content-Disposition` for uploads, ...). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Whether repeating the request is harmless. @default true for GET, HEAD, PUT, DELETE */
  readonly idempotent?: boolean;
}

export interface ListPage<T> {
  readonly items: T[];
  readonly page: number;
  readonly perPage: number;
  /** `X-CMS-Total`, when the server sent it. */
  readonly total: number | undefined;
  /** `X-CMS-TotalPages`, when the server sent it. */
  readonly totalPages: number | undefined;
  readonly hasNext: boolean;
}

export interface DownloadOptions {
  /** Largest body accepted. @default the client's maxBodyBytes */
  readonly maxBytes?: number;
  /** Origins (`http://host:port`) the URL and every redirect must stay on. @default [the site's origin] */
  readonly allowedOrigins?: readonly string[];
  /** Redirects followed (each checked against `allowedOrigins`). @default 5 */
  readonly maxRedirects?: number;
}

export interface Download {
  readonly data: Buffer;
  /** Hex SHA-256 of `data`. */
  readonly sha256: string;
  readonly bytes: number;
  readonly contentType: string | undefined;
  readonly etag: string | undefined;
  /** The URL the bytes came from, after redirects (redacted). */
  readonly url: string;
}

export interface ClientStats {
  /** Attempts sent, retries included. */
  readonly requests: number;
  readonly retries: number;
  /** Response body bytes received, retried attempts included. */
  readonly bytes: number;
}

/** The server's `per_page` default, used to tell a short page when the query does not say. */
const DEFAULT_PER_PAGE = 10;

/**
 * HTTP to one language of one site: keep-alive agent, bounded concurrency, a rate limit,
 * retries (see retry-interceptor.ts), auth, and typed errors. Routes are relative to the API
 * root `{site}/{lang}/cms-json/`.
 */
export class CmsClient {
  /** The resolved settings, without the credentials (they live only in a private header). */
  readonly options: Omit<ResolvedClientOptions, 'auth'>;
  /** Keep-alive connections to the site (and allowed media origins). */
  readonly #agent: UndiciAgent;
  /** The agent with the retry interceptor composed on top. */
  readonly #dispatcher: Dispatcher;
  /** Bounds requests in flight; a slot is held through retries so a sick server gets fewer. */
  readonly #concurrency: PQueue;
  /** Hands out attempt starts at `requestsPerSecond`; undefined when unlimited. */
  readonly #rate: Pacer | undefined;
  readonly #authorization: string | undefined;
  readonly #siteOrigin: string;
  #stats = { requests: 0, retries: 0, bytes: 0 };

  constructor(options: ClientOptions) {
    const { auth, ...settings } = resolveClientOptions(options);
    this.options = settings;
    const o = settings;
    this.#siteOrigin = new URL(o.site).origin;
    this.#authorization = auth ? basicAuthHeader(auth) : undefined;
    this.#agent = new Agent({
      connections: o.concurrency,
      keepAliveTimeout: 10_000,
      keepAliveMaxTimeout: 60_000,
      headersTimeout: o.timeoutMs,
      bodyTimeout: o.timeoutMs,
      connect: { timeout: Math.min(o.timeoutMs, 10_000) },
    });
    this.#concurrency = new PQueue({ concurrency: o.concurrency });
    this.#rate = createPacer(o.requestsPerSecond);
    const rate = this.#rate;
    this.#dispatcher = this.#agent.compose(
      createRetryInterceptor({
        retries: o.retries,
        backoff: {
          baseMs: o.retryBaseMs,
          maxMs: o.retryMaxMs,
          retryAfterMaxMs: o.retryAfterMaxMs,
          random: o.random,
        },
        timeoutMs: o.timeoutMs,
        maxBodyBytes: o.maxBodyBytes,
        sleep: o.sleep,
        now: o.now,
        pace: rate ? () => rate.wait() : undefined,
        onEvent: (event) => {
          if (event.type === 'attempt') this.#stats.requests += 1;
          else if (event.type === 'retry') this.#stats.retries += 1;
          else this.#stats.bytes += event.bytes;
          o.onEvent?.(event);
        },
      }),
    );
  }

  /** `{site}/{lang}/cms-json/` */
  get apiRoot(): string {
    return this.options.apiRoot;
  }

  get hasCredentials(): boolean {
    return this.#authorization !== undefined;
  }

  /** Counters for this client (a copy). */
  get stats(): ClientStats {
    return { ...this.#stats };
  }

  /** The absolute URL of a route, as requested (not redacted: do not log it). */
  url(route: string, query?: Query): string {
    return buildApiUrl(this.options.apiRoot, route, query);
  }

  get<T>(route: string, query?: Query): Promise<CmsResponse<T>> {
    return this.request<T>('GET', route, query === undefined ? {} : { query });
  }

  head(route: string, query?: Query): Promise<CmsResponse<undefined>> {
    return this.request<undefined>('HEAD', route, query === undefined ? {} : { query });
  }

  async request<T>(
    method: string,
    route: string,
    options: RequestOptions = {},
  ): Promise<CmsResponse<T>> {
    const verb = method.toUpperCase();
    const url = this.url(route, options.query);
    const headers: Record<string, string> = {
      accept: 'application/json',
      ...lowerKeys(options.headers),
    };
    let body: string | Uint8Array | undefined;
    if (options.rawBody !== undefined) {
      body = options.rawBody.data;
      headers['content-type'] = options.rawBody.contentType;
    } else if (options.body !== undefined) {
      body = JSON.stringify(options.body);
      headers['content-type'] = 'application/json; charset=utf-8';
    }
    const raw = await this.#send(verb, url, {
      headers,
      body,
      expect: 'json',
      idempotent: options.idempotent,
    });
    const redacted = redactUrl(url);
    if (raw.status < 200 || raw.status >= 300) throw httpError(verb, redacted, raw);
    let data: unknown;
    if (verb !== 'HEAD' && raw.status !== 204 && raw.body.length > 0) {
      // Already validated by the interceptor; parsed again here (cheap next to the network).
      // The interceptor's decoder drops a UTF-8 byte order mark; so must this parse.
      const text = raw.body.toString('utf8');
      data = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
    }
    return { status: raw.status, headers: raw.headers, data: data as T, url: redacted };
  }

  /**
   * One page of a collection. A page past the end (400 `rest_post_invalid_page_number`) comes
   * back as an empty last page, not an error.
   */
  async listPage<T>(route: string, query: Query = {}): Promise<ListPage<T>> {
    const page = positiveInteger(query['page'], 1);
    const perPage = positiveInteger(query['per_page'], DEFAULT_PER_PAGE);
    let response: CmsResponse<unknown>;
    try {
      response = await this.get<unknown>(route, query);
    } catch (error) {
      if (
        error instanceof HttpError &&
        error.status === 400 &&
        page > 1 &&
        isPastLastPageCode(error.serverCode)
      ) {
        return {
          items: [],
          page,
          perPage,
          total: undefined,
          totalPages: undefined,
          hasNext: false,
        };
      }
      throw error;
    }
    return listPageOf<T>(response, {
      page,
      perPage,
      perPageAsked: query['per_page'] !== undefined,
    });
  }

  /**
   * Every page of a collection from `query.page` (default 1) on, bounded by what the first
   * page declared (see page-walk.ts): a server that pages without end stops with a SiteError.
   */
  paginate<T>(
    route: string,
    query: Query = {},
    options: WalkOptions = {},
  ): AsyncGenerator<ListPage<T>, void, undefined> {
    return walkPages<T>(this, route, query, options);
  }

  /**
   * `POST batch/v1`. Returns the typed 207 body with one entry per request. The caller chunks
   * to the route's limit (`SiteIndex.batchMaxItems()`).
   */
  async batch(
    requests: readonly BatchRequest[],
    validation: BatchValidation = 'require-all-validate',
    options: { readonly idempotent?: boolean } = {},
  ): Promise<BatchResult> {
    if (requests.length === 0) return { failed: null, responses: [] };
    const response = await this.request<unknown>('POST', 'batch/v1', {
      body: batchBody(requests, validation),
      ...(options.idempotent === undefined ? {} : { idempotent: options.idempotent }),
    });
    return parseBatchResult(response.url, response.data, requests.length);
  }

  /**
   * Fetches a binary (a media file) into memory with its SHA-256. The URL and every redirect
   * must be on an allowed origin; credentials go only to the site's own origin.
   */
  async download(url: string, options: DownloadOptions = {}): Promise<Download> {
    const allowed = new Set((options.allowedOrigins ?? [this.#siteOrigin]).map(originOf));
    const maxRedirects = options.maxRedirects ?? 5;
    let current = url;
    for (let hop = 0; ; hop += 1) {
      const target = checkOrigin(current, allowed);
      const raw = await this.#send('GET', target.href, {
        headers: { accept: '*/*' },
        body: undefined,
        expect: 'any',
        idempotent: true,
        ...(options.maxBytes === undefined ? {} : { maxBodyBytes: options.maxBytes }),
      });
      const location = headerText(raw.headers['location']);
      if (raw.status >= 300 && raw.status < 400 && location !== undefined) {
        if (hop >= maxRedirects) {
          throw new HttpError({
            status: raw.status,
            method: 'GET',
            url: redactUrl(target.href),
            serverMessage: 'too many redirects',
          });
        }
        current = new URL(location, target).href;
        continue;
      }
      if (raw.status < 200 || raw.status >= 300)
        throw httpError('GET', redactUrl(target.href), raw);
      return {
        data: raw.body,
        sha256: createHash('sha256').update(raw.body).digest('hex'),
        bytes: raw.body.length,
        contentType: headerText(raw.headers['content-type']),
        etag: headerText(raw.headers['etag']),
        url: redactUrl(target.href),
      };
    }
  }

  /** Waits for requests in flight, then closes the connections. */
  async close(): Promise<void> {
    await this.#concurrency.onIdle();
    this.#rate?.clear();
    await this.#agent.close();
  }

  async #send(
    method: string,
    url: string,
    request: {
      headers: Record<string, string>;
      body: string | Uint8Array | undefined;
      expect: 'json' | 'any';
      idempotent: boolean | undefined;
      maxBodyBytes?: number;
    },
  ): Promise<RawResponse> {
    const target = new URL(url);
    const headers: Record<string, string> = {
      'user-agent': this.options.userAgent,
      ...request.headers,
    };
    // Credentials only ever travel to the site itself, never to a media host.
    if (this.#authorization !== undefined && target.origin === this.#siteOrigin) {
      headers['authorization'] = this.#authorization;
    }
    const dispatchOptions: CmsDispatchOptions = {
      origin: target.origin,
      path: `${target.pathname}${target.search}`,
      method: method as Dispatcher.HttpMethod,
      headers,
      body: request.body ?? null,
      cms: {
        expect: request.expect,
        ...(request.idempotent === undefined ? {} : { idempotent: request.idempotent }),
        ...(request.maxBodyBytes === undefined ? {} : { maxBodyBytes: request.maxBodyBytes }),
      },
    };
    return this.#concurrency.add(
      () =>
        new Promise<RawResponse>((resolve, reject) => {
          this.#dispatcher.dispatch(
            dispatchOptions,
            new Collector(resolve, (error) => reject(toClientError(error, method, url))),
          );
        }),
    );
  }
}

function lowerKeys(headers: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) out[name.toLowerCase()] = value;
  return out;
}
