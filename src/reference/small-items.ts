import { baseItem } from './item-defaults.js';
import { registerFile } from './media-files.js';
import { encodeStripePng, type Rgb } from './png.js';
import type { LangStore, StoredItem } from './store.js';

/**
 * Items put on the site outside the seed's content model (tests' control hooks, hostile
 * items, a migration target's own items): a published item of the first user with the given
 * text, and a 16×16 striped PNG as a media item's file, served under the uploads.
 */
export function publishedItem(
  id: number,
  type: StoredItem['type'],
  date: number,
  text: Pick<StoredItem, 'slug' | 'title' | 'content'>,
): StoredItem {
  return {
    ...baseItem(id, type, date),
    ...text,
    status: type === 'attachment' ? 'inherit' : 'publish',
    commentStatus: 'closed',
    pingStatus: 'closed',
    categories: type === 'post' ? [1] : [],
  };
}

export interface StripeFile {
  /** Path below the uploads, e.g. `created/created-7.png`. */
  readonly file: string;
  readonly lastModified: number;
  readonly altText?: string;
  readonly background: Rgb;
  readonly foreground?: Rgb;
  readonly stripe?: number;
}

/** Makes `item` a 16×16 PNG media item whose file the site serves. */
export function attachStripePng(
  store: LangStore,
  base: string,
  item: StoredItem,
  png: StripeFile,
): void {
  item.media = {
    file: png.file,
    mimeType: 'image/png',
    width: 16,
    height: 16,
    altText: png.altText ?? '',
    caption: '',
    description: '',
    sizes: [],
  };
  registerFile(store, base, png.file, {
    owner: item.id,
    mimeType: 'image/png',
    lastModified: png.lastModified,
    bytes: () =>
      encodeStripePng({
        width: 16,
        height: 16,
        background: png.background,
        foreground: png.foreground ?? [255, 255, 255],
        stripe: png.stripe ?? 4,
      }),
  });
}
