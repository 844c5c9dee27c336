/**
 * `sitemap.xml` with `hreflang` alternates (every URL that has a counterpart lists all
 * language versions, itself included, as search engines require). Past the protocol's limit
 * of 50,000 URLs per file, `sitemap.xml` becomes a sitemap index over `sitemap-1.xml`, ...
 */
import { escapeXml, gmtToIso } from './xml-text.js';

export interface SitemapUrl {
  /** Absolute URL. */
  loc: string;
  lastmodGmt?: string;
  /** Language versions, this one included; empty when the item has no counterpart. */
  alternates: { hreflang: string; href: string }[];
}

/** The sitemap protocol's limit per file. */
export const SITEMAP_MAX_URLS = 50_000;

/** Files to write, by file name relative to the language root. */
export function sitemapFiles(
  urls: readonly SitemapUrl[],
  publicUrl: string,
  maxUrls: number = SITEMAP_MAX_URLS,
): Map<string, string> {
  return new Map(
    sitemapParts(urls.length, (start, end) => urls.slice(start, end), publicUrl, maxUrls),
  );
}

/**
 * The same files one at a time, the URLs of each part asked for (`urlsIn`) only when it is
 * made: a sitemap of a million posts is twenty parts, and no more than one part's URLs and
 * text are held at once. The parts come first, the index last (as `sitemapFiles` lists them).
 */
export function* sitemapParts(
  count: number,
  urlsIn: (start: number, end: number) => readonly SitemapUrl[],
  publicUrl: string,
  maxUrls: number = SITEMAP_MAX_URLS,
): Generator<[file: string, content: string]> {
  if (count <= maxUrls) {
    yield ['sitemap.xml', urlset(urlsIn(0, count))];
    return;
  }
  const names: string[] = [];
  for (let start = 0, part = 1; start < count; start += maxUrls, part++) {
    const name = `sitemap-${part}.xml`;
    names.push(name);
    yield [name, urlset(urlsIn(start, Math.min(count, start + maxUrls)))];
  }
  const index = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">',
    ...names.map(
      (name) => `  <sitemap><loc>${escapeXml(new URL(name, publicUrl).href)}</loc></sitemap>`,
    ),
    '</sitemapindex>',
    '',
  ];
  yield ['sitemap.xml', index.join('\n')];
}

function urlset(urls: readonly SitemapUrl[]): string {
  const lines = [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
  ];
  for (const url of urls) lines.push(urlElement(url));
  lines.push('</urlset>', '');
  return lines.join('\n');
}

/** One `<url>` element as `urlset` writes it, without the newline after it. */
function urlElement(url: SitemapUrl): string {
  const lines = ['  <url>', `    <loc>${escapeXml(url.loc)}</loc>`];
  if (url.lastmodGmt) lines.push(`    <lastmod>${escapeXml(gmtToIso(url.lastmodGmt))}</lastmod>`);
  for (const alternate of url.alternates) {
    lines.push(
      `    <xhtml:link rel="alternate" hreflang="${escapeXml(alternate.hreflang)}" href="${escapeXml(alternate.href)}"/>`,
    );
  }
  lines.push('  </url>');
  return lines.join('\n');
}

/**
 * A sitemap file of one part (`urlset`) with the elements of `urls` made again in place, each
 * found by its `<loc>`; the rest of the bytes as they were. Undefined when one is not there
 * once, or two overlap: an edit that moves nothing changes a few URLs' dates, and making every
 * URL again was most of an edit build's sitemap (issue 17). Bytes, not text: the file is ~1.3
 * MB at 10,000 posts, and decoding it, a copy of it per URL patched and encoding it again were
 * most of the patch. When every element made again is as long as it was (an edit's new dates:
 * the usual case), `bytes` itself is patched and returned, with no copy of the file made.
 */
export function patchedUrlset(bytes: Buffer, urls: readonly SitemapUrl[]): Buffer | undefined {
  const closing = Buffer.from('\n  </url>\n');
  const edits: { start: number; end: number; element: Buffer }[] = [];
  for (const url of urls) {
    const opening = Buffer.from(`\n  <url>\n    <loc>${escapeXml(url.loc)}</loc>\n`);
    const at = bytes.indexOf(opening);
    if (at < 0 || bytes.indexOf(opening, at + 1) >= 0) return undefined;
    const end = bytes.indexOf(closing, at + 1);
    if (end < 0) return undefined;
    // From the element's first byte to the newline after it, which is kept.
    edits.push({
      start: at + 1,
      end: end + closing.length - 1,
      element: Buffer.from(urlElement(url)),
    });
  }
  edits.sort((a, b) => a.start - b.start);
  for (const [at, edit] of edits.entries()) {
    if (at > 0 && edit.start < (edits[at - 1] as (typeof edits)[number]).end) return undefined;
  }
  if (edits.every((edit) => edit.element.length === edit.end - edit.start)) {
    for (const edit of edits) edit.element.copy(bytes, edit.start);
    return bytes;
  }
  const parts: Buffer[] = [];
  let from = 0;
  for (const edit of edits) {
    parts.push(bytes.subarray(from, edit.start), edit.element);
    from = edit.end;
  }
  parts.push(bytes.subarray(from));
  return Buffer.concat(parts);
}
