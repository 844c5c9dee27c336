import { SortedItems } from './sorted-items.js';
import type { SeoState } from './seo-state.js';

/**
 * In-memory state of one language of the reference site. Items of all types share one id
 * space (one counter per language, as real servers have); an item and its translation carry
 * the same id in every language. Keys that list queries sort by are only changed through
 * `mutate()`, which keeps the presorted indexes in step.
 */
export type ItemType = 'post' | 'page' | 'attachment';

/** Collection names as tests and the control API use them. */
export type ContentType = 'posts' | 'pages' | 'media';

export const TYPE_OF_COLLECTION: Readonly<Record<ContentType, ItemType>> = {
  posts: 'post',
  pages: 'page',
  media: 'attachment',
};

export const COLLECTION_OF_TYPE: Readonly<Record<ItemType, ContentType>> = {
  post: 'posts',
  page: 'pages',
  attachment: 'media',
};

export interface MediaSize {
  readonly name: string;
  /** File name (no directory), next to the original. */
  readonly file: string;
  readonly width: number;
  readonly height: number;
  readonly mimeType: string;
}

export interface MediaInfo {
  /** Path under the uploads directory: `YYYY/MM/name.ext`. */
  file: string;
  mimeType: string;
  width: number | undefined;
  height: number | undefined;
  altText: string;
  caption: string;
  description: string;
  /** Intermediate sizes (thumbnail, medium, ...); the original is not listed here. */
  sizes: MediaSize[];
}

/** The raw stored record of a post, page or attachment (what `control.getItem` returns). */
export interface StoredItem {
  readonly id: number;
  readonly type: ItemType;
  /** Publication instant, epoch seconds. */
  dateGmt: number;
  /** Last modification instant, epoch seconds. */
  modifiedGmt: number;
  slug: string;
  status: string;
  password: string;
  title: string;
  content: string;
  excerpt: string;
  author: number;
  featuredMedia: number;
  commentStatus: string;
  pingStatus: string;
  template: string;
  format: string;
  sticky: boolean;
  categories: number[];
  tags: number[];
  /** Parent page (pages), parent post (attachments); 0 for none. */
  parent: number;
  menuOrder: number;
  meta: Record<string, unknown>;
  media: MediaInfo | undefined;
  /** The slug a trashed item had before `__trashed` was appended (item-removal.ts). */
  desiredSlug?: string | undefined;
}

export interface StoredRevision {
  readonly id: number;
  readonly parent: number;
  readonly kind: 'revision' | 'autosave';
  author: number;
  dateGmt: number;
  modifiedGmt: number;
  title: string;
  content: string;
  excerpt: string;
}

export interface Term {
  readonly id: number;
  readonly taxonomy: 'category' | 'post_tag';
  readonly name: string;
  readonly slug: string;
  readonly parent: number;
}

/** A file served under `/{lang}/cms-content/uploads/`; bytes are produced on first use. */
export interface FileEntry {
  /** Id of the attachment the file belongs to (deleted with it). */
  readonly owner: number;
  readonly mimeType: string;
  readonly lastModified: number;
  bytes: () => Buffer;
}

export interface LangSettings {
  readonly lang: string;
  /** Hours east of GMT, as published in `gmt_offset`. */
  readonly gmtOffset: number;
  readonly name: string;
  readonly description: string;
  readonly locale: string;
}

/** The presorted orders list queries can walk without sorting. */
export class TypeIndex {
  readonly byDate = new SortedItems<StoredItem>((item) => item.dateGmt);
  readonly byModified = new SortedItems<StoredItem>((item) => item.modifiedGmt);
  readonly byId = new SortedItems<StoredItem>((item) => item.id);

  get all(): readonly StoredItem[] {
    return this.byId.items;
  }
}

export class LangStore {
  readonly settings: LangSettings;
  readonly items = new Map<number, StoredItem>();
  readonly indexes: Readonly<Record<ItemType, TypeIndex>> = {
    post: new TypeIndex(),
    page: new TypeIndex(),
    attachment: new TypeIndex(),
  };
  readonly revisions = new Map<number, StoredRevision>();
  readonly revisionsByParent = new Map<number, number[]>();
  readonly terms: Term[] = [];
  /** Files by URL path (as `new URL(source_url).pathname` gives it). */
  readonly files = new Map<string, FileEntry>();
  showOnFront: 'posts' | 'page' = 'posts';
  pageOnFront = 0;
  pageForPosts = 0;
  seo: SeoState;
  nextId = 1;
  /** Bumped on every change; lets derived data (statistics) be cached safely. */
  version = 0;

  constructor(settings: LangSettings, seo: SeoState) {
    this.settings = settings;
    this.seo = seo;
  }

  allocateId(): number {
    return this.nextId++;
  }

  getItem(type: ItemType, id: number): StoredItem | undefined {
    const item = this.items.get(id);
    return item && item.type === type ? item : undefined;
  }

  /** Adds many new items with one sort per index (seed path). */
  addMany(items: readonly StoredItem[]): void {
    const byType: Record<ItemType, StoredItem[]> = { post: [], page: [], attachment: [] };
    for (const item of items) {
      this.items.set(item.id, item);
      byType[item.type].push(item);
      if (item.id >= this.nextId) this.nextId = item.id + 1;
    }
    for (const type of Object.keys(byType) as ItemType[]) {
      const index = this.indexes[type];
      index.byDate.addMany(byType[type]);
      index.byModified.addMany(byType[type]);
      index.byId.addMany(byType[type]);
    }
    this.version++;
  }

  add(item: StoredItem): void {
    this.items.set(item.id, item);
    const index = this.indexes[item.type];
    index.byDate.insert(item);
    index.byModified.insert(item);
    index.byId.insert(item);
    if (item.id >= this.nextId) this.nextId = item.id + 1;
    this.version++;
  }

  /** Changes an item; the only way to touch `dateGmt`/`modifiedGmt` of a stored item. */
  mutate(item: StoredItem, change: (item: StoredItem) => void): void {
    const index = this.indexes[item.type];
    const dateKey = item.dateGmt;
    const modifiedKey = item.modifiedGmt;
    change(item);
    if (item.dateGmt !== dateKey) {
      index.byDate.remove(item, dateKey);
      index.byDate.insert(item);
    }
    if (item.modifiedGmt !== modifiedKey) {
      index.byModified.remove(item, modifiedKey);
      index.byModified.insert(item);
    }
    this.version++;
  }

  /** Deletes an item outright, with its revisions and autosaves. */
  remove(item: StoredItem): void {
    const index = this.indexes[item.type];
    index.byDate.remove(item, item.dateGmt);
    index.byModified.remove(item, item.modifiedGmt);
    index.byId.remove(item, item.id);
    this.items.delete(item.id);
    for (const revisionId of this.revisionsByParent.get(item.id) ?? []) {
      this.revisions.delete(revisionId);
    }
    this.revisionsByParent.delete(item.id);
    this.version++;
  }

  addRevision(revision: StoredRevision): void {
    this.revisions.set(revision.id, revision);
    const list = this.revisionsByParent.get(revision.parent);
    if (list) list.push(revision.id);
    else this.revisionsByParent.set(revision.parent, [revision.id]);
    if (revision.id >= this.nextId) this.nextId = revision.id + 1;
    this.version++;
  }

  removeRevision(revision: StoredRevision): void {
    this.revisions.delete(revision.id);
    const list = this.revisionsByParent.get(revision.parent);
    if (list) {
      const at = list.indexOf(revision.id);
      if (at >= 0) list.splice(at, 1);
    }
    this.version++;
  }

  /** Revisions and autosaves of an item, oldest first. */
  revisionsOf(parent: number, kind?: StoredRevision['kind']): StoredRevision[] {
    const out: StoredRevision[] = [];
    for (const id of this.revisionsByParent.get(parent) ?? []) {
      const revision = this.revisions.get(id);
      if (revision && (kind === undefined || revision.kind === kind)) out.push(revision);
    }
    return out;
  }

  termById(id: number): Term | undefined {
    return this.terms.find((term) => term.id === id);
  }
}
