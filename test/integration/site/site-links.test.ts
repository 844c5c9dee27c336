/**
 * Issue 4: the built sites of both languages have no broken internal link (pages, media,
 * pagination, the language switcher between the sibling `pl/` and `es/` folders), their feed
 * and sitemap are well-formed XML, and mirrored media never point back at the remote host.
 * One pull with credentials and one build of the seeded reference site, through the CLI.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkLinks, walkFiles } from '../../helpers/link-check.js';
import { startMirror, type Mirror } from '../../helpers/e2e-site.js';
import { findAll, parseXml, textOf } from '../../helpers/xml-parse.js';

const LANGUAGES = ['pl', 'es'] as const;

function parseHtml(file: string): Root {
  return unified().use(rehypeParse).parse(fs.readFileSync(file, 'utf8')) as Root;
}

function attribute(node: Element, name: string): string | undefined {
  const value = node.properties[name];
  if (value === undefined || value === null) return undefined;
  return Array.isArray(value) ? value.join(name === 'srcSet' ? ',' : ' ') : String(value);
}

/** The language switcher's links of a page: hreflang → href. */
function switcherLinks(tree: Root): Map<string, string> {
  const links = new Map<string, string>();
  visit(tree, 'element', (nav: Element) => {
    if (nav.tagName !== 'nav' || !String(attribute(nav, 'className')).includes('language-switcher'))
      return;
    visit(nav, 'element', (link: Element) => {
      const lang = attribute(link, 'hrefLang');
      const href = attribute(link, 'href');
      if (link.tagName === 'a' && lang && href) links.set(lang, href);
    });
  });
  return links;
}

describe('links of the built sites', () => {
  let mirror: Mirror;

  beforeAll(async () => {
    mirror = await startMirror();
    const run = await mirror.run();
    for (const lang of LANGUAGES) expect(run.build.languages[lang]?.pages).toBeGreaterThan(20);
  });
  afterAll(async () => {
    await mirror?.close();
  });

  it('no internal link of either language is broken', () => {
    for (const lang of LANGUAGES) {
      const report = checkLinks(mirror.outDir, lang);
      expect(report.files).toBeGreaterThan(20);
      // Every page links to at least its stylesheet, home, feed and search page.
      expect(report.checked).toBeGreaterThan(report.files * 4);
      expect(report.broken).toEqual([]);
    }
  });

  it('the home is paginated and the numbered pages link back and forth', () => {
    for (const lang of LANGUAGES) {
      const langDir = path.join(mirror.outDir, lang);
      const numbered = walkFiles(langDir).filter((file) => /^page\/\d+\/index\.html$/.test(file));
      expect(numbered.length).toBeGreaterThanOrEqual(1);
      const home = fs.readFileSync(path.join(langDir, 'index.html'), 'utf8');
      expect(home).toMatch(/<a class="older" rel="next" href="page\/2\/">/);
      const second = fs.readFileSync(path.join(langDir, 'page/2/index.html'), 'utf8');
      expect(second).toMatch(/<a class="newer" rel="prev" href="\.\.\/\.\.\/">/);
    }
  });

  it('the language switcher goes to the sibling folder, to the translation where one exists', () => {
    let translated = 0;
    for (const [lang, other] of [
      ['pl', 'es'],
      ['es', 'pl'],
    ] as const) {
      const langDir = path.join(mirror.outDir, lang);
      const pages = walkFiles(langDir).filter(
        (file) => file.endsWith('index.html') && /^\d{4}\//.test(file),
      );
      expect(pages.length).toBeGreaterThan(10);
      for (const file of pages) {
        const tree = parseHtml(path.join(langDir, file));
        const href = switcherLinks(tree).get(other);
        expect(href, `${lang}/${file}`).toBeDefined();
        expect(href).not.toMatch(/^[a-z]+:|^\//i);
        const target = new URL(href as string, `http://site.invalid/${lang}/${file}`);
        expect(target.pathname.startsWith(`/${other}/`), `${lang}/${file} → ${href}`).toBe(true);
        const targetFile = path.join(
          mirror.outDir,
          decodeURIComponent(target.pathname),
          target.pathname.endsWith('/') ? 'index.html' : '',
        );
        expect(fs.existsSync(targetFile), targetFile).toBe(true);
        // A post with a translation: the switcher lands on it, and it points back here.
        if (target.pathname !== `/${other}/`) {
          translated++;
          const back = switcherLinks(parseHtml(targetFile)).get(lang);
          expect(new URL(back as string, target).pathname).toBe(
            `/${lang}/${encodeURI(file).replace(/index\.html$/, '')}`,
          );
        }
      }
    }
    expect(translated).toBeGreaterThan(20);
  });

  it('feed and sitemap are well-formed XML listing the public pages, with hreflang alternates', () => {
    for (const lang of LANGUAGES) {
      const langDir = path.join(mirror.outDir, lang);
      const home = `${mirror.site.url}/${lang}/`;
      const feed = parseXml(fs.readFileSync(path.join(langDir, 'feed.xml'), 'utf8'));
      expect(feed.name).toBe('feed');
      const entries = findAll(feed, 'entry');
      expect(entries.length).toBeGreaterThan(5);
      for (const entry of entries) {
        const id = textOf(findAll(entry, 'id')[0] as never);
        expect(id.startsWith(home)).toBe(true);
        const file = path.join(langDir, decodeURIComponent(id.slice(home.length)), 'index.html');
        expect(fs.existsSync(file), id).toBe(true);
      }

      const sitemap = parseXml(fs.readFileSync(path.join(langDir, 'sitemap.xml'), 'utf8'));
      const urls = findAll(sitemap, 'url');
      const pages = walkFiles(langDir).filter(
        (file) =>
          file.endsWith('index.html') && !file.startsWith('search/') && !file.startsWith('page/'),
      );
      expect(urls.length).toBe(pages.length);
      let alternates = 0;
      for (const url of urls) {
        const loc = textOf(findAll(url, 'loc')[0] as never);
        const file = path.join(langDir, decodeURIComponent(loc.slice(home.length)), 'index.html');
        expect(fs.existsSync(file), loc).toBe(true);
        for (const link of findAll(url, 'xhtml:link')) {
          alternates++;
          const { hreflang, href } = link.attributes;
          expect(hreflang).toBeDefined();
          const other = (hreflang as string).slice(0, 2);
          const otherHome = `${mirror.site.url}/${other}/`;
          expect(href?.startsWith(otherHome), href).toBe(true);
          const target = path.join(
            mirror.outDir,
            other,
            decodeURIComponent((href as string).slice(otherHome.length)),
            'index.html',
          );
          expect(fs.existsSync(target), href).toBe(true);
        }
      }
      expect(alternates).toBeGreaterThan(10);
    }
  });

  it('mirrored media never point at the remote host', () => {
    const host = new URL(mirror.site.url).host;
    let images = 0;
    const remote: string[] = [];
    for (const lang of LANGUAGES) {
      const langDir = path.join(mirror.outDir, lang);
      for (const file of walkFiles(langDir).filter((name) => name.endsWith('.html'))) {
        visit(parseHtml(path.join(langDir, file)), 'element', (node: Element) => {
          const values: string[] = [];
          if (node.tagName === 'img' || node.tagName === 'source') {
            images++;
            for (const name of ['src', 'srcSet']) {
              const value = attribute(node, name);
              if (value !== undefined) values.push(value);
            }
          } else if (node.tagName === 'a') {
            const href = attribute(node, 'href');
            // A link to a media file (uploads folder or an image/document file).
            if (
              href &&
              /cms-content|\/media\/|\.(?:png|jpe?g|gif|webp|svg|pdf)(?:$|[?#])/i.test(href)
            )
              values.push(href);
          }
          for (const value of values) {
            if (value.includes(host) || value.includes('cms-content/uploads'))
              remote.push(`${lang}/${file}: <${node.tagName}> ${value}`);
          }
        });
      }
    }
    expect(images).toBeGreaterThan(30);
    expect(remote).toEqual([]);
    // Every seeded content image was copied into the language's media folder.
    for (const lang of LANGUAGES) {
      const media = walkFiles(path.join(mirror.outDir, lang, 'media'));
      expect(media.filter((file) => file.endsWith('.png')).length).toBeGreaterThanOrEqual(6);
    }
  });
});
