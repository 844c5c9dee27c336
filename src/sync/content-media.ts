/**
 * Which files a post's rendered HTML needs for the offline build, and which files a media
 * item consists of. Pure: no I/O, so every shape is unit-tested.
 */
import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { parseSrcset } from '../transform/index.js';

/** Path part that marks the site's uploaded files (links to them are downloads, not pages). */
export const UPLOADS_MARKER = '/cms-content/uploads/';

const parser = unified().use(rehypeParse, { fragment: true });

/** Cheap test before parsing: most bulk content has no media at all. */
const MAY_HAVE_MEDIA = /<(?:img|source|video|audio)\b|cms-content\/uploads\//i;

/**
 * Absolute URLs of the media an HTML fragment shows or links to: `img` `src`/`srcset`,
 * `source` `src`/`srcset`, `video`/`audio` `src` and `poster`, and `a href` pointing into the
 * site's uploads. Relative URLs are resolved against `baseUrl` (the item's `link`); anything
 * that is not http(s) is ignored. Distinct, in document order.
 */
export function contentMediaUrls(html: string, baseUrl: string | undefined): string[] {
  if (!MAY_HAVE_MEDIA.test(html)) return [];
  const tree = parser.parse(html) as Root;
  const found: string[] = [];
  const add = (value: unknown): void => {
    const url = absoluteHttpUrl(value, baseUrl);
    if (url !== undefined) found.push(url);
  };
  const addSrcset = (value: unknown): void => {
    if (typeof value !== 'string') return;
    for (const candidate of parseSrcset(value)) add(candidate.url);
  };
  visit(tree, 'element', (node: Element) => {
    const p = node.properties;
    switch (node.tagName) {
      case 'img':
      case 'source':
        add(p['src']);
        addSrcset(p['srcSet']);
        break;
      case 'video':
        add(p['src']);
        add(p['poster']);
        break;
      case 'audio':
        add(p['src']);
        break;
      case 'a': {
        const url = absoluteHttpUrl(p['href'], baseUrl);
        if (url !== undefined && new URL(url).pathname.includes(UPLOADS_MARKER)) found.push(url);
        break;
      }
      default:
        break;
    }
  });
  return [...new Set(found)];
}

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

function absoluteHttpUrl(value: unknown, base: string | undefined): string | undefined {
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
