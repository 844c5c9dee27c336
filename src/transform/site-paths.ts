/**
 * Site paths: where a page or a file lives inside one language's static site (`output/{lang}/`).
 *
 * A site path is URL-shaped and absolute within the site: pages end with `/`
 * (`/2024/03/my-post/`), files do not (`/media/3fa9c1d2-photo.png`). Its canonical form has
 * every segment percent-encoded exactly as `encodeURIComponent` does after decoding what the
 * remote sent, so two spellings of one path (`/zażółć/`, `/za%c5%bc%c3%b3%c5%82%c4%87/`)
 * compare equal, and the file for it is named with the decoded segment (see
 * `sitePathToFilePath`): a static server decodes the request path the same way.
 *
 * All functions here are pure and never throw except `sitePathToFilePath`, whose job is to
 * refuse a name no file system can hold.
 */
import { UnsafePathError } from '../errors.js';

const PERCENT_RUN = /(?:%[0-9A-Fa-f]{2})+/g;
const PERCENT_ESCAPE = /%[0-9A-Fa-f]{2}/g;
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** A segment `encodeURIComponent` would return unchanged (the common case: ASCII slugs). */
const UNRESERVED = /^[A-Za-z0-9\-_.!~*'()]*$/;
/** Characters a decoded segment may not carry into a file name: they stay percent-encoded. */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it must find
const UNSAFE_IN_FILE_NAME = /[/\\\u0000-\u001F\u007F]/g;
/** Most file systems limit one name to 255 bytes. */
const MAX_FILE_NAME_BYTES = 255;
/**
 * A path every function here leaves as it is: `/`-separated ASCII slug segments that start
 * with a letter, digit, `-`, `_` or `~` (so no dot or empty segment), optionally ending in `/`.
 * Nearly every permalink looks like this; checking it first spares the general decoding,
 * which a plan of ten thousand pages would otherwise run several times per page.
 */
const PLAIN_PATH = /^(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/?$/;
/** A language home whose URL the URL parser keeps as written, host and path. */
const PLAIN_HOME = /^https?:\/\/[A-Za-z0-9.-]+(?::\d+)?(?:\/[A-Za-z0-9_~-][A-Za-z0-9._~-]*)*\/$/;

/** Whether `normalizeSitePath` returns `path` unchanged without decoding it. */
export function isPlainSitePath(path: string): boolean {
  return path.startsWith('/') && PLAIN_PATH.test(path);
}

/**
 * Decodes the valid UTF-8 percent-escapes of one path segment. A malformed escape is left as
 * it is, so it is re-encoded as a literal `%` (`%25`) and the file name keeps it verbatim.
 */
export function decodeSegment(segment: string): string {
  if (!segment.includes('%')) return segment;
  return segment.replace(PERCENT_RUN, decodeRun);
}

function decodeRun(run: string): string {
  try {
    return decodeURIComponent(run);
  } catch {
    // Decode the longest valid UTF-8 sequences (1–4 bytes) and keep the rest literal.
    const escapes = run.match(PERCENT_ESCAPE) ?? [];
    let out = '';
    let index = 0;
    while (index < escapes.length) {
      let decoded = false;
      for (let size = Math.min(4, escapes.length - index); size >= 1; size--) {
        try {
          out += decodeURIComponent(escapes.slice(index, index + size).join(''));
          index += size;
          decoded = true;
          break;
        } catch {
          // try a shorter sequence
        }
      }
      if (!decoded) {
        out += escapes[index] ?? '';
        index += 1;
      }
    }
    return out;
  }
}

/** Percent-encodes one decoded segment; a lone surrogate (invalid UTF-16) becomes U+FFFD. */
export function encodeSegment(segment: string): string {
  if (UNRESERVED.test(segment)) return segment;
  return encodeURIComponent(segment.replace(LONE_SURROGATE, '\uFFFD'));
}

/** Decoded segments of a path with `.`, `..` and empty segments resolved away. */
function resolveSegments(path: string): { segments: string[]; directory: boolean } {
  const raw = path.split('/');
  const segments: string[] = [];
  let directory = false;
  for (let index = 0; index < raw.length; index++) {
    const decoded = decodeSegment(raw[index] ?? '');
    const last = index === raw.length - 1;
    // A URL parser reads `%2e%2e` as `..` too, so decoded dots are dot segments here as well.
    if (decoded === '..') {
      segments.pop();
      if (last) directory = true;
    } else if (decoded === '.' || decoded === '') {
      if (last) directory = true;
    } else {
      segments.push(decoded);
      if (last) directory = false;
    }
  }
  return { segments, directory: directory || segments.length === 0 };
}

/**
 * The canonical form of a site path: leading `/`, dot and empty segments resolved (never
 * above the root), each segment percent-encoded as `encodeSegment` does, and a trailing `/`
 * kept for pages. A path without a leading `/` is read from the root.
 */
export function normalizeSitePath(path: string): string {
  if (isPlainSitePath(path)) return path;
  const { segments, directory } = resolveSegments(path);
  if (segments.length === 0) return '/';
  return `/${segments.map(encodeSegment).join('/')}${directory ? '/' : ''}`;
}

/**
 * The relative URL from the page at `from` to the page or file at `to`, both site paths.
 * Relative output keeps a language's static site movable under any prefix:
 * `/2024/03/my-post/` → `/about/team/` gives `../../../about/team/`; the same page gives `./`.
 * The result never starts with a scheme or `//` (segments are encoded, `:` included).
 */
export function relativeSitePath(from: string, to: string): string {
  const source = resolveSegments(from);
  const target = resolveSegments(to);
  // The directory a relative URL is resolved against: a page is its own directory.
  const fromDirectory = source.directory ? source.segments : source.segments.slice(0, -1);
  const toDirectory = target.directory ? target.segments : target.segments.slice(0, -1);
  const leaf = target.directory ? '' : (target.segments[target.segments.length - 1] ?? '');

  let common = 0;
  while (
    common < fromDirectory.length &&
    common < toDirectory.length &&
    fromDirectory[common] === toDirectory[common]
  ) {
    common += 1;
  }

  const up = '../'.repeat(fromDirectory.length - common);
  const down = toDirectory
    .slice(common)
    .map((segment) => `${encodeSegment(segment)}/`)
    .join('');
  const relative = `${up}${down}${leaf === '' ? '' : encodeSegment(leaf)}`;
  return relative === '' ? './' : relative;
}

/**
 * The site path of a remote URL under a language home (`http://host/pl/2024/03/x/` under
 * `http://host/pl/` → `/2024/03/x/`), or `undefined` when the URL is not under the home, is
 * not http(s), cannot be parsed, or carries a query (a query-addressed page such as `?p=12`
 * has no path of its own: the caller must give it one). The scheme is not compared, so an
 * old `http:` link to an `https:` site still maps.
 */
export function sitePathForUrl(url: string, homeUrl: string): string | undefined {
  // Under a plainly written home, a plainly written rest parses to itself.
  if (url.startsWith(homeUrl) && PLAIN_HOME.test(homeUrl)) {
    const path = `/${url.slice(homeUrl.length)}`;
    if (isPlainSitePath(path)) return path;
  }
  let target: URL;
  let home: URL;
  try {
    target = new URL(url);
    home = new URL(homeUrl);
  } catch {
    return undefined;
  }
  if (!isHttp(target) || !isHttp(home) || target.host !== home.host || target.search !== '') {
    return undefined;
  }
  const homePath = normalizeSitePath(
    home.pathname.endsWith('/') ? home.pathname : `${home.pathname}/`,
  );
  const path = normalizeSitePath(target.pathname);
  if (path === homePath || `${path}/` === homePath) return '/';
  if (!path.startsWith(homePath)) return undefined;
  return `/${path.slice(homePath.length)}`;
}

function isHttp(url: URL): boolean {
  return url.protocol === 'http:' || url.protocol === 'https:';
}

/**
 * The file, relative to `output/{lang}/`, that holds a site path: a page's `index.html`
 * (`/2024/03/my-post/` → `2024/03/my-post/index.html`), a file as itself. Segments are
 * decoded (a static server decodes request paths before looking for files); `/`, `\` and
 * control characters stay percent-encoded so a segment is always one file name. Never leaves
 * the site: dot segments cannot survive normalization.
 *
 * @throws {UnsafePathError} `E_UNSAFE_PATH` when a segment is longer than a file name may be.
 */
export function sitePathToFilePath(sitePath: string): string {
  if (sitePath.length <= MAX_FILE_NAME_BYTES && isPlainSitePath(sitePath)) {
    return sitePath.endsWith('/') ? `${sitePath.slice(1)}index.html` : sitePath.slice(1);
  }
  const { segments, directory } = resolveSegments(sitePath);
  const names = segments.map((segment) =>
    segment
      .replace(LONE_SURROGATE, '\uFFFD')
      .replace(UNSAFE_IN_FILE_NAME, (character) => encodeURIComponent(character)),
  );
  for (const name of names) {
    if (Buffer.byteLength(name, 'utf8') > MAX_FILE_NAME_BYTES) {
      throw new UnsafePathError(
        sitePath,
        `The site path ${sitePath.slice(0, 80)}… has a segment longer than ${MAX_FILE_NAME_BYTES} bytes, which no file can be named.`,
      );
    }
  }
  if (directory) names.push('index.html');
  return names.join('/');
}
