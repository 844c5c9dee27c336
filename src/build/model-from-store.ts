/**
 * The model builder: one language's `SiteModel` from the cache. Items come from `items`
 * (public ones only: published, not protected, not deleted), their final HTML and site path
 * from `transformed` (what the transform made for the current TRANSFORM_VERSION), the site
 * from `site_info`, media files from `media_files` and their blobs (read only when written).
 *
 * An item the transform has not (yet) processed for its current content is left out with a
 * warning rather than published with remote links.
 */
import { ConfigError } from '../errors.js';
import type { Store, StoredItem } from '../store/index.js';
import { mediaSitePath } from '../transform/media-site-paths.js';
import { isProtected, isPublic, parseItemJson } from '../transform/publication.js';
import { TRANSFORM_VERSION } from '../transform/version.js';
import { digestOf } from './digest.js';
import { identityFromSeo } from './site-identity.js';
import type {
  Entry,
  FeaturedImage,
  MediaFile,
  PageEntry,
  PostEntry,
  SiteLanguage,
  SiteModel,
} from './site-model.js';

export interface ModelFromStoreOptions {
  lang: string;
  /** Every language built, this one included, in switcher order. */
  languages: readonly { lang: string; label?: string; hreflang?: string }[];
  /** `<html lang>` and date formats. @default the language code */
  locale?: string;
  /** The remote home of the language. @default `home` of the language's `site_info` */
  homeUrl?: string;
  /** Where the static site is served. @default the remote home */
  publicUrl?: string;
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

  const mediaPaths = new Map<string, MediaFile>();
  for (const file of store.media.listFiles({ lang })) {
    const sitePath = mediaSitePath(file.url, file.sha256);
    if (mediaPaths.has(file.url)) continue;
    mediaPaths.set(file.url, {
      sitePath,
      sha256: file.sha256,
      read: () => {
        const blob = store.media.getBlob(file.sha256);
        if (!blob)
          throw new Error(
            `Media blob ${file.sha256} of ${file.url} is missing from ${store.file}.`,
          );
        return blob;
      },
    });
  }

  const others = options.languages
    .map((language) => language.lang)
    .filter((other) => other !== lang);
  const entry = (item: StoredItem): Entry | undefined => {
    const transformed = store.transformed.get(lang, item.type, item.id);
    const sitePath = sitePathOf(transformed?.meta);
    if (
      !transformed ||
      sitePath === undefined ||
      transformed.transformVersion !== String(TRANSFORM_VERSION) ||
      transformed.sourceHash !== item.contentHash
    ) {
      warnings.push(
        `${item.type} ${item.id} left out: not transformed for its current content (run transform).`,
      );
      return undefined;
    }
    const json = parseItemJson(item.json);
    const alternates: Entry['alternates'] = [];
    for (const other of others) {
      const counterpart = store.items.get(other, item.type, item.id);
      if (!counterpart || !isPublic(counterpart)) continue;
      const otherPath = sitePathOf(store.transformed.get(other, item.type, item.id)?.meta);
      if (otherPath !== undefined) alternates.push({ lang: other, sitePath: otherPath });
    }
    const built: Entry = {
      id: item.id,
      sitePath,
      title: item.title ?? '',
      html: transformed.html,
      excerptHtml: escapeText(transformed.excerpt ?? ''),
      dateGmt: item.dateGmt ?? '',
      modifiedGmt: item.modifiedGmt ?? item.dateGmt ?? '',
      status: item.status ?? '',
      protected: isProtected(json),
      alternates,
      contentHash: digestOf(item.contentHash, transformed.transformVersion),
    };
    const image = featuredImage(store, lang, item.featuredMedia, mediaPaths);
    if (image) built.featuredImage = image;
    return built;
  };

  const posts: PostEntry[] = [];
  for (const item of store.items.iterate(lang, 'posts', { statuses: ['publish'] })) {
    if (!isPublic(item)) continue;
    const built = entry(item);
    if (built) posts.push({ ...built, sticky: item.sticky === true });
  }
  posts.sort((a, b) => (a.dateGmt < b.dateGmt ? 1 : a.dateGmt > b.dateGmt ? -1 : b.id - a.id));
  const pages: PageEntry[] = [];
  for (const item of store.items.iterate(lang, 'pages', { statuses: ['publish'] })) {
    if (!isPublic(item)) continue;
    const built = entry(item);
    if (built) pages.push({ ...built, parentId: item.parent ?? 0, menuOrder: item.menuOrder ?? 0 });
  }

  const identity = identityFromSeo(info.seo, { name, url: publicUrl });
  if (identity?.logo) {
    // A logo the cache holds is served from the static site, not the old host.
    const local = mediaPaths.get(identity.logo);
    if (local) identity.logo = local.sitePath;
  }

  const languages: SiteLanguage[] = options.languages.map((language) => {
    const entry: SiteLanguage = {
      lang: language.lang,
      label: language.label ?? LANGUAGE_LABELS[language.lang] ?? language.lang,
      homePath: language.lang === lang ? './' : `../${encodeURIComponent(language.lang)}/`,
    };
    if (language.hreflang) entry.hreflang = language.hreflang;
    return entry;
  });

  return {
    model: {
      lang,
      locale: options.locale ?? lang,
      site: {
        name,
        description: typeof info.description === 'string' ? info.description : '',
        publicUrl,
      },
      languages,
      identity,
      posts,
      pages,
      media: [...mediaPaths.values()],
    },
    warnings,
  };
}

function sitePathOf(meta: unknown): string | undefined {
  const sitePath = (meta as { sitePath?: unknown } | null | undefined)?.sitePath;
  return typeof sitePath === 'string' && sitePath.startsWith('/') ? sitePath : undefined;
}

function featuredImage(
  store: Store,
  lang: string,
  mediaId: number | null,
  mediaPaths: ReadonlyMap<string, MediaFile>,
): FeaturedImage | undefined {
  if (!mediaId) return undefined;
  const media = store.items.get(lang, 'media', mediaId);
  if (!media) return undefined;
  const json = parseItemJson(media.json);
  const source = typeof json.source_url === 'string' ? json.source_url : undefined;
  const local = source ? mediaPaths.get(source) : undefined;
  if (!local) return undefined;
  const details = (json.media_details ?? {}) as Json;
  const image: FeaturedImage = {
    sitePath: local.sitePath,
    alt: typeof json.alt_text === 'string' ? json.alt_text : '',
  };
  if (typeof details.width === 'number') image.width = details.width;
  if (typeof details.height === 'number') image.height = details.height;
  return image;
}

/** The transform stores excerpts as plain text; the model carries HTML. */
function escapeText(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function withSlash(url: string): string {
  return url.endsWith('/') ? url : `${url}/`;
}
