/**
 * Short links: content links to items by `{home}?p=ID` (posts and pages) or
 * `{home}?page_id=ID` (pages) besides their `link` (observed-behaviour.md, Items). A short
 * link to a public item resolves to its built page like its `link` does; any other short link
 * stays as it is (it must not become the home page with a query) and is reported. Pure.
 */
import { collectionOf, type ItemType } from '../collections.js';

const SHORT_QUERY = /^\?(p|page_id)=(\d+)$/;

/** The id a short link's query names, or `undefined` when the query is not a short link's. */
export function shortLinkQuery(search: string): { key: 'p' | 'page_id'; id: number } | undefined {
  const match = SHORT_QUERY.exec(search);
  if (match === null) return undefined;
  const id = Number(match[2]);
  return Number.isSafeInteger(id) && id > 0 ? { key: match[1] as 'p' | 'page_id', id } : undefined;
}

/**
 * `[short link, site path]` pairs for the resolver of links: `?p=ID` for every public post
 * and page, `?page_id=ID` for pages, under the language's home.
 */
export function shortLinkEntries(
  items: Iterable<{ readonly type: ItemType; readonly id: number }>,
  sitePathOf: (type: ItemType, id: number) => string | undefined,
  homeUrl: string,
): [string, string][] {
  const home = homeUrl.endsWith('/') ? homeUrl : `${homeUrl}/`;
  const entries: [string, string][] = [];
  for (const { type, id } of items) {
    const sitePath = sitePathOf(type, id);
    if (sitePath === undefined) continue;
    // `?p=ID` for every post and page, `?page_id=ID` for pages (the collection's `shortLinks`).
    for (const key of collectionOf(type).shortLinks)
      entries.push([`${home}?${key}=${id}`, sitePath]);
  }
  return entries;
}

const HREF = /\shref\s*=\s*(?:"([^"]*)"|'([^']*)')/gi;

/**
 * The short links under `homeUrl`'s host that `html` (transformed: resolved ones are
 * relative by now) still points at the remote site, in order, distinct.
 */
export function remainingShortLinks(html: string, homeUrl: string): string[] {
  if (!html.includes('?p') && !html.includes('page_id')) return [];
  let host: string;
  try {
    host = new URL(homeUrl).host;
  } catch {
    return [];
  }
  const found = new Set<string>();
  for (const match of html.matchAll(HREF)) {
    const value = (match[1] ?? match[2] ?? '').replace(/&amp;/g, '&');
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    if (url.host === host && shortLinkQuery(url.search) !== undefined) found.add(url.href);
  }
  return [...found];
}
