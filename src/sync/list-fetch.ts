/**
 * The three list requests the pull makes: a page of a collection (with its total and the
 * server's clock), a count, and an `include` probe of ids.
 */
import type { Query } from '../client/index.js';
import { HttpError, SiteError } from '../errors.js';
import type { ListClient } from './crawl-budget.js';
import { gmtFromHttpDate } from './gmt-time.js';

export interface FetchedList {
  /** The request, for messages. */
  readonly url: string;
  /** The records as sent (checked by the caller). */
  readonly records: readonly unknown[];
  /** `X-CMS-Total`, when sent. */
  readonly total: number | undefined;
  /** `X-CMS-TotalPages`, when sent (never trusted to end a walk whose page is full). */
  readonly totalPages: number | undefined;
  /** The server's `Date` as a GMT timestamp, when sent. */
  readonly date: string | undefined;
}

/**
 * One page of a list. A page past the last one (400 `rest_post_invalid_page_number`, which
 * happens when items leave a window between two pages) is an empty page, not an error.
 */
export async function fetchList(
  client: ListClient,
  route: string,
  query: Query,
): Promise<FetchedList> {
  let response;
  try {
    response = await client.get<unknown>(route, query);
  } catch (error) {
    if (
      error instanceof HttpError &&
      error.status === 400 &&
      error.serverCode === 'rest_post_invalid_page_number'
    ) {
      return {
        url: error.url,
        records: [],
        total: undefined,
        totalPages: undefined,
        date: undefined,
      };
    }
    throw error;
  }
  if (!Array.isArray(response.data)) {
    throw new SiteError(
      response.url,
      `${response.url} answered something other than a list; is this a cms-json site?`,
    );
  }
  const perPage = query['per_page'];
  if (typeof perPage === 'number' && response.data.length > perPage) {
    // A server that ignores per_page probably ignores page too: the walk would never end.
    throw new SiteError(
      response.url,
      `${response.url} answered ${response.data.length} items where per_page=${perPage} allows ${perPage}: it does not page like a cms-json site`,
    );
  }
  return {
    url: response.url,
    records: response.data,
    total: integerHeader(response.headers['x-cms-total']),
    totalPages: integerHeader(response.headers['x-cms-totalpages']),
    date: gmtFromHttpDate(response.headers['date']),
  };
}

/** `X-CMS-Total` of the collection under `filter` (one `per_page=1` request), if sent. */
export async function remoteCount(
  client: ListClient,
  route: string,
  filter: Query,
): Promise<number | undefined> {
  return (await fetchList(client, route, { ...filter, per_page: 1 })).total;
}

/**
 * Which of `ids` the site still lists under `filter`: `include` requests of `chunkSize` ids.
 * Cost: one request per chunk.
 */
export async function presentIds(
  client: ListClient,
  route: string,
  filter: Query,
  ids: readonly number[],
  chunkSize: number,
): Promise<Set<number>> {
  const present = new Set<number>();
  const chunks: number[][] = [];
  for (let start = 0; start < ids.length; start += chunkSize) {
    chunks.push(ids.slice(start, start + chunkSize));
  }
  await Promise.all(
    chunks.map(async (chunk) => {
      const list = await fetchList(client, route, {
        ...filter,
        include: chunk,
        per_page: chunk.length,
        orderby: 'id',
        order: 'asc',
      });
      for (const record of list.records) {
        const id = (record as { id?: unknown } | null)?.id;
        if (typeof id === 'number') present.add(id);
      }
    }),
  );
  return present;
}

function integerHeader(value: string | string[] | undefined): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  return text !== undefined && /^\s*\d+\s*$/.test(text) ? Number(text) : undefined;
}

/**
 * Every item under `filter` whose parent is one of `parentIds`: `parent` requests of
 * `chunkSize` parents, all their pages (in id order, so a page boundary does not move while
 * nothing changes). Cost: one request per chunk and page of children.
 */
export async function fetchChildren(
  client: ListClient,
  route: string,
  filter: Query,
  parentIds: readonly number[],
  perPage: number,
  chunkSize: number,
): Promise<unknown[]> {
  const records: unknown[] = [];
  for (let start = 0; start < parentIds.length; start += chunkSize) {
    const parent = parentIds.slice(start, start + chunkSize);
    for (let page = 1; ; page++) {
      const list = await fetchList(client, route, {
        ...filter,
        parent,
        per_page: perPage,
        page,
        orderby: 'id',
        order: 'asc',
      });
      records.push(...list.records);
      // Only a short page ends the walk: a lying X-CMS-Total would lose children, and a server
      // that fills every page number is stopped by the stream's request bound.
      if (list.records.length < perPage) break;
    }
  }
  return records;
}
