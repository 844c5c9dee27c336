/**
 * What of a post or page body may reach the static site (see README "Security"). The body is
 * written by the site's editors, so the markup people write — block markup, figures, tables,
 * media, classes, ids, `srcset`, data and ARIA attributes — stays; what a browser would run
 * (scripts, event handlers, frames with their own document, forms, plug-ins, inline SVG),
 * or what would change the page around the body (`<style>`, `<meta>`, `<base>`, `<link>`),
 * does not. An allow-list: an element or attribute not named here is not kept.
 */

/** Elements removed together with everything inside them. */
export const REMOVED_ELEMENTS: ReadonlySet<string> = new Set([
  'script',
  'style',
  'template',
  'noscript',
  'textarea',
  'select',
  'title',
  'xmp',
  'plaintext',
  'noembed',
  'noframes',
  'frame',
  'frameset',
  'svg',
  'math',
  'object',
  'embed',
  'applet',
  'param',
  'meta',
  'base',
  'link',
  'head',
  'input',
  'portal',
  'slot',
  'dialog',
]);

/** Elements kept (with the attributes below); any other element is replaced by its content. */
export const KEPT_ELEMENTS: ReadonlySet<string> = new Set(
  (
    'a abbr address area article aside audio b bdi bdo blockquote br caption center cite code ' +
    'col colgroup data dd del details dfn div dl dt em figcaption figure footer h1 h2 h3 h4 h5 ' +
    'h6 header hgroup hr i iframe img ins kbd li main map mark nav ol p picture pre q rp rt ' +
    'ruby s samp section small source span strong sub summary sup table tbody td tfoot th ' +
    'thead time tr track u ul var video wbr'
  ).split(' '),
);

/** Attributes any kept element may have (hast property names, lower-cased). */
const GLOBAL_ATTRIBUTES = new Set(
  (
    'classname id title lang dir role hidden translate tabindex itemprop itemscope itemtype ' +
    'itemid itemref style align'
  ).split(' '),
);

/** Attributes per element, besides the global ones (hast property names, lower-cased). */
const ELEMENT_ATTRIBUTES: Readonly<Record<string, ReadonlySet<string>>> = Object.fromEntries(
  Object.entries({
    a: 'href target rel hreflang type download name referrerpolicy',
    area: 'href alt coords shape target rel',
    audio: 'src controls autoplay loop muted preload crossorigin',
    blockquote: 'cite',
    col: 'span width',
    colgroup: 'span width',
    data: 'value',
    del: 'cite datetime',
    details: 'open',
    iframe:
      'src width height allow allowfullscreen loading referrerpolicy frameborder name sandbox',
    img: 'src srcset sizes alt width height loading decoding fetchpriority usemap crossorigin referrerpolicy',
    ins: 'cite datetime',
    li: 'value',
    map: 'name',
    ol: 'start reversed type',
    q: 'cite',
    source: 'src srcset sizes type media width height',
    table: 'width border cellpadding cellspacing summary',
    td: 'colspan rowspan headers width height valign',
    th: 'colspan rowspan headers scope abbr width height valign',
    time: 'datetime',
    track: 'src kind srclang label default',
    ul: 'type',
    video: 'src poster controls autoplay loop muted playsinline preload width height crossorigin',
  }).map(([tag, names]) => [tag, new Set(names.split(' '))]),
);

/** Whether `element` may keep the attribute whose hast property name is `name`. */
export function isAllowedAttribute(element: string, name: string): boolean {
  // data-* and aria-* carry no behaviour of their own (hast: `dataFoo`, `ariaLabel`).
  if (/^data[A-Z0-9-]/.test(name) || /^aria[A-Z-]/.test(name)) return true;
  const lower = name.toLowerCase();
  return GLOBAL_ATTRIBUTES.has(lower) || ELEMENT_ATTRIBUTES[element]?.has(lower) === true;
}

/**
 * Whether a `style` attribute's value may stay: CSS cannot run script in today's browsers, but
 * old ones ran `expression()`, `behavior` and `-moz-binding`, `@import` loads a stylesheet, and
 * a `url()` may carry any scheme. Escapes and comments could hide any of these, so a value
 * with a back-slash or a comment goes too. A `url()` to http(s) or a relative URL stays.
 */
export function isSafeStyle(value: string): boolean {
  if (/[\\]|\/\*|expression\s*\(|behaviou?r\s*:|-moz-binding|@import|javascript:/i.test(value))
    return false;
  for (const match of value.matchAll(/url\s*\(\s*(['"]?)([^'")]*)\1\s*\)/gi)) {
    const target = (match[2] ?? '').trim();
    const scheme = /^([a-z][a-z0-9+.-]*):/i.exec(target)?.[1]?.toLowerCase();
    if (scheme !== undefined && scheme !== 'http' && scheme !== 'https') return false;
  }
  // An unbalanced url( that the pattern did not read whole.
  return (
    (value.match(/url\s*\(/gi)?.length ?? 0) ===
    [...value.matchAll(/url\s*\(\s*(['"]?)[^'")]*\1\s*\)/gi)].length
  );
}
