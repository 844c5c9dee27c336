/**
 * One page of a collection from a list route's answer: its items and what the headers say of
 * the pages around it. An answer that is not a list, or longer than `per_page` allows, is a
 * server that does not page like a cms-json site.
 */
import { SiteError } from '../errors.js';
import type { CmsResponse, ListPage } from './cms-client.js';
import { hasNextPage, integerHeader, parseLinkHeader } from './pagination.js';

/** @throws {SiteError} `E_SITE` naming the URL when the answer cannot be a page. */
export function listPageOf<T>(
  response: CmsResponse<unknown>,
  asked: { page: number; perPage: number; perPageAsked: boolean },
): ListPage<T> {
  const { page, perPage } = asked;
  if (!Array.isArray(response.data)) {
    throw new SiteError(
      response.url,
      `${response.url} answered ${describeJson(response.data)} where a list was expected`,
    );
  }
  if (asked.perPageAsked && response.data.length > perPage) {
    // A server that ignores per_page (and so probably page too) would make a page walk endless.
    throw new SiteError(
      response.url,
      `${response.url} answered ${response.data.length} items where per_page=${perPage} allows ${perPage}: it does not page like a cms-json site`,
    );
  }
  const items = response.data as T[];
  const totalPages = integerHeader(response.headers['x-cms-totalpages']);
  const linkHeader = response.headers['link'];
  const hasNext = hasNextPage({
    page,
    perPage,
    itemCount: items.length,
    totalPages,
    links: linkHeader === undefined ? undefined : parseLinkHeader(linkHeader),
  });
  return {
    items,
    page,
    perPage,
    total: integerHeader(response.headers['x-cms-total']),
    totalPages,
    hasNext,
  };
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}
