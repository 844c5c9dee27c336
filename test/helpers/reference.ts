import { startReferenceSite } from '../../src/reference/index.js';
import type { ReferenceOptions, ReferenceSite } from '../../src/reference/index.js';

/**
 * Test helpers for the embedded reference site: start one on a free port, build API URLs,
 * and call it over real HTTP with or without credentials.
 *
 *   let site: ReferenceSite;
 *   beforeEach(async () => { site = await startReference(); });
 *   afterEach(() => site.close());
 */
export type { ReferenceSite };

export function startReference(options: ReferenceOptions = {}): Promise<ReferenceSite> {
  return startReferenceSite(options);
}

type QueryValue = string | number | boolean | readonly (string | number)[] | undefined;
export type Query = Readonly<Record<string, QueryValue>>;

export interface CallOptions {
  readonly query?: Query;
  /** true: the demo admin; 'other': the second editor; or explicit credentials. */
  readonly auth?: boolean | 'other' | { readonly user: string; readonly password: string };
  readonly method?: string;
  /** Sent as JSON unless it is a string or Buffer (then as is, with `headers` deciding the type). */
  readonly body?: unknown;
  readonly headers?: Readonly<Record<string, string>>;
}

// Response bodies are arbitrary JSON; tests index into them freely.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface ApiResponse {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  readonly body: Json;
}

/** `a=1`, arrays as `a[]=1&a[]=2`. */
export function toSearch(query: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue;
    if (Array.isArray(value))
      for (const element of value) params.append(`${key}[]`, String(element));
    else params.append(key, String(value));
  }
  const text = params.toString();
  return text === '' ? '' : `?${text}`;
}

export function apiUrl(site: ReferenceSite, lang: string, path: string, query?: Query): string {
  return `${site.url}/${lang}/cms-json${path}${toSearch(query)}`;
}

export function authHeader(site: ReferenceSite, auth: CallOptions['auth']): Record<string, string> {
  if (!auth) return {};
  const credentials =
    auth === true ? site.credentials : auth === 'other' ? site.otherCredentials : auth;
  return {
    authorization: `Basic ${Buffer.from(`${credentials.user}:${credentials.password}`).toString('base64')}`,
  };
}

export async function callUrl(
  site: ReferenceSite,
  url: string,
  options: CallOptions = {},
): Promise<ApiResponse> {
  const headers: Record<string, string> = { ...authHeader(site, options.auth), ...options.headers };
  let body: string | Buffer | undefined;
  if (options.body !== undefined) {
    if (typeof options.body === 'string' || Buffer.isBuffer(options.body)) body = options.body;
    else {
      body = JSON.stringify(options.body);
      headers['content-type'] ??= 'application/json';
    }
  }
  const response = await fetch(url, { method: options.method ?? 'GET', headers, body });
  const text = await response.text();
  let parsed: Json;
  try {
    parsed = text === '' ? undefined : JSON.parse(text);
  } catch {
    parsed = undefined;
  }
  return { status: response.status, headers: response.headers, text, body: parsed };
}

export function callApi(
  site: ReferenceSite,
  lang: string,
  path: string,
  options: CallOptions = {},
): Promise<ApiResponse> {
  return callUrl(site, apiUrl(site, lang, path, options.query), options);
}

export function getJson(
  site: ReferenceSite,
  lang: string,
  path: string,
  options: Omit<CallOptions, 'method' | 'body'> = {},
): Promise<ApiResponse> {
  return callApi(site, lang, path, { ...options, method: 'GET' });
}

/** The same site-local/GMT format the interface uses, for building expectations. */
export const DATE_FORMAT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/** Shifts a `YYYY-MM-DDTHH:MM:SS` (no offset) by seconds, keeping the format. */
export function shiftDate(value: string, seconds: number): string {
  const shifted = new Date(Date.parse(`${value}Z`) + seconds * 1000);
  return shifted.toISOString().slice(0, 19);
}
