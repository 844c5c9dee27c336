import { fromRow, type RowOf } from './row-fields.js';
import type { StoreContext } from './store-context.js';
import type { ItemType } from './types.js';

/** An item written to a file for editing, with the remote state it was based on. */
export interface Checkout {
  readonly lang: string;
  readonly type: ItemType;
  readonly id: number;
  readonly file: string;
  /** The item's remote `modified_gmt` at checkout: push compares it to detect conflicts. */
  readonly baseModifiedGmt: string | null;
  /** sha256 of the file as written, to tell an edited file from an untouched one. */
  readonly fileHash: string | null;
  readonly checkedOutAt: string;
}

export type CheckoutInput = Omit<Checkout, 'checkedOutAt'>;

type CheckoutRow = RowOf<Checkout>;

/** `checkouts`: one per item; the item must be in the cache (foreign key). */
export class CheckoutsRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /** Records (or re-records) a checkout; a file path belongs to one item at a time. */
  set(input: CheckoutInput): Checkout {
    const checkout: Checkout = { ...input, checkedOutAt: this.#ctx.nowIso() };
    const freeFile = this.#ctx.stmt(
      'DELETE FROM checkouts WHERE file = ? AND NOT (lang = ? AND type = ? AND id = ?)',
    );
    const upsert = this.#ctx.stmt(`
      INSERT INTO checkouts (lang, type, id, file, base_modified_gmt, file_hash, checked_out_at)
      VALUES (@lang, @type, @id, @file, @baseModifiedGmt, @fileHash, @checkedOutAt)
      ON CONFLICT (lang, type, id) DO UPDATE SET file = excluded.file,
        base_modified_gmt = excluded.base_modified_gmt, file_hash = excluded.file_hash,
        checked_out_at = excluded.checked_out_at`);
    this.#ctx.write(() => {
      freeFile.run(checkout.file, checkout.lang, checkout.type, checkout.id);
      upsert.run(checkout);
    }, 'recording a checkout');
    return checkout;
  }

  get(lang: string, type: ItemType, id: number): Checkout | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<CheckoutRow>('SELECT * FROM checkouts WHERE lang = ? AND type = ? AND id = ?')
        .get(lang, type, id),
    );
    return row === undefined ? undefined : fromRow<Checkout>(row);
  }

  getByFile(file: string): Checkout | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx.stmt<CheckoutRow>('SELECT * FROM checkouts WHERE file = ?').get(file),
    );
    return row === undefined ? undefined : fromRow<Checkout>(row);
  }

  list(lang?: string): Checkout[] {
    const rows = this.#ctx.read(() =>
      lang === undefined
        ? this.#ctx.stmt<CheckoutRow>('SELECT * FROM checkouts ORDER BY lang, type, id').all()
        : this.#ctx
            .stmt<CheckoutRow>('SELECT * FROM checkouts WHERE lang = ? ORDER BY type, id')
            .all(lang),
    );
    return rows.map((row) => fromRow<Checkout>(row));
  }

  /**
   * The checkouts whose item the cache holds at another version than the checkout's base (its
   * `modified_gmt` set and not the base): one query for them all, where push used to ask the
   * items table once per checkout. In `list`'s order.
   */
  movedSinceCheckout(): Checkout[] {
    const rows = this.#ctx.read(() =>
      this.#ctx
        .stmt<CheckoutRow>(
          `SELECT c.* FROM checkouts c
            JOIN items i ON i.lang = c.lang AND i.type = c.type AND i.id = c.id
            WHERE i.modified_gmt IS NOT NULL AND i.modified_gmt IS NOT c.base_modified_gmt
            ORDER BY c.lang, c.type, c.id`,
        )
        .all(),
    );
    return rows.map((row) => fromRow<Checkout>(row));
  }

  remove(lang: string, type: ItemType, id: number): boolean {
    const remove = this.#ctx.stmt('DELETE FROM checkouts WHERE lang = ? AND type = ? AND id = ?');
    return this.#ctx.write(() => remove.run(lang, type, id).changes > 0, 'removing a checkout');
  }
}
