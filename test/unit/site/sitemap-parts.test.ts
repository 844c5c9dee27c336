/**
 * Issue 17: past 50,000 URLs the sitemap is planned and written one part at a time, each
 * part's posts read when it is made. The parts must still list every public URL once, in
 * order (the home, the pages, then the posts newest first) across the parts' edges, the
 * home dated by the newest change of any post, and the index name every part.
 */
import { describe, expect, it } from 'vitest';
import { planSite } from '../../../src/site/site-plan.js';
import { fixtureModel } from '../../helpers/fixture-model.js';

/** URLs per part here (50,000 in a build), and posts over three parts. */
const MAX_URLS = 1000;
const POSTS = 2_500;

function locs(xml: string): string[] {
  return Array.from(xml.matchAll(/<loc>([^<]*)<\/loc>/g), (match) => match[1] as string);
}

describe('a sitemap of more URLs than one file may hold', () => {
  it('lists every URL once, in order, across its parts', () => {
    const model = fixtureModel({ posts: POSTS, alternates: false });
    const plan = planSite(model, { sitemapMaxUrls: MAX_URLS });
    const content = (file: string): string => {
      const planned = plan.files.find((made) => made.file === file);
      expect(planned, file).toBeDefined();
      return String(planned?.content());
    };
    const names = plan.files.map((file) => file.file).filter((file) => file.startsWith('sitemap'));
    expect(names).toEqual(['sitemap-1.xml', 'sitemap-2.xml', 'sitemap-3.xml', 'sitemap.xml']);
    // Made again in the order planned, each part alike to what was digested.
    const parts = names.map(content);
    expect(locs(parts[3] as string)).toEqual([
      'https://example.test/pl/sitemap-1.xml',
      'https://example.test/pl/sitemap-2.xml',
      'https://example.test/pl/sitemap-3.xml',
    ]);
    const [first, second, third] = parts.slice(0, 3).map((part) => locs(part as string)) as [
      string[],
      string[],
      string[],
    ];
    expect([first.length, second.length]).toEqual([MAX_URLS, MAX_URLS]);
    const publicPosts = model.posts.filter((post) => post.status === 'publish' && !post.protected);
    const pageCount = plan.jobs.filter((job) => job.kind === 'page').length;
    const all = [...first, ...second, ...third];
    expect(all.length).toBe(1 + pageCount + publicPosts.length);
    expect(all[0]).toBe('https://example.test/pl/');
    expect(new Set(all).size).toBe(all.length);
    const postUrl = (sitePath: string): string => `https://example.test/pl${sitePath}`;
    expect(all.slice(1 + pageCount)).toEqual(publicPosts.map((post) => postUrl(post.sitePath)));
    // The home's date: the newest change of any public post.
    const newest = publicPosts
      .map((post) => post.modifiedGmt)
      .sort()
      .at(-1) as string;
    const home = /<url>\s*<loc>https:\/\/example.test\/pl\/<\/loc>\s*<lastmod>([^<]*)</.exec(
      parts[0] as string,
    );
    expect(home?.[1]?.slice(0, 19)).toBe(newest.slice(0, 19));
    // Asked for out of order, a part is still made (the walk starts again).
    expect(content('sitemap-1.xml')).toBe(parts[0]);
    expect(content('sitemap.xml')).toBe(parts[3]);
  }, 60_000);
});
