import type { ItemType, Store } from '../store/index.js';
import type { CrawlItem } from './record-check.js';

/** Queued moved items read per round. */
const PARENTS_PER_ROUND = 1000;

export interface DescendantsRefresh {
  readonly store: Store;
  readonly lang: string;
  /** A collection whose items form a tree (`hierarchical`). */
  readonly type: ItemType;
  readonly signal?: AbortSignal | undefined;
  /** Parents whose children this pull fetched already (a parent cycle must not loop). */
  readonly fetched: Set<number>;
  /** The usable children of these parents, as the site lists them. */
  readonly fetchChildren: (parents: readonly number[]) => Promise<readonly CrawlItem[]>;
  /** Stores the children (which queues those whose own link changed in turn). */
  readonly storeItems: (items: readonly CrawlItem[]) => void;
}

/**
 * Refetches the children of moved pages, level by level (a child whose own link changed
 * passes it on to its children). The parents come from the queue, where each moved page was
 * put in the transaction that stored it: a pull killed before this ends leaves the work to
 * the next one. Nothing queued, no request: a pull where no page moved costs what it did.
 */
export async function refreshDescendants(refresh: DescendantsRefresh): Promise<void> {
  const { store, lang, type } = refresh;
  for (;;) {
    refresh.signal?.throwIfAborted();
    const queued = store.syncQueue.next(lang, 'children', type, 0, PARENTS_PER_ROUND);
    if (queued.length === 0) return;
    // A parent cycle on the site brings a page back here: its children were fetched already.
    const parents = queued.filter((id) => !refresh.fetched.has(id));
    for (const id of parents) refresh.fetched.add(id);
    if (parents.length > 0) refresh.storeItems(await refresh.fetchChildren(parents));
    // Only now: a kill before this line fetches these children again next time.
    store.syncQueue.remove(lang, 'children', type, queued);
  }
}
