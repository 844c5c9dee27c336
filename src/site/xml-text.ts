/**
 * Escaping for the XML the build writes itself (feed, sitemap). Characters XML 1.0 cannot hold
 * at all (most C0 controls, lone surrogates, U+FFFE/U+FFFF) are dropped, so a hostile title
 * cannot make the document ill-formed.
 */
// eslint-disable-next-line no-control-regex -- finding control characters is the point
const NOT_XML_CHAR = /[^\u0009\u000A\u000D\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** Text or attribute value (double-quoted) content. */
export function escapeXml(text: string): string {
  return text
    .replace(NOT_XML_CHAR, '')
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}

/** A GMT date as the remote sends it (`2024-03-14T02:00:00`) in RFC 3339 with `Z`. */
export function gmtToIso(dateGmt: string): string {
  return /(?:Z|[+-]\d\d:?\d\d)$/.test(dateGmt) ? dateGmt : `${dateGmt}Z`;
}
