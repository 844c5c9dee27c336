/**
 * Which transformed items link to a page that is gone. A transformed item's HTML holds
 * relative links to the pages of the items it mentions; when one of those items is
 * unpublished, trashed, deleted or moved, the item's own source has not changed, so nothing
 * marks it stale — yet its link now points at a file the build deletes. The runner finds such
 * items with these functions and transforms them again (the link then goes to the remote URL,
 * like any link to an item that is not mirrored). Pure.
 */
import { sitePathToFilePath } from './site-paths.js';

/** Any origin works: only the path of the resolved URL is used. */
const PAGE_ORIGIN = 'http://page.invalid';

/** `href` and `src` values in transformed HTML (attribute values are always double-quoted). */
const LINK_ATTRIBUTE = /\s(?:href|src)="([^"]*)"/g;

/**
 * Page files (`2024/03/post/index.html`) of the previous build that the current site paths no
 * longer produce.
 */
export function removedPageFiles(
  previousFiles: Iterable<string>,
  currentSitePaths: Iterable<string>,
): Set<string> {
  const current = new Set<string>();
  for (const sitePath of currentSitePaths) {
    const file = pageFileOf(sitePath);
    if (file !== undefined) current.add(file);
  }
  return removedPages(previousFiles, (file) => current.has(file));
}

/**
 * Page files of the previous build for which `isCurrent` (a page file some current site path
 * produces, `pageFileOf`) is false: the form for a caller that looks the files up in the cache
 * instead of holding a set of every page.
 */
export function removedPages(
  previousFiles: Iterable<string>,
  isCurrent: (file: string) => boolean,
): Set<string> {
  const removed = new Set<string>();
  for (const file of previousFiles) {
    if (file.endsWith('index.html') && !isCurrent(file)) removed.add(file);
  }
  return removed;
}

/**
 * Whether the HTML of the page at `pagePath` has a relative or root-relative link or source
 * into one of `files`.
 */
export function linksIntoFiles(
  html: string,
  pagePath: string,
  files: ReadonlySet<string>,
): boolean {
  if (files.size === 0) return false;
  let base: URL;
  try {
    base = new URL(pagePath, PAGE_ORIGIN);
  } catch {
    return false;
  }
  for (const match of html.matchAll(LINK_ATTRIBUTE)) {
    const value = (match[1] ?? '').replace(/&amp;/g, '&');
    // Absolute URLs (a scheme or `//`) and fragments never point into the static site.
    if (value === '' || value.startsWith('#') || /^[a-z][a-z0-9+.-]*:|^\/\//i.test(value)) continue;
    let target: URL;
    try {
      target = new URL(value, base);
    } catch {
      continue;
    }
    const file = pageFileOf(target.pathname);
    if (file !== undefined && files.has(file)) return true;
  }
  return false;
}

/** Site paths whose file is the path itself: unreserved ASCII segments, no dot segment. */
const PLAIN_PAGE_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/$/;

/** The file holding a site path, or `undefined` when no file can hold it (never written). */
export function pageFileOf(sitePath: string): string | undefined {
  // The common case without the general decoding: this runs for every item on every run.
  if (PLAIN_PAGE_PATH.test(sitePath)) return `${sitePath.slice(1)}index.html`;
  try {
    return sitePathToFilePath(sitePath);
  } catch {
    // A path no file can hold was never written, so nothing can link to it.
    return undefined;
  }
}
