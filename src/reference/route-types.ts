import type { ArgMap } from './arg-schema.js';
import type { ParsedQuery } from './query-string.js';
import type { RestError } from './rest-error.js';
import type { SiteState } from './site-state.js';
import type { LangStore } from './store.js';
import type { User } from './users.js';

/** The shapes shared by the route table, the dispatcher and the handlers. */
export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export const HTTP_METHODS: readonly HttpMethod[] = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];

/** A file sent to `POST /cms/v2/media`, as a raw body or a multipart `file` part. */
export interface Upload {
  readonly bytes: Buffer;
  readonly filename: string | undefined;
  readonly contentType: string | undefined;
}

/** One request to the interface, from HTTP or from a batch sub-request. */
export interface RestRequest {
  readonly method: HttpMethod;
  /** Route path relative to the API root, without the query: `/cms/v2/posts/5`. */
  readonly path: string;
  readonly query: ParsedQuery;
  /** The query string as sent (no `?`), for pagination links. */
  readonly rawQuery?: string | undefined;
  /** Parameters from a JSON object or form body. */
  readonly body: Readonly<Record<string, unknown>> | undefined;
  readonly upload?: Upload | undefined;
  readonly user: User | undefined;
  readonly headers: Readonly<Record<string, string | undefined>>;
  /** A batch only (fault `batchCut`): how many of its sub-requests are carried out. */
  readonly batchCut?: number | undefined;
}

export interface RestResponse {
  readonly status: number;
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
  /** A non-JSON body (oEmbed XML). */
  readonly raw?: { readonly contentType: string; readonly text: string } | undefined;
}

export interface HandlerContext {
  readonly site: SiteState;
  readonly store: LangStore;
  readonly lang: string;
  /** `{base}/{lang}/cms-json/` */
  readonly root: string;
  readonly request: RestRequest;
  /** Validated, coerced parameters with defaults (plus undeclared ones, untouched). */
  readonly params: Readonly<Record<string, unknown>>;
  readonly urlParams: Readonly<Record<string, string>>;
  readonly route: RouteDef;
  readonly routes: readonly RouteDef[];
  readonly user: User | undefined;
  readonly dispatcher: Dispatcher;
}

export type Handler = (context: HandlerContext) => RestResponse;

export interface EndpointDef {
  readonly methods: readonly HttpMethod[];
  readonly args: ArgMap;
  /** Usable through `POST /batch/v1` (published as `allow_batch: {v1: true}`). */
  readonly allowBatch?: boolean;
  readonly handler: Handler;
}

export interface RouteDef {
  /** The route as the index publishes it, e.g. `/cms/v2/posts/(?P<id>[\d]+)`. */
  readonly path: string;
  readonly namespace: string;
  readonly endpoints: readonly EndpointDef[];
  /** Compiled from `path` (named groups become URL parameters). */
  readonly pattern: RegExp;
}

export interface PreparedRequest {
  readonly request: RestRequest;
  readonly route: RouteDef;
  readonly endpoint: EndpointDef;
  readonly urlParams: Readonly<Record<string, string>>;
  readonly params: Readonly<Record<string, unknown>>;
}

/** Matching + validation apart from execution, so batch can validate everything first. */
export interface Dispatcher {
  prepare(request: RestRequest, options?: { batch?: boolean }): PreparedRequest | RestError;
  execute(prepared: PreparedRequest): RestResponse;
  handle(request: RestRequest): RestResponse;
}

export function json(
  body: unknown,
  status = 200,
  headers: Record<string, string> = {},
): RestResponse {
  return { status, body, headers };
}
