/**
 * Which files a media item consists of, and the plain facts about an item the crawl and the
 * assets queue read. Pure: no I/O, so every shape is unit-tested. What a post's HTML shows is
 * in content-media-urls.ts: it needs an HTML parser, loaded only when an item changed.
 */

/** Path part that marks the site's uploaded files (links to them are downloads, not pages). */
export const UPLOADS_MARKER = '/cms-content/uploads/';

/** The files of a media item: `source_url` and every `media_details.sizes[*].source_url`. */
export function mediaItemUrls(item: Readonly<Record<string, unknown>>): string[] {
  const urls: string[] = [];
  const source = absoluteHttpUrl(item['source_url'], undefined);
  if (source !== undefined) urls.push(source);
  const details = item['media_details'];
  const sizes =
    typeof details === 'object' && details !== null
      ? (details as Record<string, unknown>)['sizes']
      : undefined;
  if (typeof sizes === 'object' && sizes !== null) {
    for (const size of Object.values(sizes as Record<string, unknown>)) {
      if (typeof size !== 'object' || size === null) continue;
      const url = absoluteHttpUrl((size as Record<string, unknown>)['source_url'], source);
      if (url !== undefined) urls.push(url);
    }
  }
  return [...new Set(urls)];
}

/**
 * `url` as fetched: a URL on the site's own host under the other scheme (an `http:` link on an
 * `https:` site, or the reverse) is fetched through the site's scheme, so it is stored under
 * the same URL as the site's own spelling (one request, never credentials over `http:` to a
 * host the site reaches over `https:`). Other URLs are returned as they are.
 */
export function onSiteScheme(url: string, siteUrl: string): string {
  let parsed: URL;
  let site: URL;
  try {
    parsed = new URL(url);
    site = new URL(siteUrl);
  } catch {
    return url;
  }
  if (parsed.protocol === site.protocol || parsed.hostname !== site.hostname) return url;
  const swapped = new URL(parsed.href);
  swapped.protocol = site.protocol;
  // An explicit port (`https://h:8443`) says which server it is: only the same one is the site.
  return swapped.host === site.host ? swapped.href : url;
}

/** `media_details.filesize` of the original file, when the server gives it. */
export function declaredFileSize(item: Readonly<Record<string, unknown>>): number | undefined {
  const details = item['media_details'];
  if (typeof details !== 'object' || details === null) return undefined;
  const size = (details as Record<string, unknown>)['filesize'];
  return typeof size === 'number' && Number.isSafeInteger(size) && size >= 0 ? size : undefined;
}

/** A published post or page whose content is not password-protected: what the build shows. */
export function isPublicItem(item: Readonly<Record<string, unknown>>): boolean {
  if (item['status'] !== 'publish') return false;
  const content = item['content'];
  return !(
    typeof content === 'object' &&
    content !== null &&
    (content as Record<string, unknown>)['protected'] === true
  );
}

/** `content.rendered` of an item, or ''. */
export function renderedContent(item: Readonly<Record<string, unknown>>): string {
  const content = item['content'];
  if (typeof content !== 'object' || content === null) return '';
  const rendered = (content as Record<string, unknown>)['rendered'];
  return typeof rendered === 'string' ? rendered : '';
}

/** `value` as an absolute http(s) URL (resolved against `base`), or undefined. */
export function absoluteHttpUrl(value: unknown, base: string | undefined): string | undefined {
  if (typeof value !== 'string') return undefined;
  const text = value.trim();
  if (text === '' || text.startsWith('data:')) return undefined;
  try {
    const url = base === undefined ? new URL(text) : new URL(text, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Cheap test before parsing for embeds: a standalone URL is a `<p>` starting with a URL (or a
 * lone link) or an embed block. False means `findEmbedUrls` would find nothing.
 */
export function mayHaveEmbeds(html: string): boolean {
  return /<p\b[^>]*>\s*(?:<a\s[^>]*>\s*)?https?:\/\/|cms-block-embed/i.test(html);
}
