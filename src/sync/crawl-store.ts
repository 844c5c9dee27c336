/**
 * A crawl's state in the cache: where a crawl resumes, and each page stored with the work its
 * changed items need and the crawl state (when given) in ONE transaction: a kill before it
 * loses the page (fetched again), a kill after it loses nothing. What work an item needs is the collection's fact (src/collections.ts): a
 * moved item of a page tree queues its children, a changed item with revisions queues them
 * (backup), a changed file or public item queues its files.
 */
import { collectionOf, type ItemType } from '../collections.js';
import type { Store, UpsertResult } from '../store/index.js';
import type { PullMode } from './collections.js';
import { isPublicItem } from './content-media.js';
import { freshCursor, parseCursor, type CrawlCursor } from './crawl-plan.js';
import { DEFAULT_FULL_SWEEP_EVERY, fullSweepDue } from './deletion-check.js';
import { movedPageIds } from './moved-pages.js';
import type { CrawlItem } from './record-check.js';

export interface CrawlStream {
  readonly lang: string;
  readonly type: ItemType;
  readonly mode: PullMode;
  /** Queue revisions and autosaves of changed items. */
  readonly backup: boolean;
  /** `runs.id` of this pull when it keeps the item history (backup mode). */
  readonly historyRun?: number | undefined;
}

export type CrawlState = { cursor: CrawlCursor | null; watermarkGmt?: string | null } | undefined;

/**
 * Where a crawl starts: the stored cursor (an interrupted crawl) or after the watermark; from
 * the beginning when a full listing is due (the watermark stays) or the context changed.
 */
export function resumeCrawl(
  store: Store,
  stream: Omit<CrawlStream, 'backup'>,
  fullSweepEvery: number | undefined,
  warn: (message: string) => void,
): { cursor: CrawlCursor; watermark: string | null } {
  const { lang, type, mode } = stream;
  const state = store.syncState.get(lang, type);
  const sameContext = state === undefined || state.context === null || state.context === mode;
  if (!sameContext) {
    // Items stored in the other context lack fields (view → edit) or include statuses the
    // new mode must not keep (edit → view): start over, the probe tombstones the extra ones.
    warn(`${type}: switching from context=${state.context} to ${mode}: full crawl`);
  }
  const watermark = sameContext ? (state?.watermarkGmt ?? null) : null;
  const every = fullSweepEvery ?? DEFAULT_FULL_SWEEP_EVERY;
  // A due full listing starts from the beginning; the watermark stays where it is.
  const sweep = fullSweepDue(state?.pullsSinceListing ?? null, every);
  const cursor =
    (sameContext ? parseCursor(state?.cursor) : undefined) ?? freshCursor(sweep ? null : watermark);
  return { cursor, watermark };
}

export function storeCrawlPage(
  store: Store,
  stream: CrawlStream,
  items: readonly CrawlItem[],
  state: CrawlState,
): UpsertResult {
  const { lang, type, mode, backup } = stream;
  const collection = collectionOf(type);
  return store.transaction((): UpsertResult => {
    if (collection.hierarchical) {
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
    if (stream.historyRun !== undefined) {
      store.itemVersions.recordStored(
        lang,
        type,
        items.map((item) => item.id),
        stream.historyRun,
      );
    }
    const byId = new Map(items.map((item) => [item.id, item]));
    const changed = upserted.outcomes.filter((o) => o.outcome !== 'unchanged').map((o) => o.id);
    if (changed.length > 0) {
      if (backup && collection.revisions) store.syncQueue.add(lang, 'revisions', type, changed);
      const assets = collection.file
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
}
