/**
 * A seeded generator of hostile input for the fuzz tests: slugs and links that try to leave a
 * directory, URLs with dangerous schemes in every disguise, broken and nested HTML, and oEmbed
 * provider HTML full of script. Same seed, same input: a failure is reproducible from its
 * seed and index.
 *
 * Markers: provider HTML carries `provxss` in everything executable, so a test can tell a
 * leak from the provider (must never happen) from the item's own content (mirrored as is).
 */
import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { createRng } from '../../src/reference/rng.js';
import { isIntactLdJson, URL_PROPERTY_NAMES } from './html-danger.js';

export class HostileInput {
  readonly #random: () => number;

  constructor(seed: number) {
    this.#random = createRng(seed);
  }

  pick<T>(list: readonly T[]): T {
    return list[Math.floor(this.#random() * list.length)]!;
  }

  int(max: number): number {
    return Math.floor(this.#random() * max);
  }

  /** A slug made of 1–4 hostile parts. */
  slug(): string {
    const parts = Array.from({ length: 1 + this.int(4) }, () => this.pick(SLUG_PARTS));
    return parts.join(this.pick(['', '-', '/', '\\', '%2F', '.', ' ']));
  }

  /** A `link` for an item: the site's own origin with a hostile path, or something stranger. */
  link(base: string, lang: string): string {
    const slug = this.slug();
    return this.pick([
      `${base}/${lang}/${slug}/`,
      `${base}/${lang}/2024/05/${slug}/`,
      `${base}/${lang}/${encodeURIComponent(slug)}/`,
      `${base}/${lang}/${slug}`,
      `${base}/${slug}/`,
      `${base}/${lang}/a/b/c/d/e/f/g/h/i/j/k/l/m/n/o/p/q/r/s/t/u/v/w/x/y/z/0/1/2/3/4/5/6/7/8/${slug}/`,
      `https://other.invalid/${lang}/${slug}/`,
      `${base}/${lang}/?p=${this.int(999)}`,
      `${base}/${lang}/${slug}#frag`,
      slug,
      '',
    ]);
  }

  /** A URL for an href/src attribute. */
  url(base: string, lang: string): string {
    return this.pick([
      ...DANGEROUS_URLS,
      this.link(base, lang),
      `${base}/${lang}/cms-content/uploads/2024/01/${this.slug()}.png`,
      '../../../../etc/passwd',
      '/%2e%2e/%2e%2e/secret',
      '//evil.invalid/x',
      '#top',
      '?q=1',
      'mailto:someone@example.org',
      'http://[::1',
      '%E0%A4%A',
      `https://www.youtube.com/watch?v=fz${this.int(50)}`,
    ]);
  }

  /** An HTML fragment of 1–6 hostile pieces, some nested, some cut short. */
  fragment(base: string, lang: string): string {
    const pieces: string[] = [];
    const count = 1 + this.int(6);
    for (let n = 0; n < count; n += 1) {
      const url = this.url(base, lang).replace(/"/g, '&quot;');
      const other = this.url(base, lang).replace(/"/g, '&quot;');
      const text = this.pick(TEXTS);
      pieces.push(
        this.pick([
          `<p><a href="${url}">${text}</a></p>`,
          `<p><img src="${url}" srcset="${url} 1x, ${other} 2x" alt="${text}" width="10" height="10"></p>`,
          `<h2>${text}</h2>`,
          `<h3 id="${this.slug()}">${text}</h3>`,
          `<p>${this.embedUrl()}</p>`,
          `<figure class="cms-block-embed"><div class="cms-block-embed__wrapper">\n${this.embedUrl()}\n</div></figure>`,
          `<a href="${url}"><img src="${other}"></a>`,
          `<video src="${url}" poster="${other}"></video>`,
          `<source srcset="${url}">`,
          `<iframe src="${url}"></iframe>`,
          `<form action="${url}"><button formaction="${other}">x</button></form>`,
          `<svg><a xlink:href="${url}">x</a></svg>`,
          `<object data="${url}"></object>`,
          `<base href="${url}">`,
          `<div><p><a href="${url}">unclosed <b>nesting <i>deep`,
          `<!-- ${text} --><![CDATA[ ${text} ]]>`,
          `<template><a href="${url}">t</a></template>`,
          `<table><tr><td><a href="${url}">${text}</td></table>`,
          '</div></p></a>',
          `<p>${text}</p>`,
        ]),
      );
    }
    return pieces.join(this.pick(['\n', '', ' ']));
  }

  /** A URL alone on its line: the transform asks the oEmbed cache about it. */
  embedUrl(): string {
    return this.pick([
      `https://www.youtube.com/watch?v=fz${this.int(50)}`,
      `https://vimeo.com/${1000 + this.int(50)}`,
      `https://twitter.com/u/status/${this.int(50)}`,
      `https://open.spotify.com/track/fz${this.int(50)}`,
    ]);
  }

  /** A hostile oEmbed answer for `url` (or null: unresolved). */
  providerResponse(): Record<string, unknown> | null {
    if (this.int(10) === 0) return null;
    const html = Array.from({ length: 1 + this.int(4) }, () => this.pick(PROVIDER_HTML)).join('');
    return {
      version: '1.0',
      type: this.pick(['rich', 'video', 'photo', 'link', 'bogus']),
      html,
      title: this.pick([
        '<script>provxss()</script>',
        'A title',
        '"><img src=x onerror=provxss()>',
      ]),
      provider_name: this.pick(['Evil', '<b onclick="provxss()">Bold</b>']),
      provider_url: this.pick(['javascript:provxss()', 'https://www.youtube.com/']),
      url: this.pick([
        'javascript:provxss()',
        'https://example.org/p.png',
        'data:image/png;base64,AAAA',
      ]),
      thumbnail_url: this.pick(['javascript:provxss()', 'https://example.org/t.png']),
      width: this.pick([560, '100%', -1, 'x']),
      height: this.pick([315, null, 1e12]),
    };
  }
}

const SLUG_PARTS: readonly string[] = [
  '..',
  '.',
  '...',
  '%2e%2e',
  '%2E%2E%2F',
  '%252e%252e',
  '../../etc/passwd',
  '/etc/passwd',
  'C:\\Windows',
  '\\\\server\\share',
  'a%00b',
  'tab\tnew\nline',
  '\u0007\u001b',
  'x'.repeat(300),
  'ą'.repeat(130),
  'zażółć',
  'привет',
  '中文',
  'مرحبا',
  '\u202eevil',
  '😀',
  'CON',
  'nul',
  '.hidden',
  'trailing.',
  ' spaced ',
  '?query',
  '#hash',
  'index.html',
  'feed.xml',
  'media',
  '404',
  'normal-slug',
];

const DANGEROUS_URLS: readonly string[] = [
  'javascript:alert(1)',
  'JAVASCRIPT:alert(1)',
  ' javascript:alert(1)',
  'java\tscript:alert(1)',
  'java&#x09;script:alert(1)',
  'jav&#97;script:alert(1)',
  '&#106;avascript:alert(1)',
  '\u0001javascript:alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html,<script>alert(1)</script>',
  'data:image/svg+xml;base64,PHN2Zz48L3N2Zz4=',
  'file:///etc/passwd',
  'javascript://%0aalert(1)',
];

const TEXTS: readonly string[] = [
  'plain',
  '&lt;script&gt;alert(1)&lt;/script&gt;',
  'zażółć gęślą jaźń',
  '"quoted" & <b>bold</b>',
  '\u202eright-to-left',
  '<scr<script>ipt>alert(1)</script>',
  '',
];

/** Provider HTML: every executable part carries `provxss`. */
const PROVIDER_HTML: readonly string[] = [
  '<script>provxss()</script>',
  '<script src="https://platform.twitter.com/widgets.js?provxss"></script>',
  '<img src="https://example.org/x.png" onerror="provxss()">',
  '<a href="javascript:provxss()">x</a>',
  '<a href=" JaVaScRiPt:provxss()">x</a>',
  '<iframe src="javascript:provxss()"></iframe>',
  '<iframe srcdoc="<script>provxss()</script>"></iframe>',
  '<iframe src="https://www.youtube.com/embed/ok" onload="provxss()"></iframe>',
  '<iframe src="https://evil.invalid/provxss"></iframe>',
  '<svg onload="provxss()"><script>provxss()</script></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror="provxss()"></style></mglyph></table></mtext></math>',
  '<style>*{background:url(javascript:provxss())}</style>',
  '<form action="javascript:provxss()"><input onfocus="provxss()" autofocus></form>',
  '<object data="javascript:provxss()"></object>',
  '<embed src="javascript:provxss()">',
  '<meta http-equiv="refresh" content="0;url=javascript:provxss()">',
  '<base href="javascript:provxss()//">',
  '<blockquote onmouseover="provxss()"><p>quote</p></blockquote>',
  '<a href="https://example.org/" style="background:url(javascript:provxss())">styled</a>',
  '<noscript><p title="</noscript><img src=x onerror=provxss()>"></noscript>',
  '<p>fine text</p>',
  '<iframe src="https://player.vimeo.com/video/1" allowfullscreen></iframe>',
];

const URL_PROPERTIES = new Set([...URL_PROPERTY_NAMES, 'ping', 'srcSet']);

/** What a page must never hold: any dangerous-scheme URL, a <base>, anything from a provider. */
export function findDanger(html: string): string[] {
  const tree = unified().use(rehypeParse, { fragment: true }).parse(html) as Root;
  const found: string[] = [];
  visit(tree, 'element', (node: Element) => {
    for (const [name, value] of Object.entries(node.properties)) {
      const text = Array.isArray(value) ? value.join(' ') : String(value);
      if (URL_PROPERTIES.has(name)) {
        // A srcset candidate is "URL descriptors": its URL ends at the first whitespace.
        const urls =
          name === 'srcSet'
            ? text.split(',').map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
            : [text];
        for (const url of urls) {
          // Browsers drop ASCII whitespace and control characters before reading a scheme.
          // eslint-disable-next-line no-control-regex
          const squeezed = url.replace(/[\u0000-\u0020]/g, '').toLowerCase();
          if (/^(?:javascript|vbscript|data|file):/.test(squeezed)) {
            found.push(`${node.tagName}[${name}=${text.slice(0, 40)}]`);
          }
        }
      }
      // The generated content has no event handlers: any one is a leak.
      if (/^on/i.test(name)) found.push(`${node.tagName}[${name}]`);
      if ((name === 'style' || name === 'srcDoc') && /provxss/.test(text)) {
        found.push(`${node.tagName}[${name}] holds provider script`);
      }
    }
    if (node.tagName === 'base') found.push('base');
    if (node.tagName === 'script' && node.properties['type'] === 'application/ld+json') {
      // Provider text may be quoted in structured data, as long as it stays intact JSON.
      if (!isIntactLdJson(node)) found.push('broken ld+json script');
      return;
    }
    if (node.tagName === 'script' || node.tagName === 'style') {
      if (/provxss|widgets\.js/.test(JSON.stringify(node))) found.push(`provider ${node.tagName}`);
    }
    if (node.tagName === 'iframe' && /provxss/.test(String(node.properties['src'] ?? ''))) {
      found.push('provider iframe on an unknown host');
    }
  });
  return found;
}
