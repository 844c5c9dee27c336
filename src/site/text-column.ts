/**
 * Many short texts (a site's post files, their dates) in one growing buffer of UTF-8, in the
 * order they are added. Held as strings, the 1,000,000 placed posts' output files were ~100 MB
 * of the build thread's heap (one object each, many of them concatenations: the lead's heap
 * snapshot in test/bench/RESULTS.md, 2026-11-29), ~45 MB as bytes and ends. A text is made
 * again when asked for.
 */
export class TextColumn implements Iterable<string> {
  #bytes: Buffer;
  /** Where each text ends in `#bytes`; the first starts at 0, each other where the last ended. */
  #ends: Uint32Array;
  #length = 0;

  constructor(capacity = 16, bytesPerText = 48) {
    this.#ends = new Uint32Array(Math.max(1, capacity));
    this.#bytes = Buffer.allocUnsafe(Math.max(64, capacity * bytesPerText));
  }

  static from(texts: Iterable<string>): TextColumn {
    const column = new TextColumn(Array.isArray(texts) ? texts.length : 16);
    for (const text of texts) column.push(text);
    return column;
  }

  get length(): number {
    return this.#length;
  }

  push(text: string): void {
    const start = this.#end(this.#length);
    // Three bytes of UTF-8 at most for each UTF-16 unit.
    this.#reserve(start + text.length * 3);
    const end = start + this.#bytes.write(text, start, 'utf8');
    if (end > 0xffff_ffff) throw new Error('Internal error: a text column past 4 GiB.');
    if (this.#length === this.#ends.length) this.#ends = grown(this.#ends, this.#length * 2);
    this.#ends[this.#length++] = end;
  }

  get(index: number): string {
    this.#check(index);
    return this.#bytes.toString('utf8', this.#end(index), this.#end(index + 1));
  }

  /**
   * The order of two texts by their bytes (the order of their code points): the same for equal
   * texts, and the same order wherever it is used, without making either text.
   */
  compare(a: number, b: number): number {
    this.#check(a);
    this.#check(b);
    return this.#compareBytes(
      this.#bytes,
      this.#end(a),
      this.#end(a + 1),
      this.#end(b),
      this.#end(b + 1),
    );
  }

  /** `compare` of the text at `index` with a text given as UTF-8 bytes. */
  compareTo(index: number, bytes: Uint8Array): number {
    this.#check(index);
    const order = this.#compareBytes(
      bytes,
      0,
      bytes.length,
      this.#end(index),
      this.#end(index + 1),
    );
    return order === 0 ? 0 : -order;
  }

  /**
   * `other[from, to)` against this column's bytes `[start, end)`, in the order of `compare`. A
   * loop rather than `Buffer.compare`: the files of a site differ within their first bytes, and
   * the native call's own cost made sorting 10,000 files ~10× slower than sorting strings.
   */
  #compareBytes(other: Uint8Array, from: number, to: number, start: number, end: number): number {
    const bytes = this.#bytes;
    for (; from < to && start < end; from++, start++) {
      const difference = (other[from] as number) - (bytes[start] as number);
      if (difference !== 0) return difference;
    }
    return to - from - (end - start);
  }

  /** The texts at `indexes`, in that order, copied as bytes. */
  picked(indexes: ArrayLike<number>): TextColumn {
    let size = 0;
    for (let at = 0; at < indexes.length; at++) {
      const index = indexes[at] as number;
      this.#check(index);
      size += this.#end(index + 1) - this.#end(index);
    }
    const picked = new TextColumn(indexes.length, 0);
    picked.#reserve(size);
    let end = 0;
    for (let at = 0; at < indexes.length; at++) {
      const index = indexes[at] as number;
      end += this.#bytes.copy(picked.#bytes, end, this.#end(index), this.#end(index + 1));
      picked.#ends[at] = end;
    }
    picked.#length = indexes.length;
    return picked;
  }

  *[Symbol.iterator](): Iterator<string> {
    for (let index = 0; index < this.#length; index++) yield this.get(index);
  }

  /** Where the text before `index` ends: where the one at `index` starts. */
  #end(index: number): number {
    return index === 0 ? 0 : (this.#ends[index - 1] as number);
  }

  #check(index: number): void {
    if (!Number.isInteger(index) || index < 0 || index >= this.#length)
      throw new RangeError(`Internal error: text ${index} of ${this.#length}.`);
  }

  #reserve(size: number): void {
    if (size <= this.#bytes.length) return;
    const bytes = Buffer.allocUnsafe(Math.max(size, this.#bytes.length * 2));
    this.#bytes.copy(bytes, 0, 0, this.#end(this.#length));
    this.#bytes = bytes;
  }
}

function grown(ends: Uint32Array, capacity: number): Uint32Array {
  const larger = new Uint32Array(Math.max(1, capacity));
  larger.set(ends);
  return larger;
}
