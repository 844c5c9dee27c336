/**
 * The walk behind `CmsClient.paginate`: every page of a list from `query.page` on, bounded by
 * what the first page declared (`walkBound`: ⌈total/per_page⌉ + `PAGE_SLACK` pages, at most
 * `maxItems` items). A server that hands out more pages, declares more than `maxItems` items,
 * or hands out the same page twice (it ignores `page`) stops the walk with a SiteError (exit
 * 2) naming the URL, rather than a loop. Callers store what they read only once a walk ends.
 */
import { SiteError } from '../errors.js';
import type { CmsClient, ListPage } from './cms-client.js';
import {
  absurdDeclaration,
  MAX_LIST_ITEMS,
  overrunMessage,
  positiveInteger,
  walkBound,
  type WalkBound,
} from './pagination.js';
import type { Query } from './query.js';
import { redactUrl } from './redact.js';

export interface WalkOptions {
  /** Most items the walk reads (and the most a first page may declare). @default MAX_LIST_ITEMS */
  readonly maxItems?: number;
}

export async function* walkPages<T>(
  client: Pick<CmsClient, 'listPage' | 'url'>,
  route: string,
  query: Query,
  options: WalkOptions,
): AsyncGenerator<ListPage<T>, void, undefined> {
  const maxItems = options.maxItems ?? MAX_LIST_ITEMS;
  const start = positiveInteger(query['page'], 1);
  let bound: WalkBound | undefined;
  let previous: string | undefined;
  for (let page = start; ; page += 1) {
    const result = await client.listPage<T>(route, { ...query, page });
    const url = redactUrl(client.url(route, { ...query, page }));
    bound ??= walkBound(result, maxItems);
    if (bound.absurd) throw new SiteError(url, absurdDeclaration(url, bound, maxItems));
    const fingerprint =
      result.items.length > 0 ? JSON.stringify(result.items.map(identity)) : undefined;
    if (fingerprint !== undefined && fingerprint === previous) {
      throw new SiteError(
        url,
        `${url} returned the same items as page ${page - 1}: the server ignores "page"`,
      );
    }
    previous = fingerprint;
    yield result;
    if (!result.hasNext) return;
    if (page >= bound.lastPage) {
      const facts = { page, perPage: result.perPage, walked: page - start + 1 };
      throw new SiteError(url, overrunMessage(url, bound, facts, maxItems));
    }
  }
}

function identity(item: unknown): unknown {
  return typeof item === 'object' && item !== null && 'id' in item
    ? (item as { id: unknown }).id
    : item;
}
