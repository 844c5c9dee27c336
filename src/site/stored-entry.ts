/**
 * The entries a model builder makes from the cache: each reads its HTML from the cache when
 * asked for (a page rendered, a search bundle indexed), through one reader shared by the model.
 */
import { StoreError } from '../errors.js';
import type { ItemType, Store } from '../store/index.js';
import type { Entry, FeaturedImage } from './site-model.js';

/**
 * Reads an entry's HTML from the cache each time it is asked for, never keeping it: a build
 * reads it once to render the page and once to index it, and a site's HTML held whole would
 * grow with the site.
 */
export function htmlReader(store: Store, lang: string): HtmlReader {
  return (type, id) => {
    const html = store.transformed.getHtml(lang, type, id);
    if (html === undefined)
      throw new StoreError(store.file, `The HTML of ${type} ${id} (${lang}) is missing.`);
    return html;
  };
}

export type HtmlReader = (type: ItemType, id: number) => string;

/**
 * An entry whose `html` is read from the cache when asked for. The getter lives on the
 * prototype and the reader is shared by every entry of the model: a getter and a closure of
 * each entry's own would cost ~150 bytes a post (test/bench/model-memory.bench.ts).
 */
export class StoredEntry implements Entry {
  readonly #read: HtmlReader;
  readonly #type: ItemType;
  declare id: number;
  declare sitePath: string;
  declare title: string;
  declare excerptHtml: string;
  declare dateGmt: string;
  declare modifiedGmt: string;
  declare status: string;
  declare protected: boolean;
  declare alternates: Entry['alternates'];
  declare contentHash: string;
  declare htmlDigest?: string;
  declare htmlMedia?: readonly string[];
  declare featuredImage?: FeaturedImage;

  constructor(read: HtmlReader, type: ItemType, fields: Omit<Entry, 'html'>) {
    this.#read = read;
    this.#type = type;
    Object.assign(this, fields);
  }

  get html(): string {
    return this.#read(this.#type, this.id);
  }
}
