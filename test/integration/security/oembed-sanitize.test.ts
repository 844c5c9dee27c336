/**
 * Provider HTML from oEmbed is third-party markup. End to end (real pull through the site's
 * oEmbed routes, real build): whatever a provider answers — script, event handlers,
 * `javascript:` URLs, srcdoc, forms, mXSS shapes — nothing executable reaches the output,
 * while the safe part of the same answer (an https iframe on a known host) does.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isIntactLdJson, URL_PROPERTY_NAMES } from '../../helpers/html-danger.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../../helpers/reference.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { listFiles, startProxy, type TinyServer } from '../../helpers/bad-input-harness.js';
import { credentialEnv } from '../../helpers/cli-args.js';

/** Every payload carries `cmsxss` so a leftover is found whatever shape it takes. */
const HOSTILE_PROVIDER_HTML = [
  '<iframe src="https://www.youtube.com/embed/cmsSafeVideo" onload="alert(\'cmsxss-1\')" width="560" height="315"></iframe>',
  '<script>alert("cmsxss-2")</script>',
  '<img src="https://example.org/x.png" onerror="alert(\'cmsxss-3\')">',
  '<a href="javascript:alert(\'cmsxss-4\')">click</a>',
  '<a href=" JaVaScRiPt:alert(\'cmsxss-5\')">click</a>',
  '<a href="jav&#x09;ascript:alert(\'cmsxss-6\')">tab</a>',
  '<iframe src="javascript:alert(\'cmsxss-7\')"></iframe>',
  '<iframe srcdoc="&lt;script&gt;alert(\'cmsxss-8\')&lt;/script&gt;"></iframe>',
  '<iframe src="data:text/html,&lt;script&gt;alert(\'cmsxss-9\')&lt;/script&gt;"></iframe>',
  '<form action="javascript:alert(\'cmsxss-10\')"><button formaction="javascript:alert(1)">go</button></form>',
  '<svg><script>alert("cmsxss-11")</script><a xlink:href="javascript:alert(\'cmsxss-12\')">x</a></svg>',
  '<math><mtext><table><mglyph><style><img src=x onerror="alert(\'cmsxss-13\')"></style></mglyph></table></mtext></math>',
  '<style>body{background:url("javascript:alert(\'cmsxss-14\')")}</style>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(\'cmsxss-15\')">',
  '<base href="javascript:alert(\'cmsxss-16\')//">',
  '<object data="javascript:alert(\'cmsxss-17\')"></object><embed src="javascript:alert(\'cmsxss-18\')">',
  '<blockquote onmouseover="alert(\'cmsxss-19\')"><p style="x:expression(alert(\'cmsxss-20\'))">quote</p></blockquote>',
  '<iframe src="https://evil.invalid/cmsxss-21"></iframe>',
].join('\n');

/** Everything executable in one built HTML page. */
function dangerIn(html: string): string[] {
  const tree = unified().use(rehypeParse).parse(html) as Root;
  const found: string[] = [];
  visit(tree, 'element', (node: Element) => {
    for (const [name, value] of Object.entries(node.properties)) {
      if (/^on/i.test(name)) found.push(`${node.tagName}[${name}]`);
      const text = Array.isArray(value) ? value.join(' ') : String(value);
      // Browsers drop ASCII whitespace and control characters before reading a scheme.
      // eslint-disable-next-line no-control-regex
      const squeezed = text.replace(/[\u0000-\u0020]/g, '');
      if (
        URL_PROPERTY_NAMES.includes(name) &&
        /^(?:javascript|vbscript|data:text\/html)/i.test(squeezed)
      ) {
        found.push(`${node.tagName}[${name}=${text.slice(0, 40)}]`);
      }
      if (name === 'srcDoc') found.push(`${node.tagName}[srcdoc]`);
    }
    if (['object', 'embed'].includes(node.tagName)) found.push(node.tagName);
    // The theme has its own search form and <base>; none may come from a provider.
    if (
      ['base', 'form', 'button'].includes(node.tagName) &&
      /cmsxss|javascript/i.test(JSON.stringify(node.properties))
    )
      found.push(`${node.tagName} from a provider`);
    if (
      node.tagName === 'meta' &&
      String(node.properties['httpEquiv'] ?? '').toLowerCase() === 'refresh'
    )
      found.push('meta refresh');
    if (node.tagName === 'script' && node.properties['type'] === 'application/ld+json') {
      if (!isIntactLdJson(node)) found.push('broken ld+json script');
      return;
    }
    if (node.tagName === 'script' || node.tagName === 'style') {
      const body = JSON.stringify(node.children) + String(node.properties['src'] ?? '');
      // The theme's own scripts and styles are fine; none of the provider's may get through.
      if (/cmsxss|twitter|widgets\.js/.test(body))
        found.push(`${node.tagName} from a provider: ${body.slice(0, 300)}`);
    }
    if (node.tagName === 'iframe' && /evil\.invalid/.test(String(node.properties['src'])))
      found.push('iframe on an unknown host');
  });
  return found;
}

describe('oEmbed provider HTML, end to end', () => {
  let site: ReferenceSite;
  let proxy: TinyServer;
  let temp: TempCache;

  const fixture = useSiteAndCache(
    { posts: 4, pages: 1, media: 1, languages: ['pl'] },
    'cms-mirror-oembed-',
  );

  beforeEach(async () => {
    ({ site, temp } = fixture);
    site.control.createItems('pl', 'posts', 1, {
      slug: 'embeds',
      content: [
        '<p>https://www.youtube.com/watch?v=cmsEmbed1</p>',
        '<figure class="cms-block-embed is-type-rich"><div class="cms-block-embed__wrapper">\nhttps://twitter.com/someone/status/1234567890\n</div></figure>',
        '<p>https://vimeo.com/76979871</p>',
      ].join('\n'),
    });
    // Every oEmbed answer (the site's own and the provider proxy) carries the hostile HTML.
    proxy = await startProxy(site.url, (path) =>
      path.includes('/oembed/1.0/')
        ? {
            contentType: 'application/json; charset=utf-8',
            body: JSON.stringify({
              version: '1.0',
              type: 'rich',
              provider_name: 'Evil <script>alert("cmsxss-p")</script>',
              provider_url: 'javascript:alert("cmsxss-u")',
              title: '<img src=x onerror=alert("cmsxss-t")>',
              html: HOSTILE_PROVIDER_HTML,
              width: 560,
              height: 315,
              cache_age: 3600,
            }),
          }
        : undefined,
    );
  });
  afterEach(async () => {
    await proxy.close();
  });

  it('keeps the known-host iframe and drops every script, handler and javascript: URL', async () => {
    const pipeline = join(temp.dir, 'pipeline.yaml');
    writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
    const out = join(temp.dir, 'output');
    const env = credentialEnv(site);
    const run = await runCliCaptured(
      [
        'run',
        '--pipeline',
        pipeline,
        '--site',
        proxy.url,
        '--lang',
        'pl',
        '--cache',
        temp.file,
        '--out',
        out,
      ],
      { env, cwd: temp.dir },
    );
    expect(run.stderr).not.toMatch(/internal error/);
    expect(run.code, run.stderr).toBe(0);

    // The hostile answers did reach the cache: the sanitizer, not a missed fetch, protects us.
    const db = new Database(temp.file, { readonly: true });
    try {
      const rows = db.prepare('SELECT * FROM oembed').all() as Record<string, unknown>[];
      expect(
        rows.filter((row) => JSON.stringify(row).includes('cmsxss-2')).length,
      ).toBeGreaterThanOrEqual(2);
    } finally {
      db.close();
    }
    const pages = listFiles(out).filter((file) => file.endsWith('.html'));
    expect(pages.length).toBeGreaterThan(5);
    const problems = pages.flatMap((file) =>
      dangerIn(readFileSync(file, 'utf8')).map((what) => `${file}: ${what}`),
    );
    expect(problems).toEqual([]);
    const embedPage = pages.find((file) => file.includes('/embeds/'));
    expect(embedPage).toBeDefined();
    const html = readFileSync(embedPage!, 'utf8');
    expect(html).toContain('https://www.youtube.com/embed/cmsSafeVideo');
    // The checker sees what it is looking for: the raw provider HTML is full of it.
    expect(dangerIn(HOSTILE_PROVIDER_HTML).length).toBeGreaterThan(15);
  });
});
