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

/** A query's `page` / `per_page` value as a positive integer, or `fallback`. */
export function positiveInteger(value: unknown, fallback: number): number {
  const n = typeof value === 'string' ? Number(value) : value;
  return typeof n === 'number' && Number.isInteger(n) && n >= 1 ? n : fallback;
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

/**
 * Pages a walk may ask for beyond what the server declared on its first page: items added
 * while the walk runs push the last ones onto a later page.
 */
export const PAGE_SLACK = 2;

/**
 * The most items one paginated walk reads (`verify`'s listing of a collection, a migrate scan):
 * what a server declares past it is refused at once, and a walk without a declared total stops
 * there. Callers with smaller lists pass their own (revisions: `MAX_REVISIONS`).
 */
export const MAX_LIST_ITEMS = 1_000_000;

/** What the first page of a walk declared, and the last page number the walk may ask for. */
export interface WalkBound {
  /** `X-CMS-Total: n`, `X-CMS-TotalPages: n`, both, or undefined when neither was sent. */
  readonly declared: string | undefined;
  /** Pages the declaration amounts to (0 when nothing was declared). */
  readonly declaredPages: number;
  /** The last page number the walk may request. */
  readonly lastPage: number;
  /** Whether the declaration alone exceeds `maxItems` (the walk must not start). */
  readonly absurd: boolean;
}

/**
 * The bound of a walk that started at `first.page`: ⌈total/per_page⌉ (or `X-CMS-TotalPages`,
 * the larger when both are sent) + `PAGE_SLACK` pages, and never more than `maxItems` items.
 */
export function walkBound(
  first: {
    readonly page: number;
    readonly perPage: number;
    readonly total: number | undefined;
    readonly totalPages: number | undefined;
  },
  maxItems: number,
): WalkBound {
  const perPage = Math.max(1, first.perPage);
  const capPages = Math.max(1, Math.ceil(maxItems / perPage));
  const byTotal = first.total === undefined ? 0 : Math.ceil(first.total / perPage);
  const declaredPages = Math.max(byTotal, first.totalPages ?? 0);
  const parts = [
    first.total === undefined ? undefined : `X-CMS-Total: ${first.total}`,
    first.totalPages === undefined ? undefined : `X-CMS-TotalPages: ${first.totalPages}`,
  ].filter((part): part is string => part !== undefined);
  const declared = parts.length > 0 ? parts.join(', ') : undefined;
  const cap = first.page - 1 + capPages;
  return {
    declared,
    declaredPages,
    lastPage: declared === undefined ? cap : Math.min(Math.max(declaredPages, 1) + PAGE_SLACK, cap),
    absurd: declaredPages > capPages,
  };
}

/** Why a walk whose first page declared `bound` must not start: its declaration is absurd. */
export function absurdDeclaration(url: string, bound: WalkBound, maxItems: number): string {
  return `${url} declares ${bound.declared ?? 'no total'} on its first page, more than the ${maxItems} items cms-mirror reads from one list: refused rather than paged`;
}

/**
 * Why a walk stops at page `page` (the one that still says another follows), given what the
 * first page declared: the server hands out more pages than it said it had.
 */
export function overrunMessage(
  url: string,
  bound: WalkBound,
  facts: { readonly page: number; readonly perPage: number; readonly walked: number },
  maxItems: number,
): string {
  const said =
    bound.declared === undefined
      ? `the first page declared no total and cms-mirror reads at most ${maxItems} items from one list`
      : `the first page declared ${bound.declared} (${bound.declaredPages} pages of ${facts.perPage})`;
  return `${url}: page ${facts.page} still says another page follows, but ${said}: stopped after ${facts.walked} pages, as the server hands out pages without end`;
}
