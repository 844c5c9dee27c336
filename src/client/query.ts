/** A scalar query value; `undefined` and `null` leave the parameter out. */
export type QueryScalar = string | number | boolean | null | undefined;
/**
 * A query parameter value. Arrays become `key[]=a&key[]=b` (what the servers' array arguments
 * accept, and the only form that keeps a value containing a comma intact); objects (the
 * taxonomy filters' object form) become `key[sub]=v`, nested as deep as needed.
 */
export type QueryValue =
  QueryScalar | readonly QueryValue[] | { readonly [key: string]: QueryValue };
export type Query = { readonly [key: string]: QueryValue };

/**
 * Serialises a query without the leading `?`. Keys keep their order; booleans are `true` /
 * `false`, which the servers' boolean arguments accept.
 */
export function encodeQuery(query: Query | undefined): string {
  if (!query) return '';
  const pairs: string[] = [];
  for (const [key, value] of Object.entries(query)) {
    appendValue(pairs, key, value);
  }
  return pairs.join('&');
}

function appendValue(pairs: string[], key: string, value: QueryValue): void {
  if (value === undefined || value === null) return;
  if (Array.isArray(value)) {
    for (const item of value as readonly QueryValue[]) {
      if (item !== null && typeof item === 'object') {
        throw new TypeError(`query ${key}: arrays of arrays or objects are not supported`);
      }
      appendValue(pairs, `${key}[]`, item);
    }
    return;
  }
  if (typeof value === 'object') {
    for (const [sub, item] of Object.entries(value)) {
      appendValue(pairs, `${key}[${sub}]`, item);
    }
    return;
  }
  if (typeof value === 'number' && !Number.isFinite(value)) {
    throw new TypeError(`query ${key}: expected a finite number, got ${value}`);
  }
  // Brackets stay literal: servers parse `include[]` either way, and logs stay readable.
  pairs.push(`${encodeKey(key)}=${encodeURIComponent(String(value))}`);
}

function encodeKey(text: string): string {
  return encodeURIComponent(text).replace(/%5B/g, '[').replace(/%5D/g, ']');
}

/**
 * Joins the API root and a route (`cms/v2/posts`, `''` for the index) and a query into a URL.
 * Leading slashes on the route are ignored, so `/cms/v2/posts` works too.
 */
export function buildApiUrl(apiRoot: string, route: string, query?: Query): string {
  if (/[?#]/.test(route)) {
    throw new TypeError(
      `route ${JSON.stringify(route)}: pass query parameters in the query object`,
    );
  }
  const clean = route.replace(/^\/+/, '');
  const search = encodeQuery(query);
  return `${apiRoot}${clean}${search ? `?${search}` : ''}`;
}
