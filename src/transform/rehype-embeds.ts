/**
 * rehype plugin: standalone URLs (see `embed-detection.ts`) become embeds.
 *
 * - A URL of a mirrored item (`resolveLink` knows it): a local link card pointing at the
 *   relative local path, titled from the oEmbed response when there is one. The remote host
 *   never appears in it.
 * - Another URL with an oEmbed response: `<figure class="embed embed-{type}">` holding the
 *   provider HTML after `sanitizeProviderHtml` (iframes get `loading="lazy"`), or the photo.
 * - Anything else (unresolved, or nothing safe left of the provider HTML): a static card
 *   `<figure class="embed-card"><a href="URL" rel="noopener">title or URL</a><figcaption>host</figcaption></figure>`;
 *   external links stay absolute.
 *
 * A `<p>` is replaced whole (a figure may not sit in a paragraph); a block embed keeps its
 * figure and caption and only its wrapper's content is replaced.
 */
import type { Element, ElementContent, Root } from 'hast';
import type { VFile } from 'vfile';
import { findStandaloneUrls } from './embed-detection.js';
import { itemContext, parseBaseUrl } from './item-context.js';
import type { OEmbedResponse } from './oembed-response.js';
import { hasVisibleContent, KNOWN_EMBED_HOSTS, sanitizeProviderHtml } from './provider-html.js';
import { markLocal } from './rewrite-marks.js';
import { decodeSegment, normalizeSitePath } from './site-paths.js';
import type { UrlResolver } from './url-resolver.js';
import { rewriteUrl } from './url-rewrite.js';

export interface EmbedsOptions {
  /**
   * Resolved standalone URLs (from `resolveEmbeds`); a URL missing here is unresolved.
   * @default file.data.cmsMirror.embeds, else none (every URL becomes a card)
   */
  readonly embeds?: ReadonlyMap<string, OEmbedResponse | null>;
  /**
   * Site path of a mirrored item at an absolute URL.
   * @default () => undefined (no URL is the site's own)
   */
  readonly resolveLink?: UrlResolver;
  /**
   * Site path of the page being written.
   * @default file.data.cmsMirror.pagePath, else '/'
   */
  readonly pagePath?: string;
  /**
   * Hosts whose https iframes provider HTML may keep.
   * @default KNOWN_EMBED_HOSTS
   */
  readonly allowedIframeHosts?: readonly string[];
}

const NO_EMBEDS: ReadonlyMap<string, OEmbedResponse | null> = new Map();
const EMBED_TYPES = new Set(['photo', 'video', 'link', 'rich']);

export function rehypeEmbeds(options: EmbedsOptions = {}) {
  const resolveLink = options.resolveLink ?? (() => undefined);
  const allowedIframeHosts = options.allowedIframeHosts ?? KNOWN_EMBED_HOSTS;

  return (tree: Root, file?: VFile): void => {
    const item = itemContext(file);
    const embeds = options.embeds ?? item.embeds ?? NO_EMBEDS;
    const pagePath = options.pagePath ?? item.pagePath ?? '/';
    const context = { baseUrl: parseBaseUrl(item.baseUrl), pagePath };

    for (const found of findStandaloneUrls(tree)) {
      const response = embeds.get(found.url) ?? null;
      const local = rewriteUrl(found.url, context, resolveLink);
      const replacement =
        local.kind === 'local'
          ? localCard(
              local.value,
              titleOf(response) ?? readablePath(resolveLink(found.url), found.url),
            )
          : (providerEmbed(response, allowedIframeHosts) ?? externalCard(found.url, response));

      if (found.kind === 'paragraph') {
        // Turn the paragraph itself into the figure, so parents need no index bookkeeping.
        Object.assign(found.element, {
          tagName: replacement.tagName,
          properties: replacement.properties,
        });
        found.element.children = replacement.children;
      } else {
        found.element.children = [replacement];
      }
    }
  };
}

function localCard(href: string, label: string): Element {
  const link: Element = element('a', { href }, [text(label)]);
  markLocal(link, 'href');
  return element('figure', { className: ['embed-card', 'embed-card-local'] }, [link]);
}

function providerEmbed(
  response: OEmbedResponse | null,
  allowedIframeHosts: readonly string[],
): Element | undefined {
  if (response === null) return undefined;
  const type = EMBED_TYPES.has(response.type) ? response.type : 'rich';
  let content: ElementContent[] = [];
  if (response.html !== undefined && (type === 'video' || type === 'rich')) {
    content = sanitizeProviderHtml(response.html, allowedIframeHosts);
    for (const node of content) lazyIframes(node);
  } else if (type === 'photo' && response.url !== undefined) {
    content = sanitizeProviderHtml(photoHtml(response), allowedIframeHosts);
  }
  if (!hasVisibleContent(content)) return undefined;
  return element('figure', { className: ['embed', `embed-${type}`] }, content);
}

/** A photo response as markup, so the same sanitizer decides what of it is allowed. */
function photoHtml(response: OEmbedResponse): string {
  const attribute = (name: string, value: string | number | undefined): string =>
    value === undefined
      ? ''
      : ` ${name}="${String(value).replace(/&/g, '&amp;').replace(/"/g, '&quot;')}"`;
  return `<img${attribute('src', response.url)}${attribute('alt', response.title ?? '')}${attribute('width', response.width)}${attribute('height', response.height)}>`;
}

function lazyIframes(node: ElementContent): void {
  if (node.type !== 'element') return;
  if (node.tagName === 'iframe') node.properties.loading ??= 'lazy';
  for (const child of node.children) lazyIframes(child);
}

function externalCard(url: string, response: OEmbedResponse | null): Element {
  return element('figure', { className: ['embed-card'] }, [
    element('a', { href: url, rel: ['noopener'] }, [text(titleOf(response) ?? url)]),
    element('figcaption', {}, [text(new URL(url).host)]),
  ]);
}

function titleOf(response: OEmbedResponse | null): string | undefined {
  const title = response?.title?.trim();
  return title === undefined || title === '' ? undefined : title;
}

/** What a local card without a title shows: the page's site path, decoded for reading. */
function readablePath(sitePath: string | undefined, url: string): string {
  const path = sitePath ?? new URL(url).pathname;
  return normalizeSitePath(path).split('/').map(decodeSegment).join('/');
}

function element(
  tagName: string,
  properties: Element['properties'],
  children: ElementContent[],
): Element {
  return { type: 'element', tagName, properties, children };
}

function text(value: string): ElementContent {
  return { type: 'text', value };
}
