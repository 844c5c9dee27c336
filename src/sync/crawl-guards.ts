/**
 * What keeps a crawl from walking forever on a server that does not page like a cms-json
 * site: a bound on pages that move nothing, and a check that a page is not the page before it
 * again. Pure, apart from the errors they make.
 */
import { nestsDeeperThan } from '../client/json-depth.js';
import { SiteError } from '../errors.js';
import type { FetchedList } from './list-fetch.js';
import { MAX_RECORD_DEPTH } from './record-check.js';

/**
 * Pages of one keyset window, or of one sweep of a second, before the walk is refused. A
 * cms-json site moves the window on with every full page (or says where its pages end);
 * only a server that fills every page number with records that move nothing gets this far.
 */
export const MAX_PAGES_WITHOUT_PROGRESS = 100;

/** A record without a usable id, as a key for "reported already" (safe at any depth). */
export function recordKey(record: unknown): string {
  return nestsDeeperThan(record, MAX_RECORD_DEPTH) ? 'too deep' : String(JSON.stringify(record));
}

/**
 * The ids of `list` as a key, after checking that page `page` (> 1) is not the page before it
 * again: a server that ignores `page` answers every page number alike, and the walk would
 * only end at the request bound.
 */
export function checkNotRepeated(
  list: FetchedList,
  page: number,
  previousKey: string | undefined,
): string | undefined {
  const ids = list.records.map((record) => (record as { id?: unknown } | null)?.id);
  const key = ids.some((id) => typeof id === 'number') ? ids.join(',') : undefined;
  if (page > 1 && key !== undefined && key === previousKey) {
    throw new SiteError(
      list.url,
      `${list.url} answered the same items as page ${page - 1}: the server ignores "page"; what was stored is kept`,
    );
  }
  return key;
}

export function endlessWalk(url: string): SiteError {
  return new SiteError(
    url,
    `${url} still answered a full page after ${MAX_PAGES_WITHOUT_PROGRESS} pages that did not move the crawl on (records without a usable modified_gmt, or not in the order asked for): it does not page like a cms-json site`,
  );
}
