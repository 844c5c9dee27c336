/**
 * The data contract between the build and a theme (`templates/` or the user's `--templates`).
 * Eleventy gets one global, `cms` (`CmsGlobalData`); a theme's page templates paginate over
 * `cms.jobs.post`, `cms.jobs.page`, `cms.jobs.listing`, `cms.jobs.notFound` and
 * `cms.jobs.search` with `size: 1`, `alias: job` and `permalink: "{{ job.permalink }}"`.
 *
 * Every href in a job is already relative to the page it is written to, so a theme never
 * computes a URL (the `relUrl` filter is there for custom needs). Text is plain text for the
 * theme to escape; fields named `html` or `jsonLd` are ready to print unescaped.
 */

export interface LinkView {
  title: string;
  href: string;
}

export interface ImageView {
  /** Relative to the page. */
  src: string;
  width?: number;
  height?: number;
  alt: string;
}

/** An item shown on its own page. */
export interface ItemView {
  id: number;
  title: string;
  /** Transformed content, relative to this page: print it unescaped. */
  html: string;
  /** RFC 3339 (`2024-03-14T02:00:00Z`) for `<time datetime>`. */
  dateIso: string;
  /** Formatted for the site's locale. */
  dateDisplay: string;
  modifiedIso: string;
  featuredImage?: ImageView;
}

/** A post in a listing. */
export interface CardView {
  title: string;
  href: string;
  dateIso: string;
  dateDisplay: string;
  /** Plain text. */
  excerpt: string;
  sticky: boolean;
  image?: ImageView;
}

export interface SwitcherLink {
  lang: string;
  label: string;
  /** BCP 47, for `hreflang` and `lang` attributes. */
  hreflang: string;
  href: string;
  /** The language of this page. */
  current: boolean;
  /** The link goes to the same item in that language (not just to its home). */
  counterpart: boolean;
}

export interface NavLink extends LinkView {
  current: boolean;
}

/** What every page template gets as `job`. */
export interface JobBase {
  /** Opaque: the build maps it to the real file. Use it as the template's `permalink`. */
  permalink: string;
  /** Canonical site path of this page (`/2024/03/my-post/`, `/404.html`). */
  sitePath: string;
  /** Relative URL of the language home from this page (`../../`, or `./`). */
  root: string;
  /** Title of what the page shows; empty for the home. Themes add the site name. */
  title: string;
  /** Plain text for `<meta name="description">`. */
  description: string;
  /** Absolute URL of this page, from `publicUrl`. */
  canonical: string;
  /** Absolute URLs of every language version, this one included; empty when there is none. */
  alternates: { hreflang: string; href: string }[];
  switcher: SwitcherLink[];
  nav: NavLink[];
  /** JSON-LD, escaped for a `<script type="application/ld+json">` element. */
  jsonLd: string;
  /** `noindex` for pages search engines should not list; empty otherwise. */
  robots: string;
  /**
   * For `<base href>`: the absolute path of the language home. Only the 404 page has one, as
   * a server shows it for missing URLs at any depth; its links are written from the root.
   */
  baseHref: string;
}

export interface PostJob extends JobBase {
  kind: 'post';
  post: ItemView;
  /** The next older post. */
  older?: LinkView;
  /** The next newer post. */
  newer?: LinkView;
}

export interface PageJob extends JobBase {
  kind: 'page';
  page: ItemView;
  /** Ancestors, outermost first. */
  breadcrumbs: LinkView[];
  children: LinkView[];
}

export interface ListingJob extends JobBase {
  kind: 'listing';
  /** 1-based. */
  pageNumber: number;
  totalPages: number;
  posts: CardView[];
  newer?: LinkView;
  older?: LinkView;
}

export interface NotFoundJob extends JobBase {
  kind: 'notFound';
}

export interface SearchJob extends JobBase {
  kind: 'search';
  /** Search bundle directories relative to this page; the first holds the UI. Empty: no index. */
  bundles: string[];
}

export type Job = PostJob | PageJob | ListingJob | NotFoundJob | SearchJob;
export type JobKind = Job['kind'];

export const JOB_KINDS: readonly JobKind[] = ['post', 'page', 'listing', 'notFound', 'search'];

/** The `cms` global. */
export interface CmsGlobalData {
  lang: string;
  locale: string;
  site: { name: string; description: string; publicUrl: string };
  /**
   * Jobs to render in this Eleventy run, by kind: only pages whose input changed, and at most
   * `RENDER_CHUNK` of them (a build renders in several runs).
   */
  jobs: Record<JobKind, Job[]>;
}
