/**
 * `robots.txt` for one language's site. Crawlers read it only at a host's root, so it takes
 * effect when the language is served from its own host (`pl.example.com`); under a path prefix
 * it is harmless. Paths are absolute from the host, derived from `publicUrl`.
 */
export function robotsTxt(publicUrl: string, sitemapFile = 'sitemap.xml'): string {
  const base = new URL(publicUrl);
  return [
    'User-agent: *',
    // The search page shows results for whatever query is in its URL: nothing to index.
    `Disallow: ${base.pathname}search/`,
    '',
    `Sitemap: ${new URL(sitemapFile, base).href}`,
    '',
  ].join('\n');
}
