/**
 * Deciding whether a collection has another page, from whatever the server gave: the total
 * headers, a `Link` header, or only the size of the page. Pure, so every combination is tested
 * without a server.
 */

/** Parses an RFC 8288 `Link` header into `rel → URL` (first URL per rel wins). */
export function parseLinkHeader(value: string | string[] | undefined): Map<string, string> {
  const links = new Map<string, string>();
  const text = Array.isArray(value) ? value.join(', ') : value;
  if (!text) return links;
  // `<url>; rel="next", <url>; rel="prev"`; URLs may contain commas, so match on the brackets.
  const pattern = /<([^>]*)>\s*((?:;\s*[^;,]+)*)/g;
  for (const match of text.matchAll(pattern)) {
    const url = match[1] ?? '';
    const params = match[2] ?? '';
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(params);
    const rels = (rel?.[1] ?? rel?.[2] ?? '').split(/\s+/).filter(Boolean);
    for (const name of rels) {
      const key = name.toLowerCase();
      if (!links.has(key)) links.set(key, url);
    }
  }
  return links;
}

/** A non-negative integer header (`X-CMS-Total`, `X-CMS-TotalPages`), or undefined. */
export function integerHeader(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined || !/^\s*\d+\s*$/.test(text)) return undefined;
  return Number(text);
}

export interface PageFacts {
  readonly page: number;
  readonly perPage: number;
  readonly itemCount: number;
  readonly totalPages: number | undefined;
  /** Undefined when the server sent no `Link` header at all. */
  readonly links: Map<string, string> | undefined;
}

/**
 * Whether to ask for page + 1. In order of trust: `X-CMS-TotalPages`; then a `Link` header
 * (present but without `rel=next` means last); then "a full page may have a successor, a short
 * page is the last". An empty page always ends the walk, whatever headers claim.
 */
export function hasNextPage(facts: PageFacts): boolean {
  if (facts.itemCount === 0) return false;
  if (facts.totalPages !== undefined) return facts.page < facts.totalPages;
  if (facts.links !== undefined && facts.links.size > 0) return facts.links.has('next');
  return facts.itemCount >= facts.perPage;
}

/** Error codes servers use for "this page number is past the end" (posts, media, revisions, ...). */
export function isPastLastPageCode(code: string | undefined): boolean {
  return code !== undefined && /^rest_[a-z_]*invalid_page_number$/.test(code);
}
