/**
 * The one rule every URL attribute follows: resolve it against the item's remote link, ask a
 * resolver whether the target is mirrored, and if so point at the local copy with a URL
 * relative to the page being written (keeping `?query` and `#fragment`).
 */
import { normalizeSitePath, relativeSitePath } from './site-paths.js';
import { shortLinkQuery } from './short-links.js';
import type { UrlResolver } from './url-resolver.js';
import { urlScheme } from './url-safety.js';

/** Where the URL being rewritten is written from. */
export interface RewriteContext {
  /** The item's remote link; relative URLs in content are read against it. */
  baseUrl: URL | undefined;
  /** Site path of the page being written. */
  pagePath: string;
}

/**
 * - `local`: the target is mirrored; `value` is relative to the page.
 * - `absolute`: not mirrored, and the value was relative (root-, protocol- or path-relative):
 *   `value` is made absolute so it still reaches the remote; `sameSite` tells whether that is
 *   the item's own host (worth a warning: a link the mirror does not cover).
 * - `keep`: leave the value as it is (fragment-only, other schemes, absolute and unmirrored,
 *   unparsable).
 */
export type Rewrite =
  | { kind: 'local'; value: string }
  | { kind: 'absolute'; value: string; sameSite: boolean }
  | { kind: 'keep' };

const KEEP: Rewrite = { kind: 'keep' };

/** Decides how one URL attribute value is rewritten. Pure; never throws. */
export function rewriteUrl(value: string, context: RewriteContext, resolve: UrlResolver): Rewrite {
  const trimmed = value.trim();
  if (trimmed === '' || trimmed.startsWith('#')) return KEEP;
  const scheme = urlScheme(trimmed);
  if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return KEEP;
  if (scheme === undefined && context.baseUrl === undefined) return KEEP;

  let target: URL;
  try {
    target = new URL(trimmed, context.baseUrl);
  } catch {
    return KEEP;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return KEEP;

  const hash = target.hash;
  target.hash = '';
  let sitePath = resolve(target.href);
  let search = '';
  // A short link (`?p=12`) names an item, not the page its path happens to be: no fallback.
  if (
    sitePath === undefined &&
    target.search !== '' &&
    shortLinkQuery(target.search) === undefined
  ) {
    // `/my-post/?utm_source=x`: the page is mirrored even if this query is not; keep the
    // query on the local link rather than dropping it silently.
    search = target.search;
    target.search = '';
    sitePath = resolve(target.href);
  }

  if (sitePath !== undefined) {
    if (
      search === '' &&
      hash !== '' &&
      normalizeSitePath(sitePath) === normalizeSitePath(context.pagePath)
    ) {
      // A link to a place on the same page needs no path at all.
      return { kind: 'local', value: hash };
    }
    return {
      kind: 'local',
      value: `${relativeSitePath(context.pagePath, sitePath)}${search}${hash}`,
    };
  }

  if (scheme !== undefined) return KEEP;
  target.search = search || target.search;
  const absolute = `${target.href}${hash}`;
  const sameSite = context.baseUrl !== undefined && target.host === context.baseUrl.host;
  return { kind: 'absolute', value: absolute, sameSite };
}
