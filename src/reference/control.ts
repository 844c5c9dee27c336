import { UsageError } from '../errors.js';
import { FaultInjector } from './faults.js';
import type { FaultSpec } from './faults.js';
import { registerFile } from './media-files.js';
import { encodeStripePng } from './png.js';
import { recordRevision } from './items-write.js';
import { parseDateTime, toEpochSeconds } from './site-dates.js';
import type { SiteState } from './site-state.js';
import { TYPE_OF_COLLECTION } from './store.js';
import type { ContentType, LangStore, StoredItem, StoredRevision } from './store.js';

/**
 * In-process hooks for tests (there is no HTTP backdoor): change faults, the clock and the
 * content behind the server's back, and read the raw stored records.
 */
export type ItemFields = Partial<Omit<StoredItem, 'id' | 'type' | 'media'>>;

export interface ReferenceControl {
  /** Replaces the fault spec (undefined or '' turns faults off). Throws UsageError on a bad spec. */
  setFaults(spec: FaultSpec | string | undefined): void;
  /** Empties `site.requests` (in place). */
  clearLog(): void;
  /** Forces items to one `modified_gmt` (a GMT date-time string without offset, or a Date). */
  setModified(
    lang: string,
    type: ContentType,
    ids: readonly number[],
    modifiedGmt: string | Date,
  ): void;
  /** Adds `count` published items in one language (ids from that language's counter); returns copies. */
  createItems(lang: string, type: ContentType, count: number, fields?: ItemFields): StoredItem[];
  /** Changes an item as an edit on the site would (modified = now, a revision recorded). */
  updateItem(
    lang: string,
    type: ContentType,
    id: number,
    fields: ItemFields,
    authorId?: number,
  ): StoredItem;
  /** Deletes an item outright (no trash), as if removed on the server. */
  deleteItem(lang: string, type: ContentType, id: number): void;
  /** A copy of the raw stored record, or undefined. */
  getItem(lang: string, type: ContentType, id: number): StoredItem | undefined;
  /** Copies of every stored record of a type (any status), by id. */
  listItems(lang: string, type: ContentType): StoredItem[];
  /** Copies of an item's stored revisions and autosaves (any kind), oldest first. */
  listRevisions(lang: string, type: ContentType, id: number): StoredRevision[];
  /** Every file the site serves under its uploads, with the media item owning it and its bytes. */
  listFiles(lang: string): SiteFile[];
  /** The site's notion of "now" for writes. */
  setClock(clock: () => Date): void;
}

/** One served file, as `control.listFiles` gives it (the oracle of media backups). */
export interface SiteFile {
  /** Absolute URL the site serves it at. */
  readonly url: string;
  /** Id of the media item the file belongs to. */
  readonly owner: number;
  readonly bytes: Buffer;
}

function copy(item: StoredItem): StoredItem {
  return structuredClone(item);
}

export function createControl(
  site: SiteState,
  setInjector: (injector: FaultInjector) => void,
): ReferenceControl {
  const storeOf = (lang: string): LangStore => {
    const store = site.stores.get(lang);
    if (!store)
      throw new UsageError(
        `The reference site has no language "${lang}" (it has ${site.languages.join(', ')}).`,
      );
    return store;
  };
  const itemOf = (lang: string, type: ContentType, id: number): StoredItem => {
    const item = storeOf(lang).getItem(TYPE_OF_COLLECTION[type], id);
    if (!item) throw new UsageError(`No ${type} item ${id} in "${lang}".`);
    return item;
  };
  const fieldsWithoutKeys = (fields: ItemFields): ItemFields => {
    const { dateGmt: _date, modifiedGmt: _modified, ...rest } = fields;
    return rest;
  };
  return {
    setFaults(spec) {
      setInjector(new FaultInjector(spec ?? {}));
    },
    clearLog() {
      site.log.length = 0;
    },
    setModified(lang, type, ids, modifiedGmt) {
      const epoch =
        modifiedGmt instanceof Date ? toEpochSeconds(modifiedGmt) : parseDateTime(modifiedGmt, 0);
      if (epoch === undefined) throw new UsageError(`"${String(modifiedGmt)}" is not a date-time.`);
      const store = storeOf(lang);
      for (const id of ids) {
        store.mutate(itemOf(lang, type, id), (item) => {
          item.modifiedGmt = epoch;
        });
      }
    },
    createItems(lang, type, count, fields = {}) {
      const store = storeOf(lang);
      const now = toEpochSeconds(site.clock());
      const created: StoredItem[] = [];
      for (let n = 0; n < count; n++) {
        const id = store.allocateId();
        const itemType = TYPE_OF_COLLECTION[type];
        const item: StoredItem = {
          id,
          type: itemType,
          dateGmt: fields.dateGmt ?? now,
          modifiedGmt: fields.modifiedGmt ?? fields.dateGmt ?? now,
          slug: `created-${id}`,
          status: itemType === 'attachment' ? 'inherit' : 'publish',
          password: '',
          title: `Created ${id}`,
          content: `<!-- cms:paragraph -->\n<p>Created item ${id}.</p>\n<!-- /cms:paragraph -->`,
          excerpt: '',
          author: 1,
          featuredMedia: 0,
          commentStatus: 'closed',
          pingStatus: 'closed',
          template: '',
          format: 'standard',
          sticky: false,
          categories: itemType === 'post' ? [1] : [],
          tags: [],
          parent: 0,
          menuOrder: 0,
          meta: itemType === 'attachment' ? {} : { footnotes: '' },
          media: undefined,
          ...fieldsWithoutKeys(fields),
        };
        if (itemType === 'attachment') {
          const file = `created/created-${id}.png`;
          item.content = '';
          item.media = {
            file,
            mimeType: 'image/png',
            width: 16,
            height: 16,
            altText: '',
            caption: '',
            description: '',
            sizes: [],
          };
          registerFile(store, site.base, file, {
            owner: id,
            mimeType: 'image/png',
            lastModified: now,
            bytes: () =>
              encodeStripePng({
                width: 16,
                height: 16,
                background: [id % 256, 80, 160],
                foreground: [255, 255, 255],
                stripe: 4,
              }),
          });
        }
        store.add(item);
        created.push(copy(item));
      }
      return created;
    },
    updateItem(lang, type, id, fields, authorId = 2) {
      const store = storeOf(lang);
      const item = itemOf(lang, type, id);
      const now = toEpochSeconds(site.clock());
      store.mutate(item, (target) => {
        Object.assign(target, fieldsWithoutKeys(fields));
        if (fields.dateGmt !== undefined) target.dateGmt = fields.dateGmt;
        target.modifiedGmt = fields.modifiedGmt ?? now;
      });
      recordRevision(store, item, authorId, now);
      return copy(item);
    },
    deleteItem(lang, type, id) {
      const store = storeOf(lang);
      const item = itemOf(lang, type, id);
      store.remove(item);
      for (const [path, file] of store.files) if (file.owner === id) store.files.delete(path);
    },
    getItem(lang, type, id) {
      const item = storeOf(lang).getItem(TYPE_OF_COLLECTION[type], id);
      return item ? copy(item) : undefined;
    },
    listItems(lang, type) {
      return storeOf(lang).indexes[TYPE_OF_COLLECTION[type]].all.map(copy);
    },
    listRevisions(lang, type, id) {
      itemOf(lang, type, id);
      return storeOf(lang)
        .revisionsOf(id)
        .map((revision) => structuredClone(revision));
    },
    listFiles(lang) {
      return [...storeOf(lang).files].map(([path, file]) => ({
        url: `${site.base}${path}`,
        owner: file.owner,
        bytes: file.bytes(),
      }));
    },
    setClock(clock) {
      site.clock = clock;
    },
  };
}
