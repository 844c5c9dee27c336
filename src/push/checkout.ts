import { rmSync } from 'node:fs';
import type { Store } from '../store/index.js';
import { readTextIfExists, textHash, writeFileAtomic } from './atomic-file.js';
import {
  checkoutPath,
  fieldsFromItem,
  serializeCheckout,
  CHECKOUT_TYPES,
  type CheckoutType,
} from './checkout-file.js';

/**
 * `checkout`: one file per cached item, each recorded in `checkouts` with the item's
 * `modified_gmt` (the base push compares with the site) and the hash of the file written.
 * Works from the cache alone (no network). A file edited since its checkout is never
 * overwritten: its hash no longer matches the recorded one, and it is reported instead.
 */

export interface CheckoutOptions {
  readonly store: Store;
  /** Where files go: `{dir}/{lang}/{type}/{id}-{slug}.html`. */
  readonly dir: string;
  readonly languages: readonly string[];
  /** @default CHECKOUT_TYPES (every collection `checkout` writes files for) */
  readonly types?: readonly CheckoutType[];
}

export interface CheckoutSummary {
  /** Files written (new, or refreshed because the cached item changed). */
  written: number;
  /** Files already equal to what would be written. */
  unchanged: number;
  /** Files edited locally since their checkout: left as they are. */
  keptLocal: string[];
  /** Items in the cache that were checked out (written + unchanged + kept). */
  items: number;
}

export function checkout(options: CheckoutOptions): CheckoutSummary {
  const { store, dir } = options;
  const summary: CheckoutSummary = { written: 0, unchanged: 0, keptLocal: [], items: 0 };
  for (const lang of options.languages) {
    for (const type of options.types ?? CHECKOUT_TYPES) {
      for (const item of store.items.iterate(lang, type)) {
        // Trashed items are not content to edit (restore them on the site first).
        if (item.status === 'trash') continue;
        summary.items += 1;
        const json = JSON.parse(item.json) as Record<string, unknown>;
        const file = checkoutPath(dir, { lang, type, id: item.id, slug: item.slug ?? '' });
        const text = serializeCheckout({
          id: item.id,
          type,
          lang,
          fields: fieldsFromItem(json, type),
        });
        const recorded = store.checkouts.get(lang, type, item.id);
        const onDisk = readTextIfExists(recorded?.file ?? file);
        if (onDisk !== undefined && recorded !== undefined && onDisk.hash !== recorded.fileHash) {
          summary.keptLocal.push(recorded.file);
          continue;
        }
        if (onDisk !== undefined && recorded === undefined && onDisk.hash !== textHash(text)) {
          // A file we never recorded (copied in, or from another cache): not ours to replace.
          summary.keptLocal.push(file);
          continue;
        }
        const same =
          onDisk !== undefined &&
          onDisk.hash === textHash(text) &&
          (recorded?.file ?? file) === file;
        if (!same) {
          writeFileAtomic(file, text);
          // The slug changed: the old file name goes, the new one holds the item.
          if (recorded !== undefined && recorded.file !== file && onDisk !== undefined)
            removeQuietly(recorded.file);
          summary.written += 1;
        } else summary.unchanged += 1;
        store.checkouts.set({
          lang,
          type,
          id: item.id,
          file,
          baseModifiedGmt: item.modifiedGmt,
          fileHash: textHash(text),
        });
      }
    }
  }
  return summary;
}

function removeQuietly(file: string): void {
  rmSync(file, { force: true });
}
