/**
 * The one gate between a site path (built from remote data: slugs, links, media names) and a
 * file under `output/{lang}/`. Whatever the path holds — `..`, `%2e%2e`, `%2F`, backslashes,
 * absolute paths, NUL, very long or non-Latin names — the file is inside the root or the call
 * throws `UnsafePathError` (`E_UNSAFE_PATH`), which the build turns into a skipped item with a
 * warning.
 *
 * File names follow `src/transform/site-paths.ts` (segments decoded, `/`, `\` and control
 * characters kept percent-encoded) so links written by the transform find these files.
 * Pure: `node:path` only, no file system access.
 */
import path from 'node:path';
import { UnsafePathError } from '../errors.js';
import {
  decodeSegment,
  isPlainSitePath,
  normalizeSitePath,
  sitePathToFilePath,
} from '../transform/index.js';

// eslint-disable-next-line no-control-regex -- finding control characters is the point
const UNSERVABLE = /[/\\\u0000-\u001F\u007F]/;

/** More segments than any real permalink has; deeper paths are refused. */
export const MAX_SITE_PATH_SEGMENTS = 32;
/** Leaves room for the root under the usual 4096-byte PATH_MAX. */
export const MAX_FILE_PATH_BYTES = 2048;

/**
 * Checks a site path and returns its canonical form (`normalizeSitePath`), the form every
 * link the build writes uses.
 *
 * @throws {UnsafePathError} when the path does not start with `/`, has a dot segment (plain
 *   or percent-encoded: a real permalink never has one, so it is treated as an attack rather
 *   than resolved onto another page), an encoded `/` or `\` or a control character in a
 *   segment, too many segments, or a segment no file can be named.
 */
export function checkedSitePath(sitePath: string): string {
  return checkSitePath(sitePath).sitePath;
}

/**
 * `checkedSitePath` and `siteFilePath` in one pass: the canonical site path and its file.
 *
 * @throws {UnsafePathError} as `checkedSitePath`.
 */
export function checkSitePath(sitePath: string): { sitePath: string; file: string } {
  if (typeof sitePath !== 'string' || !sitePath.startsWith('/')) {
    throw unsafe(sitePath, 'does not start with "/"');
  }
  // A plain path has no dot segment, nothing encoded and no segment too long for a name.
  if (sitePath.length <= 255 && isPlainSitePath(sitePath) && !tooDeep(sitePath)) {
    return { sitePath, file: sitePathToFilePath(sitePath) };
  }
  const segments = sitePath.split('/').slice(1);
  if (tooDeep(sitePath)) {
    throw unsafe(sitePath, `has more than ${MAX_SITE_PATH_SEGMENTS} segments`);
  }
  for (const segment of segments) {
    const decoded = decodeSegment(segment);
    if (decoded === '.' || decoded === '..') throw unsafe(sitePath, 'has a dot segment');
    // A file name would have to keep these percent-encoded, and a server decodes the request
    // path before looking for the file: no URL could reach it.
    if (UNSERVABLE.test(decoded))
      throw unsafe(sitePath, 'has an encoded separator or control character');
  }
  // Throws for a segment longer than a file name may be.
  const file = sitePathToFilePath(sitePath);
  if (Buffer.byteLength(file, 'utf8') > MAX_FILE_PATH_BYTES) {
    throw unsafe(sitePath, `is longer than ${MAX_FILE_PATH_BYTES} bytes as a file path`);
  }
  return { sitePath: normalizeSitePath(sitePath), file };
}

function tooDeep(sitePath: string): boolean {
  let slashes = 0;
  for (let index = 0; index < sitePath.length; index++) if (sitePath[index] === '/') slashes++;
  return slashes > MAX_SITE_PATH_SEGMENTS + 1;
}

/**
 * The file, relative to the language root with forward slashes, that holds a site path:
 * `/2024/03/my-post/` → `2024/03/my-post/index.html`, `/feed.xml` → `feed.xml`.
 *
 * @throws {UnsafePathError} as `checkedSitePath`.
 */
export function siteFilePath(sitePath: string): string {
  return checkSitePath(sitePath).file;
}

/**
 * The absolute file path for a site path under `root` (`output/{lang}`), resolved and
 * verified to be strictly inside `root`.
 *
 * @throws {UnsafePathError} when the site path is unsafe or the result would leave `root`.
 */
export function safeOutputPath(root: string, sitePath: string): string {
  return containedPath(root, siteFilePath(sitePath), sitePath);
}

/**
 * Resolves a relative file path (from a manifest, a template engine or the search indexer)
 * under `root` and verifies it stays strictly inside. Used for every write and every delete.
 *
 * @throws {UnsafePathError} when `relativeFile` is absolute, has dot segments, NUL, or
 *   resolves outside `root`.
 */
export function safeRelativeFile(root: string, relativeFile: string): string {
  if (typeof relativeFile !== 'string' || relativeFile === '' || relativeFile.includes('\0')) {
    throw unsafe(String(relativeFile), 'is empty or holds NUL');
  }
  const parts = relativeFile.split(/[/\\]/);
  if (
    path.isAbsolute(relativeFile) ||
    parts.some((part) => part === '..' || part === '.' || part === '')
  ) {
    throw unsafe(relativeFile, 'is not a plain relative file path');
  }
  return containedPath(root, relativeFile, relativeFile);
}

function containedPath(root: string, relativeFile: string, shown: string): string {
  const base = path.resolve(root);
  const target = path.resolve(base, ...relativeFile.split('/'));
  const relative = path.relative(base, target);
  if (
    relative === '' ||
    relative === '..' ||
    relative.startsWith(`..${path.sep}`) ||
    path.isAbsolute(relative)
  ) {
    throw unsafe(shown, `resolves outside ${base}`);
  }
  return target;
}

function unsafe(sitePath: string, reason: string): UnsafePathError {
  const shown = sitePath.length > 120 ? `${sitePath.slice(0, 120)}…` : sitePath;
  return new UnsafePathError(
    sitePath,
    `The path ${JSON.stringify(shown)} ${reason}; it is not written.`,
  );
}
