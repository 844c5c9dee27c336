/**
 * Where each mirrored item lives in the static site. An item keeps its remote URL path
 * (links and search rankings survive the move) unless that path cannot be a file, is taken by
 * another item, or is reserved for the site's own files; then it gets `/{type}/{id}/`, which
 * is always safe. Pure: the transform and the build both call it, so they agree.
 */
import { ITEM_TYPES } from '../collections.js';
import { UnsafePathError } from '../errors.js';
import { MEDIA_FOLDER } from './media-site-paths.js';
import {
  decodeSegment,
  normalizeSitePath,
  sitePathForUrl,
  sitePathToFilePath,
} from './site-paths.js';

export interface PathCandidate {
  readonly type: string;
  readonly id: number;
  readonly link: string | null;
}

/**
 * First segments the build writes itself (media copies, the search index, feeds...). An item
 * whose remote path starts with one of them would overwrite or be overwritten.
 */
export const RESERVED_FIRST_SEGMENTS: ReadonlySet<string> = new Set([
  MEDIA_FOLDER.slice(1, -1),
  'page',
  'pagefind',
  'assets',
  'feed.xml',
  'sitemap.xml',
  'robots.txt',
  '404.html',
  'index.html',
  'search',
]);

export function fallbackSitePath(type: string, id: number): string {
  return `/${encodeURIComponent(type)}/${id}/`;
}

/**
 * Site paths for every candidate, keyed `${type}:${id}`. Earlier candidates win a contested
 * path, so pass the ones whose URLs matter most (published pages and posts) first.
 */
export function assignSitePaths(
  candidates: Iterable<PathCandidate>,
  homeUrl: string,
  /** Told of every item moved to `/{type}/{id}/` (for a warning). @default none */
  onFallback?: (candidate: PathCandidate) => void,
): Map<string, string> {
  const assigned = new Map<string, string>();
  // Compared as Windows and macOS file systems compare names: case-folded, NFC.
  const taken = new Set<string>(['/']);
  const deferred: PathCandidate[] = [];
  for (const candidate of candidates) {
    const path = candidate.link ? usablePath(candidate.link, homeUrl) : undefined;
    if (path !== undefined && !taken.has(foldedPath(path))) {
      taken.add(foldedPath(path));
      assigned.set(itemKey(candidate.type, candidate.id), path);
    } else {
      deferred.push(candidate);
    }
  }
  // Fallbacks last, so a fallback never steals a path a later item owns by its URL.
  for (const candidate of deferred) {
    const path = fallbackSitePath(candidate.type, candidate.id);
    taken.add(foldedPath(path));
    onFallback?.(candidate);
    assigned.set(itemKey(candidate.type, candidate.id), path);
  }
  return assigned;
}

export function itemKey(type: string, id: number): string {
  return `${type}:${id}`;
}

// eslint-disable-next-line no-control-regex
const UNSAFE_DECODED = /[/\\\u0000-\u001f\u007f]/;

/** A fallback path (`/{type}/{id}/`) of any collection. */
const FALLBACK_PATH = new RegExp(`^/(?:${ITEM_TYPES.join('|')})/\\d+/$`);

/**
 * The site path an item's link gives it when it is free, or `undefined` when the link cannot
 * be one (not under the home, reserved, a fallback's shape, or no portable file name).
 */
export function usablePath(link: string, homeUrl: string): string | undefined {
  const path = sitePathForUrl(link, homeUrl);
  if (path === undefined || path === '/' || !path.endsWith('/')) return undefined;
  const normalized = normalizeSitePath(path);
  const first = decodeURIComponent(normalized.split('/')[1] ?? '');
  if (RESERVED_FIRST_SEGMENTS.has(first.toLowerCase())) return undefined;
  // Fallback paths (`/posts/12/`) belong to the items they name.
  if (FALLBACK_PATH.test(normalized)) return undefined;
  // A segment that decodes to a separator, a dot segment or a control character would be
  // refused by the build (a static server decodes it into a different path): fall back now.
  const segments = normalized.split('/').filter(Boolean).map(decodeSegment);
  if (
    segments.some(
      (segment) =>
        segment === '.' ||
        segment === '..' ||
        UNSAFE_DECODED.test(segment) ||
        !isPortableName(segment),
    )
  ) {
    return undefined;
  }
  try {
    sitePathToFilePath(normalized);
  } catch (error) {
    if (error instanceof UnsafePathError) return undefined;
    throw error;
  }
  return normalized;
}

/** Names Windows reserves for devices, with or without an extension (`CON`, `com1.txt`). */
const WINDOWS_DEVICE = /^(?:con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(?:\.|$)/i;
/** Characters Windows refuses in a file name. */
const WINDOWS_FORBIDDEN = /[<>:"|?*]/;

/**
 * Whether a decoded segment can be a directory name on Windows, macOS and Linux alike: no
 * device name, no trailing dot or space (Windows drops them, so `a.` and `a` collide), none of
 * `<>:"|?*`. A site built on one system must copy to any other.
 */
function isPortableName(segment: string): boolean {
  return (
    !WINDOWS_DEVICE.test(segment) && !WINDOWS_FORBIDDEN.test(segment) && !/[. ]$/.test(segment)
  );
}

/** A site path as a case-insensitive, normalising file system sees it: two paths folding alike contend. */
export function foldedPath(path: string): string {
  let decoded = path;
  try {
    decoded = decodeURIComponent(path);
  } catch {
    // Left encoded: still compared case-folded.
  }
  return decoded.normalize('NFC').toLowerCase();
}
