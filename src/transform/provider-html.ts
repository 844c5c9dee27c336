/**
 * Makes an oEmbed provider's HTML safe to put in our pages. Provider HTML is third-party
 * markup; only an allow-list survives: iframes whose `src` is https on a known embed host,
 * and simple quote markup (`blockquote`, `p`, `a`, `img` with an https `src`, inline text
 * elements). No script, style, event handler, form or `javascript:`/`data:` URL gets through.
 */
import type { ElementContent, Root } from 'hast';
import { sanitize, type Schema } from 'hast-util-sanitize';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { REMOVE, walkElements } from './walk-elements.js';

/**
 * Hosts whose https iframes may be embedded (exact host names). Extend through the
 * `allowedIframeHosts` option of `createHtmlProcessor` / `rehypeEmbeds`.
 */
export const KNOWN_EMBED_HOSTS: readonly string[] = [
  'youtube.com',
  'www.youtube.com',
  'youtube-nocookie.com',
  'www.youtube-nocookie.com',
  'player.vimeo.com',
  'w.soundcloud.com',
  'open.spotify.com',
  'embed.spotify.com',
  'platform.twitter.com',
  'platform.x.com',
  'www.instagram.com',
  'www.tiktok.com',
  'www.dailymotion.com',
  'geo.dailymotion.com',
  'player.twitch.tv',
  'embed.ted.com',
  'bandcamp.com',
  'www.slideshare.net',
  'www.mixcloud.com',
  'www.facebook.com',
  'embed.podcasts.apple.com',
  'www.google.com',
];

/** Provider HTML longer than this is not embedded (a card is shown instead). */
export const MAX_PROVIDER_HTML_LENGTH = 100_000;

const SCHEMA: Schema = {
  tagNames: [
    'iframe',
    'blockquote',
    'p',
    'a',
    'img',
    'br',
    'em',
    'strong',
    'b',
    'i',
    'span',
    'cite',
    'small',
  ],
  attributes: {
    iframe: [
      'src',
      'width',
      'height',
      'title',
      'allow',
      'allowFullScreen',
      'loading',
      'referrerPolicy',
      'frameBorder',
    ],
    blockquote: [['className', /^[a-z][a-z0-9-]*$/i], 'lang', 'dir'],
    p: ['lang', 'dir'],
    a: ['href', 'title'],
    img: ['src', 'alt', 'width', 'height'],
  },
  protocols: { href: ['http', 'https', 'mailto'], src: ['https'] },
  // Elements whose content must not turn into visible text when the element goes.
  strip: [
    'script',
    'style',
    'template',
    'noscript',
    'textarea',
    'title',
    'xmp',
    'noembed',
    'noframes',
    'svg',
    'math',
    'select',
    'object',
  ],
  ancestors: {},
  clobber: [],
  required: {},
  allowComments: false,
  allowDoctypes: false,
};

const parser = unified().use(rehypeParse, { fragment: true });

/**
 * The safe part of provider HTML, as hast nodes ready to insert. Iframes on unknown hosts or
 * without an https `src` are removed whole; `img` needs an absolute https `src`; `a` keeps
 * only an absolute http(s) or mailto `href`. Never throws.
 */
export function sanitizeProviderHtml(
  html: string,
  allowedIframeHosts: readonly string[] = KNOWN_EMBED_HOSTS,
): ElementContent[] {
  if (html.length > MAX_PROVIDER_HTML_LENGTH) return [];
  const clean = sanitize(parser.parse(html), SCHEMA) as Root;
  const hosts = new Set(allowedIframeHosts.map((host) => host.toLowerCase()));

  walkElements(clean, (node) => {
    if (node.tagName === 'iframe' && !isAllowedUrl(node.properties.src, ['https:'], hosts))
      return REMOVE;
    if (node.tagName === 'img' && !isAllowedUrl(node.properties.src, ['https:'])) return REMOVE;
    if (
      node.tagName === 'a' &&
      !isAllowedUrl(node.properties.href, ['https:', 'http:', 'mailto:'])
    ) {
      // A relative link would point into our static site, where it means nothing.
      delete node.properties.href;
    }
    if (node.tagName === 'iframe') {
      // An iframe's children are fallback text for browsers without frames: none today.
      node.children = [];
    }
  });

  return clean.type === 'root' ? (clean.children as ElementContent[]) : [];
}

function isAllowedUrl(
  value: unknown,
  protocols: readonly string[],
  hosts?: ReadonlySet<string>,
): boolean {
  if (typeof value !== 'string') return false;
  let url: URL;
  try {
    // No base: a relative URL fails here, which is what we want.
    url = new URL(value.trim());
  } catch {
    return false;
  }
  if (!protocols.includes(url.protocol)) return false;
  return hosts === undefined || hosts.has(url.hostname);
}

/** Whether sanitized provider content has anything to show (an element or non-blank text). */
export function hasVisibleContent(nodes: readonly ElementContent[]): boolean {
  return nodes.some(
    (node) => node.type === 'element' || (node.type === 'text' && node.value.trim() !== ''),
  );
}
