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
import { collectionOf, collectionRoute } from '../collections.js';
import type { ItemType, Store, UpsertResult } from '../store/index.js';
import { CrawlBudget, type ListClient } from './crawl-budget.js';
import { collectionFilter, type PullMode } from './collections.js';
import {
  checkNotRepeated,
  endlessWalk,
  MAX_PAGES_WITHOUT_PROGRESS,
  recordKey,
} from './crawl-guards.js';
import {
  afterKeysetPage,
  afterTie,
  afterTiePage,
  finalWatermark,
  FIRST_SWEEP,
  freshCursor,
  keysetQuery,
  tieQuery,
  type CrawlCursor,
  type TieSweep,
} from './crawl-plan.js';
import { countsAgree, unlistedAfterListing } from './deletion-check.js';
import { laterGmt } from './gmt-time.js';
import { IdTable } from './id-table.js';
import { fetchChildren, fetchList, remoteCount } from './list-fetch.js';
import { tombstoneUnseen } from './deletion-probe.js';
import type { PullCounters, PullEvent } from './pull-summary.js';
import { checkRecords, type CrawlItem } from './record-check.js';
import { resumeCrawl, storeCrawlPage, type CrawlState } from './crawl-store.js';
import { refreshDescendants } from './descendants-refresh.js';

export interface CollectionSyncDeps {
  readonly client: CmsClient;
  readonly store: Store;
  readonly lang: string;
  readonly type: ItemType;
  readonly mode: PullMode;
  /** `per_page` of every crawl request: the route's maximum. */
  readonly perPage: number;
  /** Queue revisions and autosaves of changed items (of collections that have them). */
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

/** Parent ids per `parent` request of the descendants' refresh. */
const PARENT_CHUNK = 100;

type Counted = 'created' | 'updated' | 'unchanged';

export class CollectionSync {
  readonly #d: CollectionSyncDeps;
  readonly #route: string;
  readonly #filter: Query;
  /** The client for list requests, counted against the stream's bound (crawl-budget.ts). */
  readonly #lists: ListClient;
  /** Ids stored by this pull and how each was counted: an id is counted once per pull. */
  readonly #counted = new IdTable<Counted>(['created', 'updated', 'unchanged']);
  /** The stream's first change was reported (`changed` events). */
  #reportedChange = false;
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
    const resumed = resumeCrawl(deps.store, deps, deps.fullSweepEvery, (message) =>
      this.#warn(message),
    );
    this.#watermark = resumed.watermark;
    this.#cursor = resumed.cursor;
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
      if (this.#expected === undefined) this.#expected = list.total;
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

  /** Refetches the children of moved pages, level by level (descendants-refresh.ts). */
  async #refreshDescendants(): Promise<void> {
    const { store, lang, type, perPage, signal } = this.#d;
    if (!collectionOf(type).hierarchical) return;
    await refreshDescendants({
      store,
      lang,
      type,
      signal,
      fetched: this.#childrenFetched,
      fetchChildren: async (parents) =>
        this.#check(
          await fetchChildren(
            this.#lists,
            this.#route,
            this.#filter,
            parents,
            perPage,
            Math.min(PARENT_CHUNK, perPage),
          ),
        ).items,
      // Stored in crawl-sized chunks, each its own transaction, without touching the cursor.
      storeItems: (items) => {
        for (let start = 0; start < items.length; start += perPage) {
          this.#storePage(items.slice(start, start + perPage), undefined);
        }
      },
    });
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

  /** Probes the live ids this pull has not seen; tombstones the absent (deletion-probe.ts). */
  async #tombstoneUnseen(): Promise<void> {
    const { store, lang, type, perPage, historyRun } = this.#d;
    // Awaited before the sum: `counters` is shared by the language's concurrent streams.
    const tombstoned = await tombstoneUnseen({
      store,
      lang,
      type,
      lists: this.#lists,
      route: this.#route,
      filter: this.#filter,
      perPage,
      historyRun,
      seen: (id) => this.#counted.has(id),
    });
    this.#d.counters.deleted += tombstoned;
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

  /** Stores a page with its work and the crawl state in one transaction (crawl-store.ts). */
  #storePage(items: readonly CrawlItem[], state: CrawlState): void {
    const { store, lang, type, mode, backup, historyRun } = this.#d;
    const result = storeCrawlPage(store, { lang, type, mode, backup, historyRun }, items, state);
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
      if (outcome !== 'unchanged') this.#changed();
    }
  }

  #changed(): void {
    if (this.#reportedChange) return;
    this.#reportedChange = true;
    this.#d.emit({ type: 'changed', lang: this.#d.lang, collection: this.#d.type });
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
