/**
 * Listing pages and feeds show an excerpt as plain text: HTML excerpts carry links relative to
 * the item's own page, which would break on a listing page, and plain text cannot smuggle
 * markup into the output.
 */
import { toString } from 'hast-util-to-string';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';

const parser = unified().use(rehypeParse, { fragment: true });

/** @default maxChars 280 */
export function plainTextExcerpt(html: string, maxChars = 280): string {
  const text = toString(parser.parse(html)).replace(/\s+/g, ' ').trim();
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > maxChars / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.;:]+$/, '')}…`;
}
