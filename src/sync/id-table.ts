/**
 * Per-id bookkeeping of one collection stream (which ids a pull listed, how each was counted),
 * compact enough for a million ids: the ids sit in a sorted `Float64Array` with a parallel
 * `Uint8Array` of value codes, about 9 bytes an id, where a `Map`/`Set` of a million numbers
 * costs tens of megabytes (test/bench/id-table-memory.bench.ts). New ids wait in a small
 * `Map` that is merged into the sorted part once it holds an eighth as many ids, so the merges
 * stay few (O(log n) of them) and the extra memory bounded by that eighth.
 *
 * Ids are safe non-negative integers (a record's id, checked before it gets here); a value is
 * one of the few given to the constructor. What bounds the number of ids is the caller's
 * (the crawl budget refuses a collection of more than `MAX_LIST_ITEMS`).
 */

/** New ids held in the `Map` before the first merge (the sorted part grows from there). */
const MIN_PENDING = 1024;

export class IdTable<V> {
  readonly #values: readonly V[];
  #ids = new Float64Array(0);
  #codes = new Uint8Array(0);
  /** Ids not in `#ids` yet, with their value codes. */
  #pending = new Map<number, number>();

  /** @param values every value the table may hold (at most 256). */
  constructor(values: readonly V[]) {
    if (values.length === 0 || values.length > 256) {
      throw new RangeError(`an IdTable holds 1 to 256 distinct values, not ${values.length}`);
    }
    this.#values = values;
  }

  /** Distinct ids held. */
  get size(): number {
    return this.#ids.length + this.#pending.size;
  }

  has(id: number): boolean {
    return this.#pending.has(id) || this.#find(id) >= 0;
  }

  get(id: number): V | undefined {
    const pending = this.#pending.get(id);
    if (pending !== undefined) return this.#values[pending];
    const at = this.#find(id);
    return at < 0 ? undefined : this.#values[this.#codes[at] as number];
  }

  set(id: number, value: V): this {
    if (!Number.isSafeInteger(id) || id < 0) {
      throw new RangeError(`an IdTable holds non-negative safe integer ids, not ${id}`);
    }
    const code = this.#values.indexOf(value);
    if (code < 0) throw new RangeError(`${String(value)} is not one of this IdTable's values`);
    const at = this.#find(id);
    if (at >= 0) {
      this.#codes[at] = code;
      return this;
    }
    this.#pending.set(id, code);
    if (this.#pending.size >= Math.max(MIN_PENDING, this.#ids.length >> 3)) this.#merge();
    return this;
  }

  /** The value of every id held (in no particular order). */
  *values(): IterableIterator<V> {
    for (const code of this.#codes) yield this.#values[code] as V;
    for (const code of this.#pending.values()) yield this.#values[code] as V;
  }

  /** Index of `id` in the sorted part, or -1. */
  #find(id: number): number {
    const ids = this.#ids;
    let low = 0;
    let high = ids.length - 1;
    while (low <= high) {
      const middle = (low + high) >>> 1;
      const found = ids[middle] as number;
      if (found === id) return middle;
      if (found < id) low = middle + 1;
      else high = middle - 1;
    }
    return -1;
  }

  /** Merges the pending ids (none of which is in the sorted part) into it. */
  #merge(): void {
    const added = Float64Array.from(this.#pending.keys()).sort();
    const old = this.#ids;
    const oldCodes = this.#codes;
    const ids = new Float64Array(old.length + added.length);
    const codes = new Uint8Array(ids.length);
    let i = 0;
    let j = 0;
    for (let k = 0; k < ids.length; k++) {
      if (j >= added.length || (i < old.length && (old[i] as number) < (added[j] as number))) {
        ids[k] = old[i] as number;
        codes[k] = oldCodes[i] as number;
        i++;
      } else {
        const id = added[j] as number;
        ids[k] = id;
        codes[k] = this.#pending.get(id) as number;
        j++;
      }
    }
    this.#ids = ids;
    this.#codes = codes;
    this.#pending = new Map();
  }
}

/** A set of ids on an `IdTable`: the same 9 bytes an id, no values. */
export class IdSet {
  readonly #table = new IdTable<true>([true]);

  get size(): number {
    return this.#table.size;
  }

  has(id: number): boolean {
    return this.#table.has(id);
  }

  add(id: number): this {
    this.#table.set(id, true);
    return this;
  }
}
