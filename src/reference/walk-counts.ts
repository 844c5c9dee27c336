import type { SortedItems } from './sorted-items.js';
import type { StoredItem } from './store.js';

/**
 * Counting `X-CMS-Total` without walking the whole index on every request. A crawl asks the
 * same filters again and again with only the range bound (`modified_after`) or the page
 * moving; the counts of matching items before each position of the presorted list (prefix
 * counts) answer the total in O(1) and find a page's first item by binary search. They are
 * kept per list and filter signature, for the store version they were made at (any change
 * to the store makes new ones), a few per list.
 */
type Predicate = (item: StoredItem) => boolean;

/** Signatures kept per list: a crawl uses one or two at a time. */
const KEPT = 4;

interface Entry {
  readonly version: number;
  /** `prefix[i]`: how many of the list's first `i` items match. Length `list.length + 1`. */
  readonly prefix: Int32Array;
}

/** Per presorted list; entries go when the list does (a WeakMap: no state of its own to clear). */
const cache = new WeakMap<SortedItems<StoredItem>, Map<string, Entry>>();

export function prefixCounts(
  sorted: SortedItems<StoredItem>,
  signature: string,
  version: number,
  accept: Predicate,
): Int32Array {
  let entries = cache.get(sorted);
  if (entries === undefined) cache.set(sorted, (entries = new Map()));
  const found = entries.get(signature);
  if (found !== undefined && found.version === version) {
    // Most recently used last.
    entries.delete(signature);
    entries.set(signature, found);
    return found.prefix;
  }
  const list = sorted.items;
  const prefix = new Int32Array(list.length + 1);
  let count = 0;
  for (let i = 0; i < list.length; i++) {
    if (accept(list[i] as StoredItem)) count++;
    prefix[i + 1] = count;
  }
  entries.delete(signature);
  entries.set(signature, { version, prefix });
  while (entries.size > KEPT) entries.delete(entries.keys().next().value as string);
  return prefix;
}

/** Index of the matching item of rank `rank` (0-based, over the whole list). */
export function positionOfRank(prefix: Int32Array, rank: number): number {
  // The first j with prefix[j] > rank; the item is at j - 1.
  let low = 0;
  let high = prefix.length - 1;
  while (low < high) {
    const middle = (low + high) >>> 1;
    if ((prefix[middle] as number) > rank) high = middle;
    else low = middle + 1;
  }
  return low - 1;
}
