/**
 * The keyset crawl of one collection as a pure state machine: which query comes next, given
 * what the last page held. The stream (crawl-stream.ts) does the I/O and stores the cursor with
 * every page, so a killed pull resumes where it stopped.
 *
 * Why keyset and not page numbers: items edited during a crawl move to the end of a
 * `modified` order, which shifts every later page and makes page-number crawls skip items.
 * Keyset windows (`modified_after`) do not move: an edited item leaves its window and shows up
 * again in a later one.
 */
import type { Query } from '../client/index.js';
import { earlierGmt, isGmt, queryTime, shiftGmt } from './gmt-time.js';

/** The resume point of one crawl, stored as JSON in `sync_state.cursor`. */
export interface CrawlCursor {
  readonly v: 1;
  /** Strict lower bound of `modified_gmt` of the next query; null = from the beginning. */
  readonly after: string | null;
  /**
   * Page within the `after` window. Always 1, except when a page gave nothing to move the
   * window on (no usable timestamps, or a server that ignores the order).
   */
  readonly page: number;
  /** The second being swept because it holds more items than a page; null otherwise. */
  readonly tie: string | null;
  /** The server's clock (`Date`) when this crawl started; caps the watermark. */
  readonly startedAt: string | null;
  /** The latest `modified_gmt` stored by this crawl. */
  readonly maxSeen: string | null;
  /** Whether this crawl started from the beginning (first pull, or a rescan). */
  readonly full: boolean;
}

/** A crawl from `watermark` (re-reading its second) or, without one, from the beginning. */
export function freshCursor(watermark: string | null): CrawlCursor {
  return {
    v: 1,
    after: watermark === null ? null : shiftGmt(watermark, -1),
    page: 1,
    tie: null,
    startedAt: null,
    maxSeen: null,
    full: watermark === null,
  };
}

/** A stored cursor, or undefined when absent or not one we wrote (the crawl then restarts). */
export function parseCursor(value: unknown): CrawlCursor | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const c = value as Record<string, unknown>;
  const gmtOrNull = (v: unknown): v is string | null => v === null || isGmt(v);
  if (
    c['v'] !== 1 ||
    !gmtOrNull(c['after']) ||
    !gmtOrNull(c['tie']) ||
    !gmtOrNull(c['startedAt']) ||
    !gmtOrNull(c['maxSeen']) ||
    typeof c['page'] !== 'number' ||
    !Number.isSafeInteger(c['page']) ||
    c['page'] < 1 ||
    typeof c['full'] !== 'boolean'
  ) {
    return undefined;
  }
  return {
    v: 1,
    after: c['after'],
    page: c['page'],
    tie: c['tie'],
    startedAt: c['startedAt'],
    maxSeen: c['maxSeen'],
    full: c['full'],
  };
}

/** The query of the next keyset page (without the collection filter). */
export function keysetQuery(cursor: CrawlCursor, perPage: number): Query {
  return {
    orderby: 'modified',
    order: 'asc',
    per_page: perPage,
    page: cursor.page,
    ...(cursor.after === null ? {} : { modified_after: queryTime(cursor.after) }),
  };
}

/** One page of a sweep of the single second `second`, in id order. */
export function tieQuery(second: string, page: number, perPage: number): Query {
  const before = shiftGmt(second, 1);
  return {
    orderby: 'id',
    order: 'asc',
    per_page: perPage,
    page,
    modified_after: queryTime(shiftGmt(second, -1)),
    // The last second of year 9999 has no successor the server would accept as a date.
    ...(isGmt(before) ? { modified_before: queryTime(before) } : {}),
  };
}

export interface PageFacts {
  /** Records the server returned (bad ones included: they fill the page too). */
  readonly count: number;
  readonly perPage: number;
  /** `modified_gmt` of the usable items, in the order returned. */
  readonly timestamps: readonly string[];
  /** `X-CMS-TotalPages` of the query, when sent: no page past it is asked for. */
  readonly totalPages?: number | undefined;
}

export type KeysetStep =
  { readonly done: true } | { readonly done: false; readonly cursor: CrawlCursor };

/**
 * After a keyset page:
 * - short page → the crawl is complete;
 * - full page, all one second T → sweep that second alone (`tie`);
 * - full page over several seconds → next window after (last second − 1 s): the last second
 *   is read again, because more items of it may follow the page; the re-read ones are
 *   recognised by their content hash;
 * - nothing to move the window on (no usable timestamps, or the server ignored the order) →
 *   the next page number of the same window, until a short page. `X-CMS-TotalPages` does not
 *   end a walk whose page is full: a server that says "1" while it holds more would lose
 *   items; a server that fills every page number is stopped by the stream's request bound
 *   (crawl-budget.ts) or by a page that repeats the one before it.
 *
 * Records at or before `cursor.after` are outside the window: a server that compares
 * `modified_after` loosely ("at or after") or ignores it sent them. They are stored but move
 * nothing; without this, such a page (say 150 items of one bulk-imported second) would send
 * the crawl back to sweeping that second for ever.
 */
export function afterKeysetPage(cursor: CrawlCursor, page: PageFacts): KeysetStep {
  if (page.count < page.perPage) return { done: true };
  const nextPage = (): KeysetStep => ({
    done: false,
    cursor: { ...cursor, page: cursor.page + 1 },
  });
  let first: string | undefined;
  let last: string | undefined;
  let outside = 0;
  let ordered = true;
  for (const ts of page.timestamps) {
    if (cursor.after !== null && ts <= cursor.after) {
      outside += 1;
      continue;
    }
    if (last !== undefined && ts < last) ordered = false;
    if (first === undefined || ts < first) first = ts;
    if (last === undefined || ts > last) last = ts;
  }
  // Not in the order asked for: the window cannot be trusted to hold what comes before `last`.
  if (first === undefined || last === undefined || !ordered) return nextPage();
  if (first === last && outside === 0) {
    return { done: false, cursor: { ...cursor, tie: last, page: 1 } };
  }
  const next = shiftGmt(last, -1);
  if (cursor.after !== null && next <= cursor.after) return nextPage();
  return { done: false, cursor: { ...cursor, after: next, page: 1 } };
}

/** Progress of the sweeps of one second. */
export interface TieSweep {
  readonly page: number;
  /** Whether the current sweep has brought an id no earlier page of this second had. */
  readonly foundNew: boolean;
  readonly sweeps: number;
}

export const FIRST_SWEEP: TieSweep = { page: 1, foundNew: false, sweeps: 1 };

/**
 * After a page of a tie sweep. A sweep ends on a short page (not on the last page the server
 * reports: see afterKeysetPage); it is repeated until one brings no new id, because items edited during the sweep
 * leave the second and shift the later pages (one of those could have been skipped). Then the
 * crawl continues strictly after the second.
 */
export function afterTiePage(
  state: TieSweep,
  page: {
    readonly count: number;
    readonly perPage: number;
    readonly newIds: number;
    readonly totalPages?: number | undefined;
  },
): TieSweep | 'done' {
  const foundNew = state.foundNew || page.newIds > 0;
  if (page.count >= page.perPage) {
    return { page: state.page + 1, foundNew, sweeps: state.sweeps };
  }
  if (!foundNew) return 'done';
  return { page: 1, foundNew: false, sweeps: state.sweeps + 1 };
}

/** The cursor once the second `tie` has been swept: strictly after it. */
export function afterTie(cursor: CrawlCursor): CrawlCursor {
  return cursor.tie === null ? cursor : { ...cursor, after: cursor.tie, tie: null, page: 1 };
}

/**
 * The watermark a finished crawl leaves: the latest `modified_gmt` it stored, but never later
 * than the server's clock when it started. An item edited during the crawl gets a
 * `modified_gmt` at or after that start; capping there makes the next pull (which asks for
 * "after watermark − 1 s") read it again even if this crawl had already passed its second.
 * A crawl that stored nothing keeps the old watermark.
 */
export function finalWatermark(old: string | null, cursor: CrawlCursor): string | null {
  if (cursor.maxSeen === null) return old;
  return earlierGmt(cursor.maxSeen, cursor.startedAt);
}
