/**
 * The transform processor: one unified pipeline, built once per language and reused for
 * every item (building a processor costs far more than running it on one item).
 *
 *   rehype-parse (fragment) → sanitize body → embeds → media → internal links → heading ids → safe URLs → rehype-stringify
 *
 * Media runs before internal links so that a link to a mirrored file is rewritten (and
 * marked) before the link plugin would report it as a page the mirror does not have. Safe
 * URLs runs last so that nothing an earlier step wrote escapes it.
 */
import rehypeParse from 'rehype-parse';
import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import { ITEM_CONTEXT_KEY, type ItemContext } from './item-context.js';
import type { OEmbedResponse } from './oembed-response.js';
import { KNOWN_EMBED_HOSTS } from './provider-html.js';
import { rehypeEmbeds } from './rehype-embeds.js';
import { rehypeHeadingIds } from './rehype-heading-ids.js';
import { rehypeInternalLinks } from './rehype-internal-links.js';
import { rehypeMedia } from './rehype-media.js';
import { rehypeSafeUrls } from './rehype-safe-urls.js';
import { rehypeSanitizeBody } from './rehype-sanitize-body.js';
import type { UrlResolver } from './url-resolver.js';

export interface HtmlProcessorOptions {
  /** Site path of the mirrored item at an absolute URL, or `undefined`. Required. */
  readonly resolveLink: UrlResolver;
  /** Site path of the local copy of a media URL, or `undefined`. Required. */
  readonly resolveMedia: UrlResolver;
  /**
   * Hosts whose https iframes oEmbed provider HTML may keep.
   * @default KNOWN_EMBED_HOSTS
   */
  readonly allowedIframeHosts?: readonly string[];
  /**
   * Lazy-load every image after the first.
   * @default true
   */
  readonly lazyLoading?: boolean;
  /**
   * Prefix for generated heading ids.
   * @default ''
   */
  readonly headingIdPrefix?: string;
  /**
   * Remove executable content from the body (see rehype-sanitize-body.ts).
   * @default true
   */
  readonly sanitize?: boolean;
}

/** What changes from one item to the next. */
export interface PerItem {
  /** The item's remote `link`: the base for relative URLs in its HTML. */
  baseUrl: string;
  /** The item's site path (`/2024/03/my-post/`); output URLs are relative to it. */
  pagePath: string;
  /** Its standalone URLs resolved by `resolveEmbeds`; missing ones become link cards. */
  embeds?: ReadonlyMap<string, OEmbedResponse | null>;
}

export interface ProcessedHtml {
  html: string;
  /** One line per warning (`file.message`), with its position in the input. */
  warnings: string[];
}

/** Builds the reusable processor for one language's site. */
export function createHtmlProcessor(options: HtmlProcessorOptions) {
  return unified()
    .use(rehypeParse, { fragment: true })
    .use(rehypeSanitizeBody, {
      allowedIframeHosts: options.allowedIframeHosts ?? KNOWN_EMBED_HOSTS,
      enabled: options.sanitize ?? true,
    })
    .use(rehypeEmbeds, {
      resolveLink: options.resolveLink,
      allowedIframeHosts: options.allowedIframeHosts ?? KNOWN_EMBED_HOSTS,
    })
    .use(rehypeMedia, {
      resolveMedia: options.resolveMedia,
      lazyLoading: options.lazyLoading ?? true,
    })
    .use(rehypeInternalLinks, { resolveLink: options.resolveLink })
    .use(rehypeHeadingIds, { prefix: options.headingIdPrefix ?? '' })
    .use(rehypeSafeUrls)
    .use(rehypeStringify)
    .freeze();
}

/** The processor `createHtmlProcessor` returns. */
export type HtmlProcessor = ReturnType<typeof createHtmlProcessor>;

/** Transforms one item's rendered HTML. Synchronous: every plugin is pure. */
export function processHtml(
  processor: HtmlProcessor,
  html: string,
  perItem: PerItem,
): ProcessedHtml {
  const context: ItemContext = {
    baseUrl: perItem.baseUrl,
    pagePath: perItem.pagePath,
    embeds: perItem.embeds,
  };
  const file = processor.processSync({ value: html, data: { [ITEM_CONTEXT_KEY]: context } });
  return {
    html: String(file),
    warnings: file.messages.map((message) => {
      const place = message.line === undefined ? '' : `${message.line}:${message.column ?? 1}: `;
      return `${place}${message.reason}`;
    }),
  };
}
