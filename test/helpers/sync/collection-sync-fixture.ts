import { beforeEach } from 'vitest';
import type { CmsClient } from '../../../src/client/index.js';
import type { Store } from '../../../src/store/index.js';
import { CollectionSync, type CollectionSyncDeps } from '../../../src/sync/collection-sync.js';
import {
  emptyCounters,
  type PullCounters,
  type PullEvent,
} from '../../../src/sync/pull-summary.js';
import { FakeSite } from '../fake-site.js';
import { useTempStore } from '../store/temp-store.js';

/** What a test may set of one stream's run; the rest is a view pull of `pl` posts. */
export interface SyncOptions extends Partial<
  Pick<
    CollectionSyncDeps,
    | 'perPage'
    | 'mode'
    | 'backup'
    | 'historyRun'
    | 'checkedTotal'
    | 'fullSweepEvery'
    | 'onItems'
    | 'signal'
  >
> {
  type?: 'posts' | 'pages' | 'media';
  /** The client the stream reads through. @default the in-memory site's */
  client?: CmsClient;
  /** The site's client fails after this many requests (a killed pull). */
  failAfter?: number;
  /** Items the site counts in `X-CMS-Total` but never lists (observed-behaviour.md). */
  unlisted?: number;
  /** Sees each event as it is emitted (they are all kept in `events` too). */
  onEvent?: (event: PullEvent) => void;
}

export interface CollectionSyncFixture {
  /** The running test's cache (a fresh file per test). */
  readonly store: Store;
  /** The running test's in-memory site (a fresh one per test; a test may put another). */
  site: FakeSite;
  /** Every event of the test's runs, in order. */
  readonly events: PullEvent[];
  /** The warnings among `events`. */
  warnings(): string[];
  /** One CollectionSync stream run to its end; its counters. */
  sync(options?: SyncOptions): Promise<PullCounters>;
}

/**
 * The set-up of the CollectionSync unit tests: a fresh cache and in-memory site per test, and
 * one stream run against them (`perPage` of `defaults` unless a run sets its own).
 */
export function useCollectionSync(defaults: { perPage: number } = { perPage: 10 }) {
  const cache = useTempStore();
  let site: FakeSite | undefined;
  let events: PullEvent[] = [];
  beforeEach(() => {
    site = new FakeSite();
    events = [];
  });
  const fixture: CollectionSyncFixture = {
    get store(): Store {
      return cache.store;
    },
    get site(): FakeSite {
      return site!;
    },
    set site(value: FakeSite) {
      site = value;
    },
    get events(): PullEvent[] {
      return events;
    },
    warnings: () => events.flatMap((event) => (event.type === 'warning' ? [event.message] : [])),
    async sync(options: SyncOptions = {}): Promise<PullCounters> {
      const counters = emptyCounters();
      await new CollectionSync({
        client: options.client ?? siteClient(site!, options),
        store: cache.store,
        lang: 'pl',
        type: options.type ?? 'posts',
        mode: options.mode ?? 'view',
        perPage: options.perPage ?? defaults.perPage,
        backup: options.backup ?? false,
        historyRun: options.historyRun,
        counters,
        emit: (event) => {
          events.push(event);
          options.onEvent?.(event);
        },
        checkedTotal: options.checkedTotal,
        fullSweepEvery: options.fullSweepEvery,
        onItems: options.onItems,
        signal: options.signal,
      }).run();
      return counters;
    },
  };
  return fixture;
}

/** The site's client, failing after `failAfter` requests, with `X-CMS-Total` raised by `unlisted`. */
function siteClient(site: FakeSite, options: SyncOptions): CmsClient {
  const inner = site.client(
    options.failAfter === undefined ? {} : { failAfter: options.failAfter },
  );
  const unlisted = options.unlisted ?? 0;
  if (unlisted === 0) return inner;
  const get = inner.get.bind(inner);
  return Object.assign(Object.create(inner) as typeof inner, {
    get: async (route: string, query?: Record<string, unknown>) => {
      const answer = await get(route, query as never);
      const headers = { ...answer.headers } as Record<string, string>;
      headers['x-cms-total'] = String(Number(headers['x-cms-total']) + unlisted);
      return { ...answer, headers };
    },
  });
}
