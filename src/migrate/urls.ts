import { UPLOADS_MARKER } from '../sync/content-media.js';
import { shortLinkQuery } from '../transform/short-links.js';
import { parseSrcset, stringifySrcset } from '../transform/srcset.js';
import type { RemapContext } from './remap.js';

/**
 * Which target URL a source URL becomes. Content refers to the source's items and files by
 * more than their `link` and `source_url` (observed-behaviour.md, Items): the other scheme,
 * another path prefix of the same host, size variants, relative URLs and short links
 * (`?p=ID`). Each is matched to the migrated copy; a URL under the source language's home or
 * uploads that matches nothing migrated stays as it is and is collected for the run's
 * warnings. Pure.
 */
export type SourceUrlMapping =
  | { readonly kind: 'mapped'; readonly url: string }
  | { readonly kind: 'unmatched' }
  | { readonly kind: 'other' };

const OTHER: SourceUrlMapping = { kind: 'other' };
const UNMATCHED: SourceUrlMapping = { kind: 'unmatched' };

/** What the matching needs from the context, worked out once per piece of content. */
export interface SourceIndex {
  readonly context: RemapContext;
  readonly home: URL;
  readonly site: URL | undefined;
  /** Hosts of the source (`host:port`), whatever the scheme. */
  readonly hosts: ReadonlySet<string>;
  /** Path below the uploads marker (`2024/05/a-300x200.png`) → target URL. */
  readonly uploads: ReadonlyMap<string, string>;
  /** Source uploads directories (`http://h/pl/cms-content/uploads/`), in the home's scheme. */
  readonly uploadDirs: readonly string[];
}

export function sourceIndex(context: RemapContext): SourceIndex | undefined {
  const home = parse(withSlash(context.sourceHome));
  if (home === undefined) return undefined;
  const site = parse(context.sourceUrl);
  const uploads = new Map<string, string>();
  const uploadDirs = new Set<string>();
  for (const [from, to] of context.urls) {
    const url = parse(from);
    const at = url?.pathname.indexOf(UPLOADS_MARKER) ?? -1;
    if (url === undefined || at < 0) continue;
    const rest = decodePath(url.pathname.slice(at + UPLOADS_MARKER.length));
    if (!uploads.has(rest)) uploads.set(rest, to);
    url.protocol = home.protocol;
    uploadDirs.add(`${url.origin}${url.pathname.slice(0, at + UPLOADS_MARKER.length)}`);
  }
  const hosts = new Set([home.host, ...(site ? [site.host] : [])]);
  return { context, home, site, hosts, uploads, uploadDirs: [...uploadDirs] };
}

/** Maps one absolute URL (or one relative to `base`). */
export function mapSourceUrl(value: string, index: SourceIndex, base?: string): SourceUrlMapping {
  const url = parse(value, base);
  if (url === undefined || !index.hosts.has(url.host)) return OTHER;
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return OTHER;
  const { context, home } = index;
  // Compared in the home's scheme: `https:` content on an `http:` site names the same thing.
  url.protocol = home.protocol;
  const hash = url.hash;
  const search = url.search;
  url.hash = '';
  const full = url.href;
  url.search = '';
  const path = url.href;
  const direct = context.urls.get(full);
  if (direct !== undefined) return { kind: 'mapped', url: direct + hash };
  const onHome = withSlash(path) === home.href;
  const short = onHome ? shortLinkQuery(search) : undefined;
  // By its id, before the path: the home may also be a page's link (a front page).
  if (short !== undefined) return shortLink(short, context, hash);
  const exact =
    (search === '' ? undefined : context.urls.get(path)) ?? context.urls.get(withSlash(path));
  if (exact !== undefined) return { kind: 'mapped', url: exact + search + hash };
  const marker = url.pathname.indexOf(UPLOADS_MARKER);
  if (marker >= 0) {
    const file = index.uploads.get(decodePath(url.pathname.slice(marker + UPLOADS_MARKER.length)));
    if (file !== undefined) return { kind: 'mapped', url: file + search + hash };
  }
  if (onHome) return { kind: 'mapped', url: withSlash(context.targetHome) + search + hash };
  if (path.startsWith(home.href) || index.uploadDirs.some((dir) => path.startsWith(dir))) {
    return UNMATCHED;
  }
  // Elsewhere on the source site (another language): moved by the sites' prefixes.
  const site = index.site;
  if (site !== undefined && url.host === site.host) {
    const sitePrefix = stripSlash(`${home.protocol}//${site.host}${site.pathname}`);
    if (path.startsWith(sitePrefix)) {
      return {
        kind: 'mapped',
        url: stripSlash(context.targetUrl) + path.slice(sitePrefix.length) + search + hash,
      };
    }
  }
  return OTHER;
}

function shortLink(
  short: { key: 'p' | 'page_id'; id: number },
  context: RemapContext,
  hash: string,
): SourceUrlMapping {
  const home = withSlash(context.targetHome);
  const post = short.key === 'p' ? context.ids.posts.get(short.id) : undefined;
  if (post !== undefined) return { kind: 'mapped', url: `${home}?p=${post}${hash}` };
  const page = context.ids.pages.get(short.id);
  if (page !== undefined) return { kind: 'mapped', url: `${home}?page_id=${page}${hash}` };
  return UNMATCHED;
}

const ATTRIBUTE = `(\\s(?:src|href|poster|srcset)\\s*=\\s*)(["'])([^"']*)\\2`;

/**
 * Every source URL of `html` as the target's: URL attributes (`src`, `href`, `poster`, each
 * `srcset` candidate; relative ones read against `base`, the item's source link) and absolute
 * URLs of the source's hosts anywhere else (text, block comments, `\/`-escaped JSON). One
 * pass, so a target URL on a shared host is never mapped twice. Unmatched URLs under the
 * source home or uploads are added to `unmatched`.
 */
export function rewriteSourceUrls(
  html: string,
  index: SourceIndex,
  base: string | undefined,
  unmatched?: Set<string>,
): string {
  const hosts = [...index.hosts].map(escapeRegExp).join('|');
  const absolute = `(?:https?:)?(?:\\\\?/){2}(?:${hosts})(?=[/\\\\?#\\s"'<>)\\]]|$)[^\\s"'<>)\\]]*`;
  const pattern = new RegExp(`${ATTRIBUTE}|${absolute}`, 'gi');
  const one = (value: string, relativeBase: string | undefined): string => {
    const trimmed = value.trim().replace(/&amp;/g, '&');
    if (trimmed === '' || trimmed.startsWith('#')) return value;
    const mapping = mapSourceUrl(trimmed, index, relativeBase ?? index.home.href);
    if (mapping.kind === 'mapped') return mapping.url;
    if (mapping.kind === 'unmatched')
      unmatched?.add(new URL(trimmed, relativeBase ?? index.home.href).href);
    return value;
  };
  return html.replace(
    pattern,
    (found, prefix: string | undefined, quote: string, value: string) => {
      if (prefix === undefined) {
        const escaped = found.includes('\\/');
        const plain = escaped ? found.replace(/\\\//g, '/') : found;
        const mapped = one(plain, undefined);
        if (mapped === plain) return found;
        return escaped ? mapped.replace(/\//g, '\\/') : mapped;
      }
      if (/srcset/i.test(prefix)) {
        const candidates = parseSrcset(value);
        const mapped = candidates.map((candidate) => ({
          ...candidate,
          url: one(candidate.url, base),
        }));
        if (mapped.every((candidate, i) => candidate.url === candidates[i]!.url)) return found;
        return `${prefix}${quote}${stringifySrcset(mapped)}${quote}`;
      }
      const mapped = one(value, base);
      return mapped === value ? found : `${prefix}${quote}${mapped}${quote}`;
    },
  );
}

function parse(value: string, base?: string): URL | undefined {
  try {
    return new URL(value, base);
  } catch {
    return undefined;
  }
}

function decodePath(path: string): string {
  try {
    return decodeURIComponent(path);
  } catch {
    return path;
  }
}

const stripSlash = (url: string) => url.replace(/\/+$/, '');
const withSlash = (url: string) => (url.endsWith('/') ? url : `${url}/`);

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
