/**
 * Property tests: thousands of generated hostile fragments, slugs and provider answers through
 * the whole processor. Seeded, so a failure names a reproducible input.
 */
import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { findEmbedUrls } from '../../../src/transform/embed-detection.js';
import type { OEmbedResponse } from '../../../src/transform/oembed-response.js';
import { createHtmlProcessor, processHtml } from '../../../src/transform/process-html.js';
import { KNOWN_EMBED_HOSTS } from '../../../src/transform/provider-html.js';
import { normalizeSitePath, sitePathForUrl } from '../../../src/transform/site-paths.js';
import { createUrlResolver } from '../../../src/transform/url-resolver.js';
import { parseSrcset } from '../../../src/transform/srcset.js';
import { isSafeUrl } from '../../../src/transform/url-safety.js';
import { createRandom, type Random } from '../../helpers/transform/random.js';

const HOSTILE_SLUGS = [
  '..',
  '.',
  '%2e%2e',
  '%2F',
  '..%2F..%2Fetc',
  'javascript:alert(1)',
  'data:text',
  '<script>',
  '"onmouseover="x',
  'zażółć',
  '日本語',
  '\u202Eevil',
  '\u0000',
  '%00',
  '%',
  '%E0%A4%A',
  ' ',
  '?',
  '#',
  '\\',
  "'",
  'a'.repeat(300),
  '\uD800',
  'con',
  'ok',
];
const URLS = [
  'javascript:alert(1)',
  ' JAVASCRIPT:alert(1)',
  'java\tscript:alert(1)',
  'java&#x09;script:alert(1)',
  '&#106;avascript:alert(1)',
  '&#x6A;avascript:alert(1)',
  'javascript&colon;alert(1)',
  '\u0001javascript:alert(1)',
  'vbscript:msgbox(1)',
  'data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;',
  'data:image/png;base64,AAAA',
  'DaTa:image/svg+xml,x',
  'file:///etc/passwd',
  'http://host.test/pl/about/',
  '/pl/about/#x',
  '//host.test/files/a.png',
  '/files/a.png',
  'https://www.youtube.com/watch?v=1',
  '../x',
  '#frag',
  '?q=1',
  'mailto:x@y.test',
  '%',
  '%E0%A4%A',
  'http://[::1',
  'https://evil.test/' + 'a'.repeat(3000),
  'https://пример.test/ż',
  '',
  ' ',
  'http://host.test/pl/%2e%2e/%2e%2e/x/',
];
const EMBED_URLS = [
  'https://www.youtube.com/watch?v=1',
  'https://vimeo.com/2',
  'http://host.test/pl/about/',
  'https://evil.test/x',
  'https://пример.test/ż',
  'http://host.test/pl/zażółć/',
];
const PROVIDER_PIECES = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<img src="https://i.test/a.png" onload="x()">',
  '<iframe src="https://evil.test/"></iframe>',
  '<iframe src="https://www.youtube.com/embed/x" onload="alert(1)"></iframe>',
  '<iframe src="javascript:alert(1)"></iframe>',
  '<iframe srcdoc="<script>alert(1)</script>" src="https://player.vimeo.com/1"></iframe>',
  '<svg onload=alert(1)><script>x</script></svg>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="data:text/html,x">d</a>',
  '<style>*{display:none}</style>',
  '<scr<script>ipt>alert(1)</script>',
  '<math><mi xlink:href="javascript:alert(1)">x</mi></math>',
  '<blockquote class="q"><p>ok</p></blockquote>',
  '<object data="javascript:x"></object>',
  '<embed src="javascript:x">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<link rel="import" href="https://evil.test/">',
  '<form action="javascript:x"><input formaction="javascript:y"></form>',
  '<base href="https://evil.test/">',
  '<p style="x" onclick="y">text</p>',
  '<template><script>alert(1)</script></template>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>"></noscript>',
  '"><script>alert(1)</script>',
  '<!--<script>x</script>-->',
  '<a href="https://ok.test/" target="_blank" onmouseover="x">ok</a>',
];
const JUNK = [
  '<',
  '>',
  '"',
  "'",
  '</p>',
  '<p',
  '<!--',
  '-->',
  '&',
  '&#0;',
  '<![CDATA[',
  ']]>',
  '</',
  '\u0000',
  '<a href=',
  '=',
  '<img',
];

function text(random: Random): string {
  return Array.from({ length: random.int(0, 3) }, () =>
    random.pick([...HOSTILE_SLUGS, 'word', 'słowo']),
  ).join(' ');
}

/** A hostile content fragment: everything an item's rendered HTML might throw at us. */
function hostileContent(random: Random): string {
  const u = () => random.pick(URLS);
  const pieces = [
    () => `<a href="${u()}">${text(random)}</a>`,
    () => `<img src="${u()}" srcset="${u()} 1x, ${u()} 2x, ${u()}" width="1" height="2">`,
    () => `<p>${random.pick(EMBED_URLS)}</p>`,
    () => `<p><a href="${random.pick(EMBED_URLS)}">${random.pick(EMBED_URLS)}</a></p>`,
    () =>
      `<figure class="cms-block-embed"><div class="cms-block-embed__wrapper">${random.pick(EMBED_URLS)}</div></figure>`,
    () => `<h${random.int(1, 6)}>${text(random)}</h${random.int(1, 6)}>`,
    () => `<svg><a xlink:href="${u()}"><text>x</text></a><a href="${u()}">y</a></svg>`,
    () => `<iframe src="${u()}"></iframe>`,
    () => `<form action="${u()}"><button formaction="${u()}">b</button></form>`,
    () =>
      `<video poster="${u()}" src="${u()}"><source src="${u()}" srcset="${u()}"><track src="${u()}"></video>`,
    () => `<base href="${u()}">`,
    () => `<template><a href="${u()}">t</a></template>`,
    () => `<blockquote cite="${u()}">q</blockquote><object data="${u()}"></object>`,
    () => `<area href="${u()}"><a href="/x" ping="${u()} ${u()}">p</a>`,
    () => random.pick(JUNK),
    () => random.pick(PROVIDER_PIECES),
  ];
  return Array.from({ length: random.int(1, 8) }, () => random.pick(pieces)()).join(
    random.pick(['', '\n', ' ']),
  );
}

function escaped(value: string): string {
  return value.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;');
}

/** Content without scripts or handlers of its own, so any found in the output came from a provider. */
function benignContent(random: Random): string {
  const pieces = [
    () => `<p>${random.pick(EMBED_URLS)}</p>`,
    () =>
      `<figure class="cms-block-embed"><div class="cms-block-embed__wrapper">${random.pick(EMBED_URLS)}</div></figure>`,
    () => `<p>${escaped(text(random))} <a href="/pl/about/">x</a></p>`,
    () => `<h2>${escaped(text(random))}</h2>`,
    () => '<img src="/files/a.png">',
  ];
  return Array.from({ length: random.int(1, 5) }, () => random.pick(pieces)()).join('\n');
}

function providerResponse(random: Random): OEmbedResponse | null {
  if (random.next() < 0.15) return null;
  const html = Array.from({ length: random.int(1, 4) }, () => random.pick(PROVIDER_PIECES)).join(
    '',
  );
  return {
    type: random.pick(['rich', 'video', 'photo', 'link'] as const),
    html,
    title: random.pick(['<script>alert(1)</script>', 'T', '', '"onload="x']),
    url: random.pick(URLS),
    width: random.int(0, 2000),
  };
}

const parser = unified().use(rehypeParse, { fragment: true });

/** Every element of the output as a browser would parse it, template contents included. */
function elements(html: string): Element[] {
  const found: Element[] = [];
  const walk = (node: Root | Element): void => {
    for (const child of node.children) {
      if (child.type === 'element') {
        found.push(child);
        walk(child);
        if (child.content) walk(child.content);
      }
    }
  };
  walk(parser.parse(html));
  return found;
}

const URL_PROPERTIES = [
  'href',
  'src',
  'poster',
  'action',
  'formAction',
  'cite',
  'data',
  'xLinkHref',
  'ping',
];

function unsafeUrls(html: string): string[] {
  const problems: string[] = [];
  for (const node of elements(html)) {
    for (const name of URL_PROPERTIES) {
      const value = node.properties[name];
      const values = Array.isArray(value)
        ? value
        : value === undefined || value === null
          ? []
          : [value];
      for (const item of values) {
        if (!isSafeUrl(String(item))) problems.push(`<${node.tagName} ${name}="${String(item)}">`);
      }
    }
    const srcset = node.properties.srcSet;
    if (srcset !== undefined && srcset !== null) {
      for (const candidate of parseSrcset(String(srcset))) {
        if (!isSafeUrl(candidate.url)) problems.push(`<${node.tagName} srcset="${candidate.url}">`);
      }
    }
  }
  return problems;
}

const resolveLink = createUrlResolver([
  ['http://host.test/pl/about/', '/about/'],
  ['http://host.test/pl/zażółć/', '/zażółć/'],
  ['http://host.test/pl/', '/'],
]);
const resolveMedia = createUrlResolver([['http://host.test/files/a.png', '/media/1-a.png']]);
const processor = createHtmlProcessor({ resolveLink, resolveMedia });

function hostileItem(random: Random): { baseUrl: string; pagePath: string } {
  const slug = Array.from({ length: random.int(0, 3) }, () => random.pick(HOSTILE_SLUGS)).join('/');
  const baseUrl =
    random.next() < 0.1
      ? random.pick(['not a url', '', 'javascript:alert(1)'])
      : `http://host.test/pl/${slug}/`;
  return {
    baseUrl,
    pagePath: sitePathForUrl(baseUrl, 'http://host.test/pl/') ?? normalizeSitePath(slug),
  };
}

describe('transform under hostile input', () => {
  it('never throws and never emits a dangerous URL, for 3000 hostile fragments', () => {
    const random = createRandom(20240301);
    for (let run = 0; run < 3000; run++) {
      const html = hostileContent(random);
      const embeds = new Map(findEmbedUrls(html).map((url) => [url, providerResponse(random)]));
      const item = hostileItem(random);
      let out = '';
      expect(() => {
        out = processHtml(processor, html, { ...item, embeds }).html;
      }, `run ${run}: ${html}`).not.toThrow();
      expect(unsafeUrls(out), `run ${run}: ${html}`).toEqual([]);
    }
  });

  it('never lets a script, handler, style or unknown iframe through from a provider, for 2000 answers', () => {
    const random = createRandom(42);
    const hosts = new Set(KNOWN_EMBED_HOSTS);
    for (let run = 0; run < 2000; run++) {
      const html = benignContent(random);
      const embeds = new Map(findEmbedUrls(html).map((url) => [url, providerResponse(random)]));
      const out = processHtml(processor, html, {
        baseUrl: 'http://host.test/pl/a/',
        pagePath: '/a/',
        embeds,
      }).html;
      for (const node of elements(out)) {
        const context = `run ${run}: ${out}`;
        expect(
          [
            'script',
            'style',
            'object',
            'embed',
            'meta',
            'link',
            'form',
            'base',
            'svg',
            'math',
            'template',
          ],
          context,
        ).not.toContain(node.tagName);
        expect(
          Object.keys(node.properties).filter((name) => /^on/i.test(name)),
          context,
        ).toEqual([]);
        expect(node.properties.srcdoc ?? node.properties.srcDoc, context).toBeUndefined();
        if (node.tagName === 'iframe') {
          const src = new URL(String(node.properties.src));
          expect(src.protocol, context).toBe('https:');
          expect(hosts.has(src.hostname), context).toBe(true);
        }
      }
      expect(unsafeUrls(out)).toEqual([]);
    }
  });

  it('never leaks the remote host through a local embed card', () => {
    const random = createRandom(3);
    for (let run = 0; run < 300; run++) {
      const own = random.pick(['http://host.test/pl/about/', 'http://host.test/pl/zażółć/']);
      const html = `<p>${own}</p>`;
      const embeds = new Map([[new URL(own).href, providerResponse(random)]]);
      const out = processHtml(processor, html, {
        baseUrl: 'http://host.test/pl/x/',
        pagePath: '/x/',
        embeds,
      }).html;
      expect(out).not.toContain('host.test');
      expect(out).toContain('class="embed-card embed-card-local"');
    }
  });
});
