/**
 * Plain text from transformed HTML, for listing excerpts, meta descriptions and the search
 * index. The HTML has been through the transform already, so a tag-stripping pass is enough
 * and costs a fraction of a parser (the search index needs the text of every public item).
 */
import { decodeEntities } from '../store/plain-text.js';

const INVISIBLE_ELEMENTS = /<(script|style|template|noscript)\b[^>]*>[\s\S]*?<\/\1\s*>/gi;
const COMMENTS = /<!--[\s\S]*?-->/g;
const TAGS = /<[^>]*>/g;

/**
 * Tags dropped (each one counts as a word boundary, so `<p>a</p><p>b</p>` reads `a b`),
 * script/style/template/noscript content and comments dropped, entities decoded, white space
 * collapsed, trimmed.
 */
export function htmlToText(html: string): string {
  return decodeEntities(
    html.replace(COMMENTS, ' ').replace(INVISIBLE_ELEMENTS, ' ').replace(TAGS, ' '),
  )
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * At most `maxChars` characters, cut at a word boundary when there is one in the last fifth,
 * with `…` appended when anything was cut. Never splits a surrogate pair.
 */
export function truncateText(text: string, maxChars: number): string {
  // A character is one or two UTF-16 units: only a prefix of a long text needs splitting.
  if (text.length <= maxChars) return text;
  const chars = Array.from(text.slice(0, 2 * maxChars + 1));
  if (chars.length <= maxChars) return text;
  let cut = chars.slice(0, maxChars).join('');
  const space = cut.lastIndexOf(' ');
  if (space > maxChars * 0.8) cut = cut.slice(0, space);
  return `${cut.replace(/[\s,.;:–—-]+$/u, '')}…`;
}
