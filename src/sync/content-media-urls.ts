/**
 * Which files a post's rendered HTML needs for the offline build. Pure, but it parses HTML:
 * kept apart from content-media.ts so that a pull loads the HTML parser (unified, parse5)
 * only when it has a changed item to look at (assets-sync.ts imports this lazily).
 */
import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { parseSrcset } from '../transform/index.js';
import { absoluteHttpUrl, UPLOADS_MARKER } from './content-media.js';

const parser = unified().use(rehypeParse, { fragment: true });

/** Cheap test before parsing: most bulk content has no media at all. */
const MAY_HAVE_MEDIA = /<(?:img|source|video|audio)\b|cms-content\/uploads\//i;

/**
 * Absolute URLs of the media an HTML fragment shows or links to: `img` `src`/`srcset`,
 * `source` `src`/`srcset`, `video`/`audio` `src` and `poster`, and `a href` pointing into the
 * site's uploads. Relative URLs are resolved against `baseUrl` (the item's `link`); anything
 * that is not http(s) is ignored. Distinct, in document order.
 */
export function contentMediaUrls(html: string, baseUrl: string | undefined): string[] {
  if (!MAY_HAVE_MEDIA.test(html)) return [];
  const tree = parser.parse(html) as Root;
  const found: string[] = [];
  const add = (value: unknown): void => {
    const url = absoluteHttpUrl(value, baseUrl);
    if (url !== undefined) found.push(url);
  };
  const addSrcset = (value: unknown): void => {
    if (typeof value !== 'string') return;
    for (const candidate of parseSrcset(value)) add(candidate.url);
  };
  visit(tree, 'element', (node: Element) => {
    const p = node.properties;
    switch (node.tagName) {
      case 'img':
      case 'source':
        add(p['src']);
        addSrcset(p['srcSet']);
        break;
      case 'video':
        add(p['src']);
        add(p['poster']);
        break;
      case 'audio':
        add(p['src']);
        break;
      case 'a': {
        const url = absoluteHttpUrl(p['href'], baseUrl);
        if (url !== undefined && new URL(url).pathname.includes(UPLOADS_MARKER)) found.push(url);
        break;
      }
      default:
        break;
    }
  });
  return [...new Set(found)];
}
