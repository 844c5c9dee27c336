/**
 * Which URLs may appear in an `href`/`src` we emit. Content comes from a remote site and from
 * oEmbed providers we do not control, so a URL whose scheme can run code or smuggle a
 * document (`javascript:`, `vbscript:`, `data:`, `file:`, ...) is never emitted.
 */

/** Schemes a URL in our output may have; a URL without a scheme (relative) is always safe. */
export const SAFE_URL_SCHEMES: readonly string[] = ['http', 'https', 'mailto', 'tel', 'sms', 'ftp'];

const SCHEME = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
// Browsers drop tabs and newlines anywhere in a URL and C0 controls and spaces at its ends;
// dropping all of them everywhere before looking for the scheme is stricter, never laxer.
// eslint-disable-next-line no-control-regex -- control characters are exactly what it must find
const IGNORED_BY_URL_PARSER = /[\u0000-\u0020]/g;

/**
 * The lower-cased scheme of a URL as a browser would read it, or `undefined` for a relative
 * URL (`/a`, `a/b`, `#x`, `?q`, `//host/a`).
 */
export function urlScheme(value: string): string | undefined {
  const cleaned = value.replace(IGNORED_BY_URL_PARSER, '');
  const match = SCHEME.exec(cleaned);
  return match?.[1]?.toLowerCase();
}

/** Whether a URL may be emitted: relative, or with a scheme from `schemes`. */
export function isSafeUrl(value: string, schemes: readonly string[] = SAFE_URL_SCHEMES): boolean {
  const scheme = urlScheme(value);
  return scheme === undefined || schemes.includes(scheme);
}
