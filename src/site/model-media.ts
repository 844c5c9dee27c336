/**
 * The media of a site model read from the cache: every file the cache holds a copy of, by
 * URL, and the featured images of entries.
 */
import { FILE_TYPE } from '../collections.js';
import type { Store } from '../store/index.js';
import { mediaSitePath, parseItemJson } from '../transform/index.js';
import type { FeaturedImage, MediaFile } from './site-model.js';

type Json = Record<string, unknown>;

/** Featured images by media id, each read once. */
export function featuredImages(
  store: Store,
  lang: string,
  mediaPaths: ReadonlyMap<string, MediaFile>,
): (mediaId: number | null) => FeaturedImage | undefined {
  const mediaItems = new Map<number, FeaturedImage | undefined>();
  return (mediaId) => {
    if (!mediaId) return undefined;
    if (!mediaItems.has(mediaId))
      mediaItems.set(mediaId, featuredImage(store, lang, mediaId, mediaPaths));
    const image = mediaItems.get(mediaId);
    return image ? { ...image } : undefined;
  };
}

/**
 * Every media URL the cache holds a copy of, whichever language's pull fetched it: content
 * may show another language's file (one host, several prefixes), and only what public
 * content uses is copied. URLs whose bytes and name give one site path share one entry.
 */
export function mediaFilesOf(store: Store): Map<string, MediaFile> {
  const byUrl = new Map<string, MediaFile>();
  const bySitePath = new Map<string, MediaFile>();
  for (const file of store.media.listFiles()) {
    const sitePath = mediaSitePath(file.url, file.sha256);
    const same = bySitePath.get(sitePath);
    if (same !== undefined && same.sha256 === file.sha256) {
      byUrl.set(file.url, same);
      continue;
    }
    const media: MediaFile = {
      sitePath,
      sha256: file.sha256,
      source: file.mediaId === null ? file.url : `${file.url} (media ${file.mediaId})`,
      read: () => {
        const blob = store.media.getBlob(file.sha256);
        if (!blob)
          throw new Error(
            `Media blob ${file.sha256} of ${file.url} is missing from ${store.file}.`,
          );
        return blob;
      },
    };
    byUrl.set(file.url, media);
    if (same === undefined) bySitePath.set(sitePath, media);
  }
  return byUrl;
}

function featuredImage(
  store: Store,
  lang: string,
  mediaId: number | null,
  mediaPaths: ReadonlyMap<string, MediaFile>,
): FeaturedImage | undefined {
  if (!mediaId) return undefined;
  const media = store.items.get(lang, FILE_TYPE, mediaId);
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
