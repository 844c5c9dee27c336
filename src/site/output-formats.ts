/**
 * The files the build writes itself, beside the pages the theme renders: one entry per output
 * format. A format claims its file names before any entry is placed (the remote site's URL
 * scheme reserves them too, so an item whose path would take one is moved), then makes its
 * files from the placed site. Adding a format (a JSON feed, say) is one entry here; its
 * content digest makes the build rewrite it only when its bytes change. Pure.
 *
 * The search index is not here: Pagefind builds it in bundles, in worker threads, while the
 * pages render (`search-plan.ts`, `search-worker.ts`), and the search page is a theme page.
 */
import { atomFeed, type FeedEntry } from './feed-xml.js';
import { htmlToText, truncateText } from './html-text.js';
import { absoluteUrl, languageVersions, type JobContext } from './job-views.js';
import type { Placed } from './placed-entries.js';
import type { PlacedPosts } from './placed-posts.js';
import { robotsTxt } from './robots-txt.js';
import type { Entry, PageEntry, PostEntry, SiteModel } from './site-model.js';
import { patchedUrlset, sitemapParts, type SitemapUrl } from './sitemap-xml.js';

/** What a format makes its files from. */
export interface FormatInput {
  readonly model: SiteModel;
  readonly context: JobContext;
  /** Public posts, newest first, at their places (read again a window at a time). */
  readonly posts: PlacedPosts;
  readonly pages: readonly Placed<PageEntry>[];
  /** Posts in the feed (`PlanOptions.feedSize`). */
  readonly feedSize: number;
  /** URLs per sitemap file (`PlanOptions.sitemapMaxUrls`). */
  readonly sitemapMaxUrls: number;
  /** Given when the plan's edits moved nothing: its files are the last build's, patched. */
  readonly edited?: EditedPosts | undefined;
}

/** The posts an edit changed in place, and the last build's files to patch. */
export interface EditedPosts {
  /** The edited posts' indexes among the placed posts. */
  readonly indexes: readonly number[];
  /** A file's bytes as the last build wrote them, or undefined (made again in full). */
  readonly bytes: (file: string) => Buffer | undefined;
}

export interface OutputFormat {
  /**
   * The files it writes, relative to the language root, each with a label for a warning when
   * an item's path collides with it; `entries` counts the public posts and pages.
   */
  claims(entries: number, sitemapMaxUrls: number): [file: string, label: string][];
  /** Its files and their content (text, or UTF-8 bytes). */
  files(input: FormatInput): Iterable<[file: string, content: string | Uint8Array]>;
}

const feed: OutputFormat = {
  claims: () => [['feed.xml', 'feed.xml']],
  files: (input) => [['feed.xml', feedXml(input.model, input.posts.slice(0, input.feedSize))]],
};

const robots: OutputFormat = {
  claims: () => [['robots.txt', 'robots.txt']],
  files: (input) => [['robots.txt', robotsTxt(input.model.site.publicUrl)]],
};

const sitemap: OutputFormat = {
  claims: (entries, maxUrls) => {
    // The home counts as a URL too; past the protocol's limit the sitemap is an index of parts.
    const parts = Math.ceil((entries + 1) / maxUrls);
    const files: [string, string][] = [['sitemap.xml', 'sitemap.xml']];
    for (let part = 1; parts > 1 && part <= parts; part++)
      files.push([`sitemap-${part}.xml`, 'the sitemap']);
    return files;
  },
  files: (input) => {
    const urls = sitemapUrls(input.context, input.posts, input.pages);
    const patched = input.edited && patchedSitemap(input.edited, urls, input.sitemapMaxUrls);
    if (patched !== undefined) return [['sitemap.xml', patched]];
    return sitemapParts(urls.count, urls.urlsIn, input.model.site.publicUrl, input.sitemapMaxUrls);
  },
};

/** Every output format, in the order their files are planned. */
export const OUTPUT_FORMATS: readonly OutputFormat[] = [feed, robots, sitemap];

function feedXml(model: SiteModel, posts: readonly Placed<PostEntry>[]): string {
  const { publicUrl } = model.site;
  const entries: FeedEntry[] = posts.map(({ entry, sitePath }) => ({
    title: entry.title,
    url: absoluteUrl(publicUrl, sitePath),
    dateGmt: entry.dateGmt,
    modifiedGmt: entry.modifiedGmt,
    summary: truncateText(htmlToText(entry.excerptHtml), 500),
    contentHtml: entry.html,
  }));
  return atomFeed(
    {
      title: model.site.name,
      subtitle: model.site.description,
      homeUrl: publicUrl,
      feedUrl: new URL('feed.xml', publicUrl).href,
      locale: model.locale,
      authorName: model.identity?.name ?? model.site.name,
    },
    entries,
  );
}

/**
 * The last build's sitemap with the home's URL (its date is the newest post's) and the edited
 * posts' made again; undefined when it is in parts or cannot be patched (made in full).
 */
function patchedSitemap(
  edited: EditedPosts,
  urls: ReturnType<typeof sitemapUrls>,
  maxUrls: number,
): Buffer | undefined {
  if (urls.count > maxUrls) return undefined;
  const bytes = edited.bytes('sitemap.xml');
  if (bytes === undefined) return undefined;
  const changed = urls.urlsIn(0, 1);
  for (const index of edited.indexes)
    changed.push(...urls.urlsIn(urls.firstPost + index, urls.firstPost + index + 1));
  return patchedUrlset(bytes, changed);
}

/**
 * The sitemap's URLs in order (the home, the pages, the posts), any range of them made when
 * asked: the posts of a range are read again then (`PlacedPosts.slice`).
 */
function sitemapUrls(
  context: JobContext,
  posts: PlacedPosts,
  pages: readonly Placed<PageEntry>[],
): {
  count: number;
  /** Where the posts' URLs start (after the home and the pages). */
  firstPost: number;
  urlsIn: (start: number, end: number) => SitemapUrl[];
} {
  const versions = (sitePath: string, counterparts: Parameters<typeof languageVersions>[4]) => {
    const canonical = absoluteUrl(context.publicUrl, sitePath);
    const { alternates } = languageVersions(context, sitePath, './', canonical, counterparts);
    return { canonical, alternates };
  };
  const urlFor = (placed: Placed<Entry>): SitemapUrl => {
    const { canonical, alternates } = versions(placed.sitePath, placed.entry.alternates);
    return { loc: canonical, lastmodGmt: placed.entry.modifiedGmt, alternates };
  };
  const home = versions('/', 'homes');
  // The home's date is the newest change of any post (found when the posts were placed).
  const homeUrl: SitemapUrl = { loc: home.canonical, alternates: home.alternates };
  const newest = posts.newestModified;
  if (newest) homeUrl.lastmodGmt = newest;
  const firstPost = 1 + pages.length;
  const urlsIn = (start: number, end: number): SitemapUrl[] => {
    const urls: SitemapUrl[] = [];
    for (let at = start; at < Math.min(end, firstPost); at++)
      urls.push(at === 0 ? homeUrl : urlFor(pages[at - 1] as Placed<PageEntry>));
    const from = Math.max(start, firstPost) - firstPost;
    const to = end - firstPost;
    for (let at = from; at < to; at += 1000)
      for (const post of posts.slice(at, Math.min(to, at + 1000))) urls.push(urlFor(post));
    return urls;
  };
  return { count: firstPost + posts.length, firstPost, urlsIn };
}
