/**
 * Where the public entries of a site go: the pages, the generated files and the media placed
 * around the posts found (`placeAround`), the posts claimed last. `placeSite` finds the posts
 * in one pass over the model's; an edit build takes them as the last build placed them
 * (`stored-placement.ts`). Pure.
 */
import { sitePathToFilePath } from '../transform/index.js';
import { listingSitePath } from './job-views.js';
import { OUTPUT_FORMATS } from './output-formats.js';
import { PathClaims } from './path-claims.js';
import { addMediaUses, claimAll, placeEntries, placeMedia, publicOnly } from './placed-entries.js';
import type { PlacedPosts } from './placed-posts.js';
import { placedSearch } from './search-docs.js';
import { SEARCH_DIR } from './search-plan.js';
import type { SiteModel } from './site-model.js';
import type { PlacedSite, PlanOptions } from './site-plan.js';
import { SITEMAP_MAX_URLS } from './sitemap-xml.js';
import { ASSETS_DIR } from './template-files.js';

/**
 * The public posts as `placeAround` takes them: found by `placeSite`, or as the last build
 * placed them (`stored-placement.ts`).
 */
export interface FoundPosts {
  /** Public posts at a safe path, before their files are claimed. */
  readonly candidates: number;
  /** Why the others were left out (non-public, unsafe paths), in the order found. */
  readonly candidateWarnings: readonly string[];
  /** The local files each candidate uses, by its place in the posts' source (none: absent). */
  readonly uses: ReadonlyMap<number, readonly string[]>;
  /** Claims their files after the pages' and media's; the posts kept, warnings for the others. */
  claim(claims: PathClaims, warnings: string[]): PlacedPosts;
}

/** What placing the posts found, besides the posts: kept to place them again (`stored-placement.ts`). */
export interface PostsFacts {
  readonly candidates: number;
  readonly candidateWarnings: readonly string[];
  readonly claimWarnings: readonly string[];
  readonly uses: ReadonlyMap<number, readonly string[]>;
}

/** The pages, generated files and media placed around the posts found, then the posts. */
export function placeAround(model: SiteModel, options: PlanOptions, found: FoundPosts): PlacedSite {
  const postsPerPage = positiveInteger(options.postsPerPage, 10);
  const sitemapMaxUrls = positiveInteger(options.sitemapMaxUrls, SITEMAP_MAX_URLS);
  const warnings: string[] = [...found.candidateWarnings];
  const claims = new PathClaims();
  claims.reserveDirectory(ASSETS_DIR);
  claims.reserveDirectory(SEARCH_DIR);

  const used = new Set<string>();
  for (const files of found.uses.values()) for (const file of files) used.add(file);
  const pages = placeEntries(publicOnly(model.pages, 'page', warnings), 'page', warnings);
  for (const page of pages) addMediaUses(used, page);
  const { candidates } = found;

  // Generated files first: the remote site's own URL scheme reserves them too.
  const listingCount = Math.max(1, Math.ceil(candidates / postsPerPage));
  for (let number = 1; number <= listingCount; number++) {
    claims.claim(sitePathToFilePath(listingSitePath(number)), `listing page ${number}`);
  }
  for (const file of ['404.html', 'search/index.html']) claims.claim(file, file);
  for (const format of OUTPUT_FORMATS) {
    const entries = candidates + pages.length;
    for (const [file, label] of format.claims(entries, sitemapMaxUrls)) claims.claim(file, label);
  }

  // Media that public content uses, then pages, then posts.
  const media = placeMedia(model, used, claims, warnings);
  const placedPages = claimAll(pages, claims, 'page', warnings);
  const claimWarnings: string[] = [];
  const posts = found.claim(claims, claimWarnings);
  warnings.push(...claimWarnings);
  const search = placedSearch(posts, placedPages, {
    lang: model.lang,
    docsPerShard: options.searchDocsPerShard,
    maxDocsPerShard: options.searchMaxDocsPerShard,
    search: options.search !== false,
  });
  const facts: PostsFacts = {
    candidates,
    candidateWarnings: found.candidateWarnings,
    claimWarnings,
    uses: found.uses,
  };
  return { search, warnings, model, options, posts, pages: placedPages, media, facts };
}

export function positiveInteger(value: number | undefined, fallback: number): number {
  return value !== undefined && Number.isInteger(value) && value > 0 ? value : fallback;
}
