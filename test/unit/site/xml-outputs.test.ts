import { describe, expect, it } from 'vitest';
import { atomFeed } from '../../../src/site/feed-xml.js';
import { robotsTxt } from '../../../src/site/robots-txt.js';
import { sitemapFiles } from '../../../src/site/sitemap-xml.js';
import { escapeXml, gmtToIso } from '../../../src/site/xml-text.js';
import { findAll, parseXml, textOf } from '../../helpers/xml-parse.js';

const hostile = 'A & B <script>"x"</script> \u0000\u0008\uFFFF \uD800 ok';

describe('XML written by the build', () => {
  it('escapes markup and drops characters XML cannot hold', () => {
    expect(escapeXml(hostile)).toBe('A &amp; B &lt;script&gt;&quot;x&quot;&lt;/script&gt;   ok');
    expect(gmtToIso('2024-03-14T02:00:00')).toBe('2024-03-14T02:00:00Z');
    expect(gmtToIso('2024-03-14T02:00:00+01:00')).toBe('2024-03-14T02:00:00+01:00');
  });

  it('writes a well-formed feed whatever the titles hold, deterministic when empty', () => {
    const header = {
      title: hostile,
      subtitle: '',
      homeUrl: 'https://h/pl/',
      feedUrl: 'https://h/pl/feed.xml',
      locale: 'pl-PL',
      authorName: hostile,
    };
    const feed = atomFeed(header, [
      {
        title: hostile,
        url: 'https://h/pl/a/?x=1&y=2',
        dateGmt: '2024-01-01T00:00:00',
        modifiedGmt: '2024-02-01T00:00:00',
        summary: hostile,
        contentHtml: `<p>${hostile}</p>]]>`,
      },
    ]);
    const tree = parseXml(feed);
    expect(textOf(findAll(tree, 'updated')[0]!)).toBe('2024-02-01T00:00:00Z');
    expect(findAll(tree, 'link')[2]?.attributes.href).toBe('https://h/pl/a/?x=1&y=2');
    expect(textOf(findAll(tree, 'content')[0]!)).toContain('<p>A & B <script>');
    expect(atomFeed(header, [])).toBe(atomFeed(header, []));
    expect(atomFeed(header, [])).toContain('<updated>1970-01-01T00:00:00Z</updated>');
  });

  it('splits a sitemap past the per-file limit into an index of parts', () => {
    const urls = Array.from({ length: 5 }, (_, index) => ({
      loc: `https://h/pl/${index}/`,
      alternates: [],
    }));
    expect([...sitemapFiles(urls, 'https://h/pl/').keys()]).toEqual(['sitemap.xml']);
    const files = sitemapFiles(urls, 'https://h/pl/', 2);
    expect([...files.keys()]).toEqual([
      'sitemap-1.xml',
      'sitemap-2.xml',
      'sitemap-3.xml',
      'sitemap.xml',
    ]);
    const index = parseXml(files.get('sitemap.xml')!);
    expect(index.name).toBe('sitemapindex');
    expect(findAll(index, 'loc').map(textOf)).toEqual([
      'https://h/pl/sitemap-1.xml',
      'https://h/pl/sitemap-2.xml',
      'https://h/pl/sitemap-3.xml',
    ]);
    expect(findAll(parseXml(files.get('sitemap-3.xml')!), 'url')).toHaveLength(1);
  });

  it('points robots.txt at the sitemap under the public URL', () => {
    expect(robotsTxt('https://h/blog/pl/')).toBe(
      'User-agent: *\nDisallow: /blog/pl/search/\n\nSitemap: https://h/blog/pl/sitemap.xml\n',
    );
  });
});
