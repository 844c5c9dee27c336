/**
 * The data one language's static site is built from. The build never reads the cache itself:
 * a model builder fills this from the store (or a test fills it by hand), so the build stays a
 * function of its input and can be tested without SQLite.
 *
 * Site paths follow `src/transform/site-paths.ts`: absolute within the language's site, pages
 * end with `/` (`/2024/03/my-post/`), files do not (`/media/3fa9c1d2-photo.png`).
 */

/** One language of the site, for the language switcher and `hreflang` alternates. */
export interface SiteLanguage {
  /** `pl`, `es`: the language segment. */
  lang: string;
  /** What the switcher shows: `Polski`, `Español`. */
  label: string;
  /**
   * The home of that language relative to THIS language's home (`../es/`; `./` for itself).
   * The static sites of all languages are siblings, so this works under any prefix.
   */
  homePath: string;
  /** BCP 47 code for `hreflang` (`es-ES`); the `lang` is used when absent. */
  hreflang?: string;
}

/** Who the site represents, from the `seo/v1` site representation; becomes JSON-LD. */
export interface SiteIdentity {
  kind: 'Organization' | 'Person';
  name: string;
  /** Absolute URL of the organisation or person (usually the site). */
  url: string;
  /** Absolute URL, or a site path of a local copy (`/media/...`). */
  logo?: string;
  /** Social profile URLs. */
  sameAs: string[];
}

export interface FeaturedImage {
  sitePath: string;
  width?: number;
  height?: number;
  alt: string;
}

/** What posts and pages share. Text fields are plain text; `html` fields are HTML. */
export interface Entry {
  id: number;
  /** Where the item lives in the static site: its remote path under the language home. */
  sitePath: string;
  /** Plain text (entities decoded); templates escape it. */
  title: string;
  /** Transformed content: links and media already relative to `sitePath`. */
  html: string;
  /** Transformed excerpt, relative to `sitePath` too; listings show it as plain text. */
  excerptHtml: string;
  /** GMT, to the second, without offset (`2024-03-14T02:00:00`), as the remote sends it. */
  dateGmt: string;
  modifiedGmt: string;
  /** Only `publish` reaches the output; anything else is dropped by the build as well. */
  status: string;
  /** Password-protected: never reaches the output. */
  protected: boolean;
  /** The same item in other languages. */
  alternates: { lang: string; sitePath: string }[];
  featuredImage?: FeaturedImage;
  /** A digest of the item as the model builder saw it; part of the build's own input digest. */
  contentHash: string;
  /**
   * `htmlDigestOf(html)` (src/transform/html-facts.ts), when the model builder knows it without
   * reading the HTML. @default computed from `html`
   */
  htmlDigest?: string;
  /**
   * Canonical site paths of the local files `html` references, resolved against `sitePath`,
   * when the model builder knows them. @default found in `html`
   */
  htmlMedia?: readonly string[];
}

export interface PostEntry extends Entry {
  sticky: boolean;
}

export interface PageEntry extends Entry {
  /** 0 for a top-level page. */
  parentId: number;
  menuOrder: number;
}

/** A media file to copy to the output, content-addressed. */
export interface MediaFile {
  /** `/media/<hash>-<name>.png` */
  sitePath: string;
  /** sha256 (hex) of the bytes; decides whether the file must be written again. */
  sha256: string;
  /** Where it came from (remote URL, media item), for warnings. @default the site path */
  source?: string;
  /** Called only when the file has to be written. */
  read(): Buffer;
}

export interface SiteModel {
  /** `pl` */
  lang: string;
  /** `pl-PL`: `<html lang>`, dates, `og:locale`. */
  locale: string;
  site: {
    name: string;
    description: string;
    /**
     * Absolute URL, ending with `/`, of this language's home where the static site is served
     * (by default the remote home, as the static site replaces it). Feed, sitemap, canonical
     * links and JSON-LD use it; every link between pages stays relative.
     */
    publicUrl: string;
  };
  /** All languages of the site, this one included. */
  languages: SiteLanguage[];
  identity: SiteIdentity | null;
  /** Only public items, newest first; the build checks both again. */
  posts: PostEntry[];
  /**
   * The posts read again from the cache a window at a time, instead of `posts` (then empty),
   * so that a build of a large site does not hold every post (`modelFromStore`'s
   * `streamPosts`). @default the `posts` array
   */
  postSource?: PostSource;
  pages: PageEntry[];
  media: MediaFile[];
}

/**
 * The posts of a model newest first, read again a window at a time whenever the build needs
 * them (placing, planning, rendering), so that what it holds per post is a few columns.
 */
export interface PostSource {
  /** Places in the order (items left out on reading among them). */
  readonly size: number;
  /**
   * The posts at the places `start` to `end` (excluded), each at its place; undefined for an
   * item left out. Each call makes the entries anew.
   */
  read(start: number, end: number): (PostEntry | undefined)[];
  /** The posts at these places, in the order given (as `read`). */
  readAt(places: ArrayLike<number>): (PostEntry | undefined)[];
  /**
   * The id of the item at a place, without reading it (undefined past the end): whether a
   * recorded placement still fits the order (`stored-placement.ts`).
   */
  idAt(place: number): number | undefined;
}

/**
 * What the pull changed for this language since the last build. When it says nothing
 * changed, and the templates did not change either, the build is skipped without looking at
 * the model.
 */
export interface ChangeSet {
  /**
   * Items (posts, pages, media) of this language created, updated or removed by the pull,
   * plus those whose transformed HTML changed (a new transform version re-transforms items
   * the pull did not touch).
   */
  items: number;
  /** The site's name, description, identity or languages changed. */
  site: boolean;
}

/** Public-only rule, enforced by the build too: a model builder bug must not publish drafts. */
export function isPublicEntry(entry: Pick<Entry, 'status' | 'protected'>): boolean {
  return entry.status === 'publish' && entry.protected === false;
}
