/**
 * Rendered titles arrive as HTML fragments (`Caf&eacute; &#8211; <em>news</em>`). The
 * `items.title` column holds them as plain text so that people querying `cms_items` with
 * `sqlite3` (and `ORDER BY title`) see readable text. A full HTML parser per item would cost
 * more than the rest of an upsert; titles are short and simple, so tags are dropped and the
 * entities servers actually emit are decoded.
 */
const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  hellip: '\u2026',
  ndash: '\u2013',
  mdash: '\u2014',
  lsquo: '\u2018',
  rsquo: '\u2019',
  sbquo: '\u201a',
  ldquo: '\u201c',
  rdquo: '\u201d',
  bdquo: '\u201e',
  laquo: '\u00ab',
  raquo: '\u00bb',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  eacute: '\u00e9',
  aacute: '\u00e1',
  iacute: '\u00ed',
  oacute: '\u00f3',
  uacute: '\u00fa',
  ntilde: '\u00f1',
  iexcl: '\u00a1',
  iquest: '\u00bf',
};

function codePoint(value: number): string {
  // Out-of-range or surrogate references render as U+FFFD in browsers; do the same.
  if (!Number.isFinite(value) || value <= 0 || value > 0x10ffff) return '\ufffd';
  if (value >= 0xd800 && value <= 0xdfff) return '\ufffd';
  return String.fromCodePoint(value);
}

export function decodeEntities(text: string): string {
  return text.replace(
    /&(#[xX][0-9a-fA-F]+|#[0-9]+|[a-zA-Z][a-zA-Z0-9]*);/g,
    (whole, ref: string) => {
      if (ref.startsWith('#x') || ref.startsWith('#X'))
        return codePoint(Number.parseInt(ref.slice(2), 16));
      if (ref.startsWith('#')) return codePoint(Number.parseInt(ref.slice(1), 10));
      return NAMED_ENTITIES[ref] ?? whole;
    },
  );
}

/** Tags removed, entities decoded, runs of white space collapsed, trimmed. */
export function plainText(html: string): string {
  return decodeEntities(html.replace(/<[^>]*>/g, ''))
    .replace(/\s+/g, ' ')
    .trim();
}
