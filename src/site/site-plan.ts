/**
 * From a `SiteModel` to the plan of one language's static site: every page to render (a job
 * for the templates) and every file the build writes itself (the output formats of
 * `output-formats.ts` — feed, robots, sitemap — and media), each with the digest of what it is
 * made from. Pure: no file system, no Eleventy, so the
 * incremental logic ("which outputs changed?") is decided and tested here.
 *
 * Entries whose path is unsafe or collides with another output are left out with a warning;
 * non-public entries are left out whatever the model builder did.
 */
import { sitePathToFilePath } from '../transform/index.js';
import { BUILD_VERSION } from './build-version.js';
import { contentDigestOf, digestOf } from './digest.js';
import {
  ancestorsOf,
  byMenuOrder,
  cardInput,
  dateFormatter,
  languageTable,
  listingJob,
  listingSitePath,
  navEntries,
  notFoundJob,
  pageJob,
  postJob,
  searchJob,
  type JobContext,
} from './job-views.js';
import { pathDigest, xorDigests } from './model-fingerprint.js';
import { addMediaUses, type placeMedia, type Placed } from './placed-entries.js';
import { claimPosts, postCandidates, postSourceOf, type PlacedPosts } from './placed-posts.js';
import { HeldRun, NumberedRun, PlannedJobs } from './planned-jobs.js';
import { OUTPUT_FORMATS, type EditedPosts, type FormatInput } from './output-formats.js';
import type { SearchPlan } from './search-plan.js';
import { placeAround, positiveInteger, type PostsFacts } from './site-placement.js';
import { SITEMAP_MAX_URLS } from './sitemap-xml.js';
import { ASSETS_DIR } from './template-files.js';
import type { Entry, PageEntry, PostEntry, SiteModel } from './site-model.js';
import type { CmsGlobalData, Job, JobKind } from './template-data.js';

// For their importers from before each moved to a module the freshness check can load alone.
export { ASSETS_DIR, BUILD_VERSION };

export interface PlanOptions {
  /** Posts per listing page. @default 10 */
  postsPerPage?: number;
  /** Posts in `feed.xml`. @default 20 */
  feedSize?: number;
  /** URLs per sitemap file before it becomes an index of parts. @default 50,000 (the protocol's limit) */
  sitemapMaxUrls?: number;
  /** Search index bundle size target. @default 1000 */
  searchDocsPerShard?: number;
  /**
   * The most documents a search bundle holds once there are 32 (`shardCount`); tests set it
   * low to get more than 32 bundles from a small site. @default 8000
   */
  searchMaxDocsPerShard?: number;
  /** Build a search index; without one the search page says so. @default true */
  search?: boolean;
  /** Digest of the templates directory; part of every page's digest. @default '' */
  templatesHash?: string;
  /**
   * A site with no more posts than this holds them as first read, for the whole plan and
   * build (`placed-posts.ts`); a larger one reads them again a window at a time.
   * @default 20,000 (`HOLD_ALL_POSTS`)
   */
  heldPosts?: number;
}

export interface PlannedJob {
  kind: JobKind;
  /** Relative to the language root. */
  file: string;
  /** Digest of everything the page shows; computed without building the job. */
  digest: string;
  /** Builds the job for the templates: only called for pages that are rendered. */
  job: () => Job;
}

/** A file the build writes itself. */
export interface PlannedFile {
  file: string;
  /** Digest of the content (or of what it is made from, for media). */
  input: string;
  content: () => string | Uint8Array;
}

export interface SitePlan {
  global: Omit<CmsGlobalData, 'jobs'>;
  siteDigest: string;
  /** Every page, made one at a time as the list is walked (`planned-jobs.ts`). */
  jobs: PlannedJobs;
  files: PlannedFile[];
  search: SearchPlan;
  /** Everything the output depends on, in one digest; empty for a scoped plan (`PlanScope`). */
  modelDigest: string;
  warnings: string[];
}

/**
 * The first half of a plan: where every public entry and media file goes, and the search
 * bundles. A build starts indexing them while it plans the rest (`planPlaced`).
 */
export interface PlacedSite {
  readonly search: SearchPlan;
  /** Entries left out so far, and why. */
  readonly warnings: readonly string[];
  readonly model: SiteModel;
  readonly options: PlanOptions;
  /** Public posts newest first: a few columns, the rest read again when needed. */
  readonly posts: PlacedPosts;
  readonly pages: Placed<PageEntry>[];
  readonly media: ReturnType<typeof placeMedia>;
  /** What placing the posts found besides them, for the record of this placement. */
  readonly facts: PostsFacts;
}

/** A plan with its pages held as a list (small sites, tests): `planPlaced` walks them instead. */
export type HeldPlan = Omit<SitePlan, 'jobs'> & { jobs: PlannedJob[] };

export function planSite(model: SiteModel, options: PlanOptions = {}): HeldPlan {
  const plan = planPlaced(placeSite(model, options));
  return { ...plan, jobs: [...plan.jobs] };
}

export function placeSite(model: SiteModel, options: PlanOptions = {}): PlacedSite {
  // Public entries with a safe, canonical path: the posts in one pass over the model's.
  const source = postSourceOf(model);
  const candidateWarnings: string[] = [];
  const uses = new Map<number, string[]>();
  const found = postCandidates(
    source,
    candidateWarnings,
    (post, place) => {
      const own = new Set<string>();
      addMediaUses(own, post);
      if (own.size > 0) uses.set(place, [...own]);
    },
    options.heldPosts,
  );
  return placeAround(model, options, {
    candidates: found.ids.length,
    candidateWarnings,
    uses,
    claim: (claims, warnings) => claimPosts(source, found, claims, warnings),
  });
}

/**
 * Which pages a plan holds, when not every one (`edit-plan.ts`): the listing pages by number,
 * the posts by their index among the placed posts (newest first), the pages by id. The 404
 * and search pages are always planned.
 */
export interface PlanScope {
  listing(number: number): boolean;
  post(index: number): boolean;
  page(id: number): boolean;
  /** The posts edited in place and the last build's files to patch (`output-formats.ts`). */
  edited?: EditedPosts | undefined;
}

/** The rest of the plan: every page to render (or those `only` names) and every file to write. */
export function planPlaced(placed: PlacedSite, only?: PlanScope): SitePlan {
  const { model, options, search, media } = placed;
  const postsPerPage = positiveInteger(options.postsPerPage, 10);
  const feedSize = positiveInteger(options.feedSize, 20);
  const publicUrl = model.site.publicUrl;
  const global: Omit<CmsGlobalData, 'jobs'> = {
    lang: model.lang,
    locale: model.locale,
    site: { name: model.site.name, description: model.site.description, publicUrl },
  };
  const nav = navEntries(placed.pages);
  // Whatever every page shows: a change here renders every page again.
  const siteDigest = digestOf(BUILD_VERSION, options.templatesHash ?? '', {
    postsPerPage,
    feedSize,
    global,
    languages: model.languages,
    identity: model.identity,
    nav,
  });
  const context: JobContext = {
    model,
    publicUrl,
    dateFormat: dateFormatter(model.locale),
    nav,
    languages: languageTable(model),
  };
  const jobs = planJobs(placed, context, siteDigest, postsPerPage, only);
  const files: PlannedFile[] = [];
  const sitemapMaxUrls = positiveInteger(options.sitemapMaxUrls, SITEMAP_MAX_URLS);
  const { posts, pages } = placed;
  const input: FormatInput = {
    model,
    context,
    posts,
    pages,
    feedSize,
    sitemapMaxUrls,
    edited: only?.edited,
  };
  for (const format of OUTPUT_FORMATS) {
    // A scoped plan (an edit's) writes what it makes: made twice, the sitemap was a third of
    // an edit's planning at 10,000 posts. A full plan lets it go until it is written.
    const made = only ? new Map(format.files(input)) : format.files(input);
    const again = madeAgain(
      () => format.files(input),
      only ? (made as Map<string, string | Uint8Array>) : undefined,
    );
    for (const [file, content] of made)
      files.push({ file, input: contentDigestOf(content), content: () => again(file) });
  }
  for (const item of media) {
    files.push({ file: item.file, input: item.media.sha256, content: () => item.media.read() });
  }
  // Updatable in place by a build that replans a few outputs (`model-fingerprint.ts`). Every
  // page's digest holds `siteDigest` and its path. A scoped plan has none: its build updates
  // the last one (and every search bundle's digest would be made only for this).
  const modelDigest = only
    ? ''
    : xorDigests([
        xorDigests(jobs.digests()),
        ...files.map((file) => pathDigest(file.file, file.input)),
        ...search.shards.map((shard) => pathDigest(shard.dir, shard.digest)),
      ]);
  return { global, siteDigest, jobs, files, search, modelDigest, warnings: [...placed.warnings] };
}

/**
 * Every page the theme renders, each with a digest that lists what the page shows, so that no
 * job has to be built to know it changed.
 */
function planJobs(
  placed: PlacedSite,
  context: JobContext,
  siteDigest: string,
  postsPerPage: number,
  only?: PlanScope,
): PlannedJobs {
  const held = new HeldRun();
  const addJob = (
    kind: JobKind,
    sitePath: string,
    inputs: unknown[],
    job: () => Job,
    file = sitePathToFilePath(sitePath),
  ): void => {
    held.push({ kind, file, digest: digestOf(siteDigest, kind, sitePath, inputs), job });
  };
  const linkInput = (entry: Placed<Entry> | undefined): unknown =>
    entry ? [entry.entry.title, entry.sitePath] : null;
  const posts = placed.posts;
  // Listings: sticky posts first, then by date; each reads its posts again when rendered.
  const listed = posts.listed();
  const shownAt = (indexes: Uint32Array): Placed<PostEntry>[] =>
    Array.from(indexes, (index) => posts.at(index) as Placed<PostEntry>);
  const totalPages = Math.max(1, Math.ceil(listed.length / postsPerPage));
  const indexesOf = (number: number): Uint32Array =>
    listed.subarray((number - 1) * postsPerPage, number * postsPerPage);
  // Each listing's and each post's job is made again from its number when the list is walked.
  const listings = new NumberedRun(totalPages, (number, digest) => ({
    kind: 'listing',
    file: sitePathToFilePath(listingSitePath(number)),
    digest,
    job: () => listingJob(context, shownAt(indexesOf(number)), number, totalPages),
  }));
  for (let number = 1; number <= totalPages; number++) {
    if (only && !only.listing(number)) continue;
    const inputs = [totalPages, shownAt(indexesOf(number)).map(cardInput)];
    listings.push(number, digestOf(siteDigest, 'listing', listingSitePath(number), inputs));
  }
  const postPages = new NumberedRun(
    posts.length,
    (index, digest) => new PostPlan(posts.file(index), digest, context, posts, index),
  );
  for (let index = 0; index < posts.length; index++) {
    if (only && !only.post(index)) continue;
    const post = posts.at(index) as Placed<PostEntry>;
    const inputs = [post.digest, linkInput(posts.at(index + 1)), linkInput(posts.at(index - 1))];
    postPages.push(index, digestOf(siteDigest, 'post', post.sitePath, inputs));
  }
  for (const { page, ancestors, children } of pageFamilies(placed.pages)) {
    if (only && !only.page(page.entry.id)) continue;
    addJob(
      'page',
      page.sitePath,
      [page.digest, ancestors.map(linkInput), children.map(linkInput)],
      () => pageJob(context, page, ancestors, children),
      page.file,
    );
  }
  const homePathname = new URL(context.publicUrl).pathname;
  addJob('notFound', '/404.html', [homePathname], () => notFoundJob(context, homePathname));
  const bundles = placed.search.shards.map((shard) => shard.dir);
  addJob('search', '/search/', bundles, () => searchJob(context, placed.search));
  return new PlannedJobs([listings, postPages, held]);
}

/**
 * A post's page in the plan: its job is made from the post and its neighbours when it is
 * rendered. A method of the prototype, not a closure of each post's own (~100 bytes a post).
 */
class PostPlan implements PlannedJob {
  readonly kind = 'post';
  readonly file: string;
  readonly digest: string;
  readonly #context: JobContext;
  readonly #posts: PlacedPosts;
  readonly #index: number;

  constructor(
    file: string,
    digest: string,
    context: JobContext,
    posts: PlacedPosts,
    index: number,
  ) {
    this.file = file;
    this.digest = digest;
    this.#context = context;
    this.#posts = posts;
    this.#index = index;
  }

  job(): Job {
    const posts = this.#posts;
    const index = this.#index;
    return postJob(
      this.#context,
      posts.at(index) as Placed<PostEntry>,
      posts.at(index + 1),
      posts.at(index - 1),
    );
  }
}

/** Each page with its ancestors and its children in menu order. */
function pageFamilies(pages: readonly Placed<PageEntry>[]) {
  const pagesById = new Map(pages.map((page) => [page.entry.id, page]));
  const childrenOf = new Map<number, Placed<PageEntry>[]>();
  for (const page of pages) {
    const siblings = childrenOf.get(page.entry.parentId) ?? [];
    siblings.push(page);
    childrenOf.set(page.entry.parentId, siblings);
  }
  return pages.map((page) => ({
    page,
    ancestors: ancestorsOf(page, pagesById),
    children: (childrenOf.get(page.entry.id) ?? [])
      .filter((child) => child !== page)
      .sort(byMenuOrder),
  }));
}

/**
 * A format's files made again when one is to be written: held from the plan to the write, a
 * sitemap would cost ~0.2 KB a post for the whole build. The files are asked for in the order
 * they were planned, so one walk of `make` serves them all, each made and let go in turn (a
 * file asked for out of order starts the walk again). A scoped plan passes the files it
 * already made (`held`): they are handed out as they are.
 */
function madeAgain(
  make: () => Iterable<[string, string | Uint8Array]>,
  held?: ReadonlyMap<string, string | Uint8Array>,
): (file: string) => string | Uint8Array {
  let pending: Iterator<[string, string | Uint8Array]> | undefined;
  return (file) => {
    const kept = held?.get(file);
    if (kept !== undefined) return kept;
    for (let restarted = false; ;) {
      pending ??= make()[Symbol.iterator]();
      const next = pending.next();
      if (next.done === true) {
        pending = undefined;
        if (restarted) throw new Error(`Internal error: ${file} is not made again.`);
        restarted = true;
        continue;
      }
      if (next.value[0] === file) return next.value[1];
    }
  };
}
