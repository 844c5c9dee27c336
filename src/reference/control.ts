import { UsageError } from '../errors.js';
import { FaultInjector } from './faults.js';
import type { FaultSpec } from './faults.js';
import { recordRevision } from './items-write.js';
import { attachStripePng, publishedItem } from './small-items.js';
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

function storeOf(site: SiteState, lang: string): LangStore {
  const store = site.stores.get(lang);
  if (!store)
    throw new UsageError(
      `The reference site has no language "${lang}" (it has ${site.languages.join(', ')}).`,
    );
  return store;
}

function itemOf(site: SiteState, lang: string, type: ContentType, id: number): StoredItem {
  const item = storeOf(site, lang).getItem(TYPE_OF_COLLECTION[type], id);
  if (!item) throw new UsageError(`No ${type} item ${id} in "${lang}".`);
  return item;
}

function fieldsWithoutKeys(fields: ItemFields): ItemFields {
  const { dateGmt: _date, modifiedGmt: _modified, ...rest } = fields;
  return rest;
}

/** `control.createItems`: published items (media with a small PNG), ids from the counter. */
function createItems(
  site: SiteState,
  lang: string,
  type: ContentType,
  count: number,
  fields: ItemFields,
): StoredItem[] {
  const store = storeOf(site, lang);
  const now = toEpochSeconds(site.clock());
  const itemType = TYPE_OF_COLLECTION[type];
  const created: StoredItem[] = [];
  for (let n = 0; n < count; n++) {
    const id = store.allocateId();
    const item: StoredItem = {
      ...publishedItem(id, itemType, fields.dateGmt ?? now, {
        slug: `created-${id}`,
        title: `Created ${id}`,
        content:
          itemType === 'attachment'
            ? ''
            : `<!-- cms:paragraph -->\n<p>Created item ${id}.</p>\n<!-- /cms:paragraph -->`,
      }),
      modifiedGmt: fields.modifiedGmt ?? fields.dateGmt ?? now,
      ...fieldsWithoutKeys(fields),
    };
    if (itemType === 'attachment') {
      item.content = '';
      attachStripePng(store, site.base, item, {
        file: `created/created-${id}.png`,
        lastModified: now,
        background: [id % 256, 80, 160],
      });
    }
    store.add(item);
    created.push(copy(item));
  }
  return created;
}

function setModified(
  site: SiteState,
  lang: string,
  type: ContentType,
  ids: readonly number[],
  modifiedGmt: string | Date,
): void {
  const epoch =
    modifiedGmt instanceof Date ? toEpochSeconds(modifiedGmt) : parseDateTime(modifiedGmt, 0);
  if (epoch === undefined) throw new UsageError(`"${String(modifiedGmt)}" is not a date-time.`);
  const store = storeOf(site, lang);
  for (const id of ids) {
    store.mutate(itemOf(site, lang, type, id), (item) => {
      item.modifiedGmt = epoch;
    });
  }
}

function updateItem(
  site: SiteState,
  [lang, type, id]: [string, ContentType, number],
  fields: ItemFields,
  authorId: number,
): StoredItem {
  const store = storeOf(site, lang);
  const item = itemOf(site, lang, type, id);
  const now = toEpochSeconds(site.clock());
  store.mutate(item, (target) => {
    Object.assign(target, fieldsWithoutKeys(fields));
    if (fields.dateGmt !== undefined) target.dateGmt = fields.dateGmt;
    target.modifiedGmt = fields.modifiedGmt ?? now;
  });
  recordRevision(store, item, authorId, now);
  return copy(item);
}

export function createControl(
  site: SiteState,
  setInjector: (injector: FaultInjector) => void,
): ReferenceControl {
  return {
    setFaults(spec) {
      setInjector(new FaultInjector(spec ?? {}));
    },
    clearLog() {
      site.log.length = 0;
    },
    setModified: (lang, type, ids, modifiedGmt) => setModified(site, lang, type, ids, modifiedGmt),
    createItems: (lang, type, count, fields = {}) => createItems(site, lang, type, count, fields),
    updateItem: (lang, type, id, fields, authorId = 2) =>
      updateItem(site, [lang, type, id], fields, authorId),
    deleteItem(lang, type, id) {
      const store = storeOf(site, lang);
      store.remove(itemOf(site, lang, type, id));
      for (const [path, file] of store.files) if (file.owner === id) store.files.delete(path);
    },
    getItem(lang, type, id) {
      const item = storeOf(site, lang).getItem(TYPE_OF_COLLECTION[type], id);
      return item ? copy(item) : undefined;
    },
    listItems(lang, type) {
      return storeOf(site, lang).indexes[TYPE_OF_COLLECTION[type]].all.map(copy);
    },
    listRevisions(lang, type, id) {
      itemOf(site, lang, type, id);
      return storeOf(site, lang)
        .revisionsOf(id)
        .map((revision) => structuredClone(revision));
    },
    listFiles(lang) {
      return [...storeOf(site, lang).files].map(([path, file]) => ({
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
