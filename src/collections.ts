/**
 * The registry of collections: one descriptor per collection the mirror knows, read by every
 * stage (pull, status, build, checkout and push, migrate). What differs between collections is
 * said here once, as facts a stage asks about (its route, its statuses, whether it has
 * revisions, how it is built…), never as a comparison with a collection's name elsewhere. The
 * type unions (`ItemType`, `ParentType`, `CheckoutType`…) are derived from the descriptors, so
 * a new collection is one descriptor here plus its templates. In the spirit of Astro's content
 * loaders (`{ name, load }`): a collection is data that the stages run over.
 */

/** How the build makes pages of a collection's items. */
export type BuildKind = 'post' | 'page' | 'none';

/** The query keys of the short links that resolve to an item (`{home}?p=ID`, `?page_id=ID`). */
export type ShortLinkKey = 'p' | 'page_id';

export interface CollectionDescriptor {
  /** The collection's name: its route's last segment, the `type` column of the cache. */
  readonly name: string;
  /** The route of the collection, relative to the API root. */
  readonly route: string;
  readonly statuses: {
    /**
     * What an anonymous request (`context=view`) is answered with: the server's default
     * statuses, never sent by us (a view pull leaves `status` to the server).
     */
    readonly view: readonly string[];
    /**
     * Every status an editor sees in `context=edit`, except `trash` (a trashed item is
     * "gone" to push and migrate; a backup pull asks for it as well, see `backupStatuses`).
     */
    readonly edit: readonly string[];
  };
  /** The site keeps revisions and autosaves of its items (`{route}/{id}/revisions`). */
  readonly revisions: boolean;
  /** An item's `parent` is another item of the same collection (a page tree). */
  readonly hierarchical: boolean;
  /**
   * An item is an uploaded file: its parent is the post it is attached to (`post`), its file
   * is fetched for every change, a migration uploads it.
   */
  readonly file: boolean;
  /** Items carry category and tag ids (`categories`, `tags`). */
  readonly terms: boolean;
  /** How the build makes pages of its public items (`none`: files the content uses are copied). */
  readonly build: BuildKind;
  /** Short links that resolve to an item of this collection, besides its `link`. */
  readonly shortLinks: readonly ShortLinkKey[];
  /** `checkout` writes files for its items: the editable front matter fields, in order. */
  readonly checkout: { readonly fields: readonly string[] } | undefined;
  readonly migrate: {
    /** Earlier collections are created first (what later ones point at). */
    readonly order: number;
    /** Writable fields a create copies as they are (files send theirs with the upload). */
    readonly copied: readonly string[];
    /** Statuses a create cannot carry or that are not content: left behind, with a warning. */
    readonly leftBehind: readonly string[];
  };
}

/** Keeps the literal types of a descriptor, so that the unions below can be derived. */
function defineCollection<const D extends CollectionDescriptor>(descriptor: D): D {
  return descriptor;
}

const EDIT_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'] as const;

const posts = defineCollection({
  name: 'posts',
  route: 'cms/v2/posts',
  statuses: { view: ['publish'], edit: EDIT_STATUSES },
  revisions: true,
  hierarchical: false,
  file: false,
  terms: true,
  build: 'post',
  shortLinks: ['p'],
  checkout: {
    fields: [
      'title',
      'slug',
      'status',
      'excerpt',
      'date_gmt',
      'sticky',
      'format',
      'comment_status',
      'ping_status',
      'featured_media',
      'categories',
      'tags',
      'template',
      'author',
    ],
  },
  migrate: {
    order: 3,
    copied: [
      'slug',
      'status',
      'comment_status',
      'ping_status',
      'format',
      'sticky',
      'template',
      'password',
    ],
    leftBehind: ['trash', 'auto-draft', 'inherit-revision'],
  },
});

const pages = defineCollection({
  name: 'pages',
  route: 'cms/v2/pages',
  statuses: { view: ['publish'], edit: EDIT_STATUSES },
  revisions: true,
  hierarchical: true,
  file: false,
  terms: false,
  build: 'page',
  shortLinks: ['p', 'page_id'],
  checkout: {
    fields: [
      'title',
      'slug',
      'status',
      'excerpt',
      'date_gmt',
      'parent',
      'menu_order',
      'comment_status',
      'ping_status',
      'featured_media',
      'template',
      'author',
    ],
  },
  migrate: {
    order: 2,
    copied: [
      'slug',
      'status',
      'comment_status',
      'ping_status',
      'template',
      'menu_order',
      'password',
    ],
    leftBehind: ['trash', 'auto-draft', 'inherit-revision'],
  },
});

const media = defineCollection({
  name: 'media',
  route: 'cms/v2/media',
  statuses: { view: ['inherit'], edit: ['inherit', 'private'] },
  revisions: false,
  hierarchical: false,
  file: true,
  terms: false,
  build: 'none',
  shortLinks: [],
  checkout: undefined,
  migrate: { order: 1, copied: [], leftBehind: [] },
});

/** Every collection, in the order the pull streams them and `status` lists them. */
export const COLLECTIONS = [posts, pages, media] as const;

type Registered = (typeof COLLECTIONS)[number];
type NameWhere<Fact> = Extract<Registered, Fact>['name'];

/** A collection's name; the `type` column of the cache's items holds one. */
export type ItemType = Registered['name'];
/** Collections with revisions and autosaves. */
export type ParentType = NameWhere<{ readonly revisions: true }>;
/** Collections `checkout` writes files for (and push sends back). */
export type CheckoutType = NameWhere<{ readonly checkout: object }>;
/** Collections whose items are text content, not uploaded files. */
export type ContentType = NameWhere<{ readonly file: false }>;
/** The collection of uploaded files (featured media and attachments point into it). */
export type FileType = NameWhere<{ readonly file: true }>;
/** Collections the build makes pages of. */
export type BuiltType = NameWhere<{ readonly build: 'post' | 'page' }>;

const BY_NAME: ReadonlyMap<string, CollectionDescriptor> = new Map(
  COLLECTIONS.map((descriptor) => [descriptor.name, descriptor]),
);

/** The descriptor of a collection. */
export function collectionOf(type: ItemType): CollectionDescriptor {
  return BY_NAME.get(type)!;
}

/** The route of a collection, relative to the API root. */
export function collectionRoute(type: ItemType): string {
  return collectionOf(type).route;
}

function names<T extends ItemType>(keep: (descriptor: CollectionDescriptor) => boolean): T[] {
  return COLLECTIONS.filter(keep).map((descriptor) => descriptor.name as T);
}

export const ITEM_TYPES: readonly ItemType[] = names(() => true);
export const PARENT_TYPES: readonly ParentType[] = names((c) => c.revisions);
export const CHECKOUT_TYPES: readonly CheckoutType[] = names((c) => c.checkout !== undefined);

/** The order a migration creates collections in: what others point at first. */
export const MIGRATE_ORDER: readonly ItemType[] = [...COLLECTIONS]
  .sort((a, b) => a.migrate.order - b.migrate.order)
  .map((descriptor) => descriptor.name);

/**
 * The collections the build makes pages of, those built as pages first: earlier ones win a
 * contested site path, and a page's address is the one people type.
 */
export const BUILT_TYPES: readonly BuiltType[] = [
  ...names<BuiltType>((c) => c.build === 'page'),
  ...names<BuiltType>((c) => c.build === 'post'),
];

/** The collections built as `kind` (`page`: the page tree; `post`: the dated stream). */
export function builtAs(kind: 'post' | 'page'): readonly BuiltType[] {
  return names<BuiltType>((c) => c.build === kind);
}

/** The collection of uploaded files. */
export const FILE_TYPE: FileType = names<FileType>((c) => c.file)[0]!;

export function isItemType(value: unknown): value is ItemType {
  return typeof value === 'string' && BY_NAME.has(value);
}

export function isParentType(type: ItemType): type is ParentType {
  return collectionOf(type).revisions;
}

export function isCheckoutType(value: unknown): value is CheckoutType {
  return isItemType(value) && collectionOf(value).checkout !== undefined;
}

export function isContentType(type: ItemType): type is ContentType {
  return !collectionOf(type).file;
}

/** Statuses a backup pull asks for in `context=edit`: drafts and trash are part of a backup. */
export function backupStatuses(type: ItemType): readonly string[] {
  return [...collectionOf(type).statuses.edit, 'trash'];
}

/**
 * Every status any collection may hold, in registry order (`status` counts these one by one
 * and sums any other under `other`).
 */
export const KNOWN_STATUSES: readonly string[] = [
  ...new Set(ITEM_TYPES.flatMap((type) => backupStatuses(type))),
];

/** The editable front matter fields of a checkout type, in the order they are written. */
export function checkoutFields(type: CheckoutType): readonly string[] {
  return collectionOf(type).checkout!.fields;
}
