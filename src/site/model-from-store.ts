/**
 * The model builder: one language's `SiteModel` from the cache. Items come from `items`
 * (public ones only: published, not protected, not deleted), their final HTML and site path
 * from `transformed` (what the transform made for the current TRANSFORM_VERSION), the site
 * from `site_info`, media files from `media_files` and their blobs (read only when written).
 * A handful of queries whatever the number of items; each entry's HTML is read only when the
 * build asks for it (a page rendered or a search bundle indexed), like a media file's bytes.
 *
 * An item the transform has not (yet) processed for its current content is left out with a
 * warning rather than published with remote links.
 */
import { ConfigError } from '../errors.js';
import { builtAs } from '../collections.js';
import type { ItemType, Store } from '../store/index.js';
import type { PublishedEntryRow } from '../store/transformed-repo.js';
import { htmlFacts, itemKey, storedHtmlFacts, transformKey } from '../transform/index.js';
import { digestOf } from './digest.js';
import { featuredImages, mediaFilesOf } from './model-media.js';
import { identityFromSeo } from './site-identity.js';
import { htmlReader, StoredEntry } from './stored-entry.js';
import type {
  Entry,
  MediaFile,
  PageEntry,
  PostEntry,
  PostSource,
  SiteLanguage,
  SiteModel,
} from './site-model.js';

export interface ModelFromStoreOptions {
  lang: string;
  /** Every language built, this one included, in switcher order. */
  languages: readonly { lang: string; label?: string; hreflang?: string }[];
  /**
   * How items pair with their translations: `same-id` takes the item with the same id in
   * another language as its translation; `none` claims no translation (the switcher goes to
   * the other language's home). @default 'none'
   */
  translations?: 'same-id' | 'none';
  /** `<html lang>` and date formats. @default the language code */
  locale?: string;
  /** The remote home of the language. @default `home` of the language's `site_info` */
  homeUrl?: string;
  /** Where the static site is served. @default the remote home */
  publicUrl?: string;
  /** The key current transform output is stored under. @default transformKey() */
  transformKey?: string;
  /**
   * Give the posts as a `PostSource` read from the cache a window at a time whenever the build
   * needs them, not as an array held whole (a full build's model). Their warnings join
   * `warnings` (in front, as an array's would) once every post was read. @default false
   */
  streamPosts?: boolean;
}

export interface ModelFromStore {
  model: SiteModel;
  /** Items left out, and why. */
  warnings: string[];
}

/** Labels the switcher shows for the languages the reference site and its users use most. */
const LANGUAGE_LABELS: Record<string, string> = {
  pl: 'Polski',
  es: 'Español',
  en: 'English',
  de: 'Deutsch',
  fr: 'Français',
  it: 'Italiano',
  pt: 'Português',
};

type Json = Record<string, unknown>;

/** The alternates of every entry that has none (nothing adds to an entry's list). */
const NO_ALTERNATES = Object.freeze([]) as unknown as Entry['alternates'];

/**
 * @throws {ConfigError} `E_CONFIG` when the language has no home URL (never pulled, and none
 *   given).
 */
export function modelFromStore(store: Store, options: ModelFromStoreOptions): ModelFromStore {
  const { lang } = options;
  const warnings: string[] = [];
  const info = (store.siteInfo.get(lang)?.data ?? {}) as Json;
  const homeUrl = options.homeUrl ?? (typeof info.home === 'string' ? info.home : undefined);
  if (!homeUrl) {
    throw new ConfigError(
      `There is no home URL for "${lang}" in ${store.file}: pull that language first.`,
      {
        field: 'lang',
      },
    );
  }
  const publicUrl = withSlash(options.publicUrl ?? homeUrl);
  const name = typeof info.name === 'string' ? info.name : lang;
  const mediaPaths = mediaFilesOf(store);
  const entry = entryMaker(store, options, { homeUrl, mediaPaths });
  // Public items only (the rule of `isPublic`, in SQL): drafts and protected items never
  // reach the model. Read from the cache, the posts come a chunk of rows at a time.
  const postSource = options.streamPosts ? streamedPosts(store, lang, entry, warnings) : undefined;
  const { posts, pages } = postSource
    ? { posts: [], pages: pageEntriesOf(pageRows(store, lang), entry, warnings) }
    : entriesOf(publishedRows(store, lang), entry, warnings);

  const identity = identityFromSeo(info.seo, { name, url: publicUrl });
  if (identity?.logo) {
    // A logo the cache holds is served from the static site, not the old host.
    const local = mediaPaths.get(identity.logo);
    if (local) identity.logo = local.sitePath;
  }
  return {
    model: {
      lang,
      locale: options.locale ?? lang,
      site: {
        name,
        description: typeof info.description === 'string' ? info.description : '',
        publicUrl,
      },
      languages: siteLanguages(options),
      identity,
      posts,
      ...(postSource ? { postSource } : {}),
      pages,
      // One file per site path: URLs of the same bytes under one name share it.
      media: [...new Set(mediaPaths.values())],
    },
    warnings,
  };
}

type EntryMaker = (
  type: ItemType,
  row: PublishedEntryRow,
  warn: (warning: string) => void,
) => Entry | undefined;

/** Rows of posts read per query when the model reads them itself. */
const ROWS_CHUNK = 2000;

/**
 * The language's public rows: the pages at once (a site has few), the posts newest first a
 * chunk at a time, so that no more than a chunk of rows is held beside the entries made.
 */
function publishedRows(
  store: Store,
  lang: string,
): { pages: readonly PublishedEntryRow[]; posts: Iterable<PublishedEntryRow> } {
  const order = store.publishedOrder.newestFirst(lang, builtAs('post'));
  return {
    pages: pageRows(store, lang),
    posts: (function* () {
      for (const chunk of order.chunks(ROWS_CHUNK)) yield* chunk;
    })(),
  };
}

function pageRows(store: Store, lang: string): PublishedEntryRow[] {
  return builtAs('page').flatMap((type) => store.transformed.listPublished(lang, type));
}

/**
 * The posts newest first, read again from the cache a window at a time. The warnings of the
 * posts left out are listed once every post was read (the build's first pass reads them all),
 * by type and id as `entriesOf` lists them, in front of the pages'.
 */
function streamedPosts(
  store: Store,
  lang: string,
  entry: EntryMaker,
  warnings: string[],
): PostSource {
  const order = store.publishedOrder.newestFirst(lang, builtAs('post'));
  const postTypes: readonly string[] = builtAs('post');
  const pending: [rank: number, id: number, warning: string][] = [];
  let warnedUpTo = 0;
  const make = (row: PublishedEntryRow | undefined, place: number): PostEntry | undefined => {
    const first = place === warnedUpTo;
    if (first) warnedUpTo++;
    if (row === undefined) return undefined;
    const rank = postTypes.indexOf(row.type);
    const built = entry(row.type, row, (warning) => {
      if (first) pending.push([rank, row.id, warning]);
    }) as PostEntry | undefined;
    if (built) built.sticky = row.sticky === true;
    return built;
  };
  const flush = (): void => {
    if (warnedUpTo < order.count || pending.length === 0) return;
    pending.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
    warnings.unshift(...pending.map(([, , warning]) => warning));
    pending.length = 0;
  };
  return {
    size: order.count,
    read(start, end) {
      const posts = order.rows(start, end).map((row, offset) => make(row, start + offset));
      flush();
      return posts;
    },
    readAt: (places) => order.rowsAt(places).map((row, at) => make(row, places[at]!)),
    idAt: (place) => order.idAt(place),
  };
}

/**
 * Posts newest first and pages, from the rows (those not transformed left out). The warnings
 * about posts are listed by type and id whatever order the rows come in.
 */
function entriesOf(
  rows: { pages: readonly PublishedEntryRow[]; posts: Iterable<PublishedEntryRow> },
  entry: EntryMaker,
  warnings: string[],
): { posts: PostEntry[]; pages: PageEntry[] } {
  const posts: PostEntry[] = [];
  const postTypes: readonly string[] = builtAs('post');
  const postWarnings: [rank: number, id: number, warning: string][] = [];
  for (const row of rows.posts) {
    const rank = postTypes.indexOf(row.type);
    const built = entry(row.type, row, (warning) => postWarnings.push([rank, row.id, warning])) as
      PostEntry | undefined;
    if (!built) continue;
    built.sticky = row.sticky === true;
    posts.push(built);
  }
  postWarnings.sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  for (const [, , warning] of postWarnings) warnings.push(warning);
  posts.sort((a, b) => (a.dateGmt < b.dateGmt ? 1 : a.dateGmt > b.dateGmt ? -1 : b.id - a.id));
  return { posts, pages: pageEntriesOf(rows.pages, entry, warnings) };
}

function pageEntriesOf(
  rows: readonly PublishedEntryRow[],
  entry: EntryMaker,
  warnings: string[],
): PageEntry[] {
  const pages: PageEntry[] = [];
  const warn = (warning: string): void => void warnings.push(warning);
  for (const row of rows) {
    const built = entry(row.type, row, warn) as PageEntry | undefined;
    if (!built) continue;
    built.parentId = row.parent ?? 0;
    built.menuOrder = row.menuOrder ?? 0;
    pages.push(built);
  }
  return pages;
}

/** One entry per row: its site path, translations, facts, featured image, HTML read late. */
function entryMaker(
  store: Store,
  options: ModelFromStoreOptions,
  context: { homeUrl: string; mediaPaths: ReadonlyMap<string, MediaFile> },
): EntryMaker {
  const { lang } = options;
  const currentKey = options.transformKey ?? transformKey();
  const alternatesOf = alternatesReader(store, options);
  const imageOf = featuredImages(store, lang, context.mediaPaths);
  const readHtml = htmlReader(store, lang);
  return (type, row, warn) => {
    const sitePath = sitePathOf(row.meta);
    if (
      sitePath === undefined ||
      row.transformVersion !== currentKey ||
      row.sourceHash !== row.contentHash
    ) {
      warn(
        `${type} ${row.id} left out: not transformed for its current content (run cms-mirror build, which transforms it first).`,
      );
      return undefined;
    }
    // The HTML is read only when a page is rendered or indexed: its digest and the files it
    // references were stored by the transform (or are worked out here once for older rows).
    const facts =
      storedHtmlFacts(row.meta) ?? htmlFacts(readHtml(type, row.id), sitePath, context.homeUrl);
    for (const link of facts.shortLinks ?? [])
      warn(`${type} ${row.id}: short link ${link} names no public item; left as it is.`);
    const built: Entry = new StoredEntry(readHtml, type, {
      id: row.id,
      sitePath,
      title: row.title ?? '',
      excerptHtml: escapeText(row.excerpt ?? ''),
      dateGmt: row.dateGmt ?? '',
      modifiedGmt: row.modifiedGmt ?? row.dateGmt ?? '',
      status: row.status ?? '',
      protected: false,
      alternates: alternatesOf(type, row.id),
      contentHash: digestOf(row.contentHash, row.transformVersion),
      htmlDigest: facts.htmlDigest,
      htmlMedia: facts.media,
    });
    const image = imageOf(row.featuredMedia);
    if (image) built.featuredImage = image;
    return built;
  };
}

/**
 * Where each item lives in the other languages: one query per language, not two per entry.
 * Without evidence that ids pair translations, none is read (and none claimed).
 */
function alternatesReader(
  store: Store,
  options: ModelFromStoreOptions,
): (type: ItemType, id: number) => Entry['alternates'] {
  const otherPaths =
    options.translations === 'same-id'
      ? options.languages
          .map((language) => language.lang)
          .filter((other) => other !== options.lang)
          .map((other) => [other, store.transformed.publicSitePaths(other)] as const)
      : [];
  return (type, id) => {
    const alternates: Entry['alternates'] = [];
    for (const [other, paths] of otherPaths) {
      const otherPath = paths.get(itemKey(type, id));
      if (otherPath !== undefined && otherPath.startsWith('/'))
        alternates.push({ lang: other, sitePath: otherPath });
    }
    // Most entries have none: one shared empty list instead of one each.
    return alternates.length > 0 ? alternates : NO_ALTERNATES;
  };
}

/** The switcher's languages, as seen from this one. */
function siteLanguages(options: ModelFromStoreOptions): SiteLanguage[] {
  return options.languages.map((language) => {
    const entry: SiteLanguage = {
      lang: language.lang,
      label: language.label ?? LANGUAGE_LABELS[language.lang] ?? language.lang,
      homePath: language.lang === options.lang ? './' : `../${encodeURIComponent(language.lang)}/`,
    };
    if (language.hreflang) entry.hreflang = language.hreflang;
    return entry;
  });
}

function sitePathOf(meta: unknown): string | undefined {
  const sitePath = (meta as { sitePath?: unknown } | null | undefined)?.sitePath;
  return typeof sitePath === 'string' && sitePath.startsWith('/') ? sitePath : undefined;
}

/** The transform stores excerpts as plain text; the model carries HTML. */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
