/**
 * One crawl stream: one collection of one language. Runs the keyset crawl of crawl-plan.ts,
 * stores each page with its cursor (and the work the page's changed items need) in ONE
 * transaction, then reconciles deletions: counts first (less what the site counts but did not
 * list, deletion-check.ts), `include` probes only when they move, and a rescan from the
 * beginning as the last resort; every Nth pull is a full listing. Pages whose link changed (a new
 * slug or parent) get their descendants refetched by parent: their links changed with it while
 * their `modified_gmt` did not, so the keyset crawl alone would never see them again.
 */
import type { CmsClient, Query } from '../client/index.js';
import { nestsDeeperThan } from '../client/json-depth.js';
import type { ItemType, Store, UpsertResult } from '../store/index.js';
import { SiteError } from '../errors.js';
import { CrawlBudget, type ListClient } from './crawl-budget.js';
import { collectionFilter, collectionRoute, type PullMode } from './collections.js';
import { isPublicItem } from './content-media.js';
import {
  afterKeysetPage,
  afterTie,
  afterTiePage,
  finalWatermark,
  FIRST_SWEEP,
  freshCursor,
  keysetQuery,
  parseCursor,
  tieQuery,
  type CrawlCursor,
  type TieSweep,
} from './crawl-plan.js';
import {
  countsAgree,
  DEFAULT_FULL_SWEEP_EVERY,
  fullSweepDue,
  unlistedAfterListing,
} from './deletion-check.js';
import { laterGmt } from './gmt-time.js';
import {
  fetchChildren,
  fetchList,
  presentIds,
  remoteCount,
  type FetchedList,
} from './list-fetch.js';
import { movedPageIds } from './moved-pages.js';
import type { PullCounters, PullEvent } from './pull-summary.js';
import { checkRecords, MAX_RECORD_DEPTH, type CrawlItem } from './record-check.js';

export interface CollectionSyncDeps {
  readonly client: CmsClient;
  readonly store: Store;
  readonly lang: string;
  readonly type: ItemType;
  readonly mode: PullMode;
  /** `per_page` of every crawl request: the route's maximum. */
  readonly perPage: number;
  /** Queue revisions and autosaves of changed posts and pages. */
  readonly backup: boolean;
  /** `runs.id` of this pull when it keeps the item history (backup mode). @default undefined */
  readonly historyRun?: number | undefined;
  /** This language's counters (shared by its streams). */
  readonly counters: PullCounters;
  readonly emit: (event: PullEvent) => void;
  readonly signal?: AbortSignal | undefined;
  /**
   * `X-CMS-Total` under this stream's filter, read by the checks up front: the count of a pull
   * whose crawl changed nothing (saves a request). @default undefined (counted after the crawl)
   */
  readonly checkedTotal?: number | undefined;
  /** Every Nth pull lists the collection in full. @default DEFAULT_FULL_SWEEP_EVERY */
  readonly fullSweepEvery?: number | undefined;
  /** Sees every stored page (the site-info step picks the site representation from it). */
  readonly onItems?: ((items: readonly CrawlItem[]) => void) | undefined;
}

/** Most sweeps of one second before giving up on it (only a site edited without pause gets there). */
const MAX_SWEEPS = 50;

/**
 * Pages of one keyset window, or of one sweep of a second, before the walk is refused. A
 * cms-json site moves the window on with every full page (or says where its pages end);
 * only a server that fills every page number with records that move nothing gets this far.
 */
export const MAX_PAGES_WITHOUT_PROGRESS = 100;
/** Ids per `include` probe. */
const PROBE_CHUNK = 100;
/** Parent ids per `parent` request of the descendants' refresh. */
const PARENT_CHUNK = 100;

/** Queued moved pages read per round of `#refreshDescendants`. */
const PARENTS_PER_ROUND = 1000;

type Counted = 'created' | 'updated' | 'unchanged';

export class CollectionSync {
  readonly #d: CollectionSyncDeps;
  readonly #route: string;
  readonly #filter: Query;
  /** The client for list requests, counted against the stream's bound (crawl-budget.ts). */
  readonly #lists: ListClient;
  /** Ids stored by this pull and how each was counted: an id is counted once per pull. */
  readonly #counted = new Map<number, Counted>();
  /** Bad records already reported (re-reads of a window must not count them again). */
  readonly #badSeen = new Set<string>();
  #cursor: CrawlCursor;
  #watermark: string | null;
  /** `X-CMS-Total` of an unfiltered first page in this run: the whole remote set. */
  #fullTotal: number | undefined;
  /** Expected items of the current crawl, for progress. */
  #expected: number | undefined;
  #stored = 0;
  /** Whether this pull's crawl listed the collection from the beginning. */
  #listedAll = false;
  /** Pages whose children this pull refetched (a parent cycle on the site must not loop). */
  readonly #childrenFetched = new Set<number>();

  constructor(deps: CollectionSyncDeps) {
    this.#d = deps;
    this.#route = collectionRoute(deps.type);
    this.#filter = collectionFilter(deps.type, deps.mode);
    const budget = new CrawlBudget(
      deps.perPage,
      deps.store.items.count(deps.lang, deps.type),
      `${deps.type} in ${deps.lang}`,
    );
    this.#lists = budget.wrap(deps.client);
    const state = deps.store.syncState.get(deps.lang, deps.type);
    const sameContext =
      state === undefined || state.context === null || state.context === deps.mode;
    if (!sameContext) {
      // Items stored in the other context lack fields (view → edit) or include statuses the
      // new mode must not keep (edit → view): start over, the probe tombstones the extra ones.
      this.#warn(
        `${deps.type}: switching from context=${state.context} to ${deps.mode}: full crawl`,
      );
    }
    this.#watermark = sameContext ? (state?.watermarkGmt ?? null) : null;
    const every = deps.fullSweepEvery ?? DEFAULT_FULL_SWEEP_EVERY;
    // A due full listing starts from the beginning; the watermark stays where it is.
    const sweep = fullSweepDue(state?.pullsSinceListing ?? null, every);
    this.#cursor =
      (sameContext ? parseCursor(state?.cursor) : undefined) ??
      freshCursor(sweep ? null : this.#watermark);
  }

  /** Crawl, then reconcile deletions. */
  async run(): Promise<void> {
    await this.#crawl();
    await this.#reconcile(false);
  }

  async #crawl(): Promise<void> {
    await this.#crawlPages();
    await this.#refreshDescendants();
  }

  async #crawlPages(): Promise<void> {
    this.#progress('crawl');
    if (this.#cursor.full) this.#listedAll = true;
    let lastPageIds: number[] = [];
    let previousKey: string | undefined;
    for (;;) {
      this.#d.signal?.throwIfAborted();
      if (this.#cursor.tie !== null) {
        await this.#sweepTie(lastPageIds);
        continue;
      }
      const cursor = this.#cursor;
      const list = await fetchList(this.#lists, this.#route, {
        ...this.#filter,
        ...keysetQuery(cursor, this.#d.perPage),
      });
      previousKey = checkNotRepeated(list, cursor.page, previousKey);
      if (cursor.page === 1 && this.#expected === undefined) this.#expected = list.total;
      if (cursor.after === null && cursor.page === 1) this.#fullTotal = list.total;
      const { items, timestamps } = this.#check(list.records);
      let next: CrawlCursor = {
        ...cursor,
        startedAt: cursor.startedAt ?? list.date ?? null,
        maxSeen: timestamps.reduce<string | null>(laterGmt, cursor.maxSeen),
      };
      const step = afterKeysetPage(next, {
        count: list.records.length,
        perPage: this.#d.perPage,
        timestamps,
        totalPages: list.totalPages,
      });
      if (!step.done && step.cursor.page > MAX_PAGES_WITHOUT_PROGRESS) throw endlessWalk(list.url);
      if (step.done) {
        // The crawl's last page, its watermark and the end of the cursor commit together.
        const watermark = finalWatermark(this.#watermark, next);
        this.#storePage(items, { cursor: null, watermarkGmt: watermark });
        this.#watermark = watermark;
        this.#cursor = freshCursor(watermark);
        return;
      }
      next = step.cursor;
      this.#storePage(items, { cursor: next });
      this.#cursor = next;
      lastPageIds = items.map((item) => item.id);
    }
  }

  /**
   * Sweeps the second `cursor.tie` in id order until a sweep brings no new id. A resumed
   * sweep starts again at page 1 (ids seen before the kill are not remembered: one more sweep).
   */
  async #sweepTie(seeded: readonly number[]): Promise<void> {
    const second = this.#cursor.tie as string;
    const seen = new Set<number>(seeded);
    let sweep: TieSweep = FIRST_SWEEP;
    let previousKey: string | undefined;
    for (;;) {
      this.#d.signal?.throwIfAborted();
      const list = await fetchList(this.#lists, this.#route, {
        ...this.#filter,
        ...tieQuery(second, sweep.page, this.#d.perPage),
      });
      previousKey = checkNotRepeated(list, sweep.page, previousKey);
      const { items, timestamps } = this.#check(list.records);
      let newIds = 0;
      for (const item of items) {
        if (!seen.has(item.id)) {
          seen.add(item.id);
          newIds += 1;
        }
      }
      const cursor: CrawlCursor = {
        ...this.#cursor,
        maxSeen: timestamps.reduce<string | null>(laterGmt, this.#cursor.maxSeen),
      };
      const next = afterTiePage(sweep, {
        count: list.records.length,
        perPage: this.#d.perPage,
        newIds,
        totalPages: list.totalPages,
      });
      if (next !== 'done' && next.page > MAX_PAGES_WITHOUT_PROGRESS) throw endlessWalk(list.url);
      const giveUp = next !== 'done' && next.sweeps > MAX_SWEEPS;
      if (giveUp) {
        this.#warn(
          `${this.#d.type}: the items of ${second} kept changing through ${MAX_SWEEPS} sweeps; moving on (the next pull reads them again)`,
        );
      }
      if (next === 'done' || giveUp) {
        const after = afterTie(cursor);
        this.#storePage(items, { cursor: after });
        this.#cursor = after;
        return;
      }
      this.#storePage(items, { cursor });
      this.#cursor = cursor;
      sweep = next;
    }
  }

  /**
   * Refetches the children of moved pages, level by level (a child whose own link changed
   * passes it on to its children). The parents come from the queue, where each moved page was
   * put in the transaction that stored it: a pull killed before this ends leaves the work to
   * the next one. Nothing queued, no request: a pull where no page moved costs what it did.
   */
  async #refreshDescendants(): Promise<void> {
    const { store, lang, type } = this.#d;
    if (type !== 'pages') return;
    for (;;) {
      this.#d.signal?.throwIfAborted();
      const queued = store.syncQueue.next(lang, 'children', type, 0, PARENTS_PER_ROUND);
      if (queued.length === 0) return;
      // A parent cycle on the site brings a page back here: its children were fetched already.
      const parents = queued.filter((id) => !this.#childrenFetched.has(id));
      for (const id of parents) this.#childrenFetched.add(id);
      if (parents.length > 0) {
        const records = await fetchChildren(
          this.#lists,
          this.#route,
          this.#filter,
          parents,
          this.#d.perPage,
          Math.min(PARENT_CHUNK, this.#d.perPage),
        );
        const { items } = this.#check(records);
        // Stored in crawl-sized chunks, each its own transaction, without touching the cursor.
        for (let start = 0; start < items.length; start += this.#d.perPage) {
          this.#storePage(items.slice(start, start + this.#d.perPage), undefined);
        }
      }
      // Only now: a kill before this line fetches these children again next time.
      store.syncQueue.remove(lang, 'children', type, queued);
    }
  }

  /**
   * Deletions and unpublishing. Counts that agree (the site's total less what it counted but
   * did not list at the last full listing): done, a no-op pull costs at most one request here.
   * Otherwise probe the live ids this pull has not seen and tombstone the absent ones. Counts
   * that still disagree (something came back without a newer `modified`, or the unlisted part
   * changed): rescan once from the beginning. A full listing records the new unlisted part.
   */
  async #reconcile(rescanned: boolean): Promise<void> {
    const { store, lang, type } = this.#d;
    this.#progress('deletions');
    const remote = this.#fullTotal ?? (await this.#remoteTotal());
    const state = store.syncState.get(lang, type);
    const known = state?.unlisted ?? null;
    let local = store.items.count(lang, type);
    if (this.#listedAll || !countsAgree({ remote, local, unlisted: known })) {
      await this.#tombstoneUnseen();
      local = store.items.count(lang, type);
      // Records this pull skipped (too deep, ...) are listed but never stored: no rescan for them.
      const skipped = [...this.#badSeen].filter((key) => key.startsWith('id:')).length;
      if (
        !this.#listedAll &&
        remote !== undefined &&
        !countsAgree({ remote, local: local + skipped, unlisted: known })
      ) {
        if (!rescanned) {
          this.#warn(
            `${type}: the site counts ${remote} items (${known ?? 0} of them unlisted at the last full listing), the cache ${local} after the crawl: rescanning from the beginning`,
          );
          await this.#rescan();
          return;
        }
      }
    }
    const listed = this.#listedAll || rescanned;
    store.syncState.set(lang, type, {
      remoteTotal: remote ?? null,
      localTotal: local,
      context: this.#d.mode,
      unlisted: listed ? unlistedAfterListing(remote, local) : known,
      pullsSinceListing: listed ? 0 : (state?.pullsSinceListing ?? 0) + 1,
    });
  }

  /** The total after the crawl: the one read up front when the crawl changed nothing. */
  async #remoteTotal(): Promise<number | undefined> {
    const changed = [...this.#counted.values()].some((outcome) => outcome !== 'unchanged');
    if (this.#d.checkedTotal !== undefined && !changed) return this.#d.checkedTotal;
    return remoteCount(this.#lists, this.#route, this.#filter);
  }

  /** Probes the live ids this pull has not seen (100 per request); tombstones the absent. */
  async #tombstoneUnseen(): Promise<void> {
    const { store, lang, type } = this.#d;
    const client = this.#lists;
    const unseen = store.items
      .listIds(lang, type)
      .map((row) => row.id)
      .filter((id) => !this.#counted.has(id));
    if (unseen.length === 0) return;
    const present = await presentIds(
      client,
      this.#route,
      this.#filter,
      unseen,
      Math.min(PROBE_CHUNK, this.#d.perPage),
    );
    const gone = unseen.filter((id) => !present.has(id));
    if (gone.length > 0) {
      const { historyRun } = this.#d;
      this.#d.counters.deleted += store.transaction(() => {
        const tombstoned = store.items.tombstone(lang, type, gone);
        if (historyRun !== undefined) store.itemVersions.recordGone(lang, type, gone, historyRun);
        return tombstoned;
      });
    }
  }

  async #rescan(): Promise<void> {
    const { store, lang, type } = this.#d;
    this.#cursor = freshCursor(null);
    this.#fullTotal = undefined;
    this.#expected = undefined;
    store.syncState.set(lang, type, { cursor: this.#cursor, context: this.#d.mode });
    await this.#crawl();
    await this.#reconcile(true);
  }

  /** Splits records into usable items and bad ones (logged, counted, skipped). */
  #check(records: readonly unknown[]): { items: CrawlItem[]; timestamps: string[] } {
    const { items, bad } = checkRecords(records);
    for (const record of bad) {
      const key = record.id === undefined ? recordKey(records[record.index]) : `id:${record.id}`;
      if (this.#badSeen.has(key)) continue;
      this.#badSeen.add(key);
      this.#d.counters.skipped += 1;
      this.#warn(
        `${this.#d.type}: skipped a bad record${record.id === undefined ? '' : ` (id ${record.id})`}: ${record.reason}`,
      );
    }
    return { items, timestamps: items.map((item) => item.modified_gmt) };
  }

  /**
   * Stores a page, the work its changed items need, and the crawl state (when given) in ONE
   * transaction: a kill before it loses the page (fetched again), a kill after it loses nothing.
   */
  #storePage(
    items: readonly CrawlItem[],
    state: { cursor: CrawlCursor | null; watermarkGmt?: string | null } | undefined,
  ): void {
    const { store, lang, type, mode, backup } = this.#d;
    const result = store.transaction((): UpsertResult => {
      if (type === 'pages') {
        // Read in the transaction: the links these items replace. Their children's links
        // changed with theirs: refetched (from the queue) once the crawl is done.
        const cachedLinks = new Map<number, string | null>();
        for (const item of items) {
          const cached = store.items.get(lang, type, item.id);
          if (cached !== undefined) cachedLinks.set(item.id, cached.link);
        }
        store.syncQueue.add(lang, 'children', type, movedPageIds(items, cachedLinks));
      }
      const upserted = store.items.upsertPage(lang, type, items, { context: mode });
      // Every id, not only the changed ones: a push may have stored a version no pull saw.
      if (this.#d.historyRun !== undefined) {
        store.itemVersions.recordStored(
          lang,
          type,
          items.map((item) => item.id),
          this.#d.historyRun,
        );
      }
      const byId = new Map(items.map((item) => [item.id, item]));
      const changed = upserted.outcomes.filter((o) => o.outcome !== 'unchanged').map((o) => o.id);
      if (changed.length > 0) {
        if (backup && type !== 'media') store.syncQueue.add(lang, 'revisions', type, changed);
        const assets =
          type === 'media'
            ? changed
            : changed.filter((id) => {
                const item = byId.get(id);
                return item !== undefined && isPublicItem(item);
              });
        store.syncQueue.add(lang, 'assets', type, assets);
      }
      if (state !== undefined) store.syncState.set(lang, type, { ...state, context: mode });
      return upserted;
    });
    this.#count(result);
    if (items.length > 0) this.#d.onItems?.(items);
    this.#stored += items.length;
    this.#progress('crawl');
  }

  /** Each id counted once per pull: a re-read is `unchanged` only if nothing else was counted. */
  #count(result: UpsertResult): void {
    const counters = this.#d.counters;
    for (const { id, outcome } of result.outcomes) {
      const before = this.#counted.get(id);
      if (before === undefined) {
        this.#counted.set(id, outcome);
        counters[outcome] += 1;
      } else if (before === 'unchanged' && outcome !== 'unchanged') {
        counters.unchanged -= 1;
        counters[outcome] += 1;
        this.#counted.set(id, outcome);
      }
    }
  }

  #progress(phase: 'crawl' | 'deletions'): void {
    this.#d.emit({
      type: 'progress',
      lang: this.#d.lang,
      collection: this.#d.type,
      phase,
      done: this.#stored,
      total: this.#expected,
    });
  }

  #warn(message: string): void {
    this.#d.emit({ type: 'warning', lang: this.#d.lang, message });
  }
}

/** A record without a usable id, as a key for "reported already" (safe at any depth). */
function recordKey(record: unknown): string {
  return nestsDeeperThan(record, MAX_RECORD_DEPTH) ? 'too deep' : String(JSON.stringify(record));
}

/**
 * The ids of `list` as a key, after checking that page `page` (> 1) is not the page before it
 * again: a server that ignores `page` answers every page number alike, and the walk would
 * only end at the request bound.
 */
function checkNotRepeated(
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

function endlessWalk(url: string): SiteError {
  return new SiteError(
    url,
    `${url} still answered a full page after ${MAX_PAGES_WITHOUT_PROGRESS} pages that did not move the crawl on (records without a usable modified_gmt, or not in the order asked for): it does not page like a cms-json site`,
  );
}
