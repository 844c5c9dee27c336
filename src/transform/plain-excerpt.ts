/**
 * Listing pages and feeds show an excerpt as plain text: HTML excerpts carry links relative to
 * the item's own page, which would break on a listing page, and plain text cannot smuggle
 * markup into the output. When the excerpt is made from the content, headings, figures and
 * embeds are left out: they read as noise run into the prose.
 */
import type { Element, Root, RootContent } from 'hast';
import { toString } from 'hast-util-to-string';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';

const parser = unified().use(rehypeParse, { fragment: true });

const SKIPPED = new Set([
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'figure',
  'script',
  'style',
  'template',
]);

/** @default maxChars 280 */
export function plainTextExcerpt(html: string, maxChars = 280): string {
  const parts: string[] = [];
  collectText(parser.parse(html), parts);
  const text = parts
    .join(' ')
    .replace(/\s+/g, ' ')
    .replace(/\s+([.,;:!?])/g, '$1')
    .trim();
  if (text.length <= maxChars) return text;
  const cut = text.slice(0, maxChars);
  const lastSpace = cut.lastIndexOf(' ');
  return `${(lastSpace > maxChars / 2 ? cut.slice(0, lastSpace) : cut).replace(/[\s,.;:]+$/, '')}…`;
}

/** Text of each block on its own, so blocks never run into each other. */
function collectText(node: Root | Element, parts: string[]): void {
  for (const child of node.children as RootContent[]) {
    if (child.type === 'text') parts.push(child.value);
    else if (child.type === 'element' && !SKIPPED.has(child.tagName)) {
      if (
        child.children.some((grandchild) => grandchild.type === 'element' && isBlock(grandchild))
      ) {
        collectText(child, parts);
      } else {
        parts.push(toString(child));
      }
    }
  }
}

function isBlock(element: Element): boolean {
  return /^(p|div|section|article|ul|ol|li|blockquote|h[1-6]|figure|table|pre)$/.test(
    element.tagName,
  );
}
