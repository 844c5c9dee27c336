/**
 * A lookup from remote URLs to site paths that forgives the ways one URL is spelled in
 * content: scheme (`http:` vs `https:`), host case, default port, percent-encoding case and
 * non-ASCII written raw, a missing or extra trailing slash, and the `#fragment`. The query
 * is kept: `?p=12` and `?p=13` are different pages.
 *
 * The transform plugins take plain resolver functions; whoever reads the cache builds them
 * with `createUrlResolver` so that content links and stored `link`s meet in one key.
 */
import { normalizeSitePath } from './site-paths.js';

/** A URL → site path function, as the link and media plugins take it. */
export type UrlResolver = (absoluteUrl: string) => string | undefined;

/**
 * The comparison key of an http(s) URL, or `undefined` for anything else (other schemes,
 * relative or unparsable URLs).
 */
export function urlKey(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  let path = normalizeSitePath(parsed.pathname);
  if (path.length > 1 && path.endsWith('/')) path = path.slice(0, -1);
  return `//${parsed.host}${path}${parsed.search}`;
}

/**
 * Builds a resolver from `[remote URL, site path]` pairs. Site paths are normalized
 * (`normalizeSitePath`). When two URLs share a key the first one wins, so pass the
 * preferred (for example the published) entry first.
 */
export function createUrlResolver(entries: Iterable<readonly [string, string]>): UrlResolver {
  const map = new Map<string, string>();
  for (const [url, sitePath] of entries) {
    const key = urlKey(url);
    if (key !== undefined && !map.has(key)) map.set(key, normalizeSitePath(sitePath));
  }
  return (absoluteUrl) => {
    const key = urlKey(absoluteUrl);
    return key === undefined ? undefined : map.get(key);
  };
}
