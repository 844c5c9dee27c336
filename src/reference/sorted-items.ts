/**
 * Items kept sorted ascending by (key, id), so that list queries ordered by date, modified or
 * id walk a presorted array and range filters (`modified_after`, ...) start by binary search
 * instead of scanning 100,000 items.
 */
export interface Keyed {
  readonly id: number;
}

export class SortedItems<T extends Keyed> {
  readonly #key: (item: T) => number;
  #list: T[] = [];

  constructor(key: (item: T) => number) {
    this.#key = key;
  }

  get items(): readonly T[] {
    return this.#list;
  }

  keyOf(item: T): number {
    return this.#key(item);
  }

  /** Adds many items at once (one sort instead of n insertions): used by the seed. */
  addMany(items: readonly T[]): void {
    for (const item of items) this.#list.push(item);
    this.#list.sort((a, b) => this.#key(a) - this.#key(b) || a.id - b.id);
  }

  insert(item: T): void {
    this.#list.splice(this.#position(this.#key(item), item.id), 0, item);
  }

  /** Removes `item`, located by the key it had when it was inserted. */
  remove(item: T, key: number): void {
    const at = this.#position(key, item.id);
    if (this.#list[at] === item) {
      this.#list.splice(at, 1);
      return;
    }
    // The key was changed behind our back: fall back to a scan rather than corrupt the order.
    const index = this.#list.indexOf(item);
    if (index >= 0) this.#list.splice(index, 1);
  }

  /** Index of the first item whose key is >= `key`. */
  lowerBound(key: number): number {
    return this.#position(key, -Infinity);
  }

  /** Index of the first item whose key is > `key`. */
  upperBound(key: number): number {
    return this.#position(key, Infinity);
  }

  #position(key: number, id: number): number {
    let low = 0;
    let high = this.#list.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const item = this.#list[mid] as T;
      const k = this.#key(item);
      if (k < key || (k === key && item.id < id)) low = mid + 1;
      else high = mid;
    }
    return low;
  }
}
