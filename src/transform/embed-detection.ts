/**
 * Finds the URLs that stand alone in content and are meant to become embeds: a `<p>` whose
 * only content is a URL (as text, or as a lone `<a>` whose text is its `href`), and the
 * wrapper text of a block-editor embed (`figure.cms-block-embed > .cms-block-embed__wrapper`).
 * Pure; shared by `findEmbedUrls` (what to resolve) and `rehypeEmbeds` (what to replace), so
 * both always agree.
 */
import type { Element, ElementContent, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { walkElements } from './walk-elements.js';

/** URLs longer than this are not treated as embeds (they are left as they are). */
export const MAX_EMBED_URL_LENGTH = 2048;

/** One standalone URL and the element whose content it is. */
export interface StandaloneUrl {
  /** The URL as `new URL(...).href` spells it: the key for `resolveEmbeds` and the embeds map. */
  url: string;
  /** `paragraph`: replace the whole `<p>`; `block`: replace the wrapper's content. */
  kind: 'paragraph' | 'block';
  element: Element;
}

const parser = unified().use(rehypeParse, { fragment: true });

/** The canonical http(s) URL a trimmed text stands for, or `undefined`. */
export function standaloneUrl(text: string): string | undefined {
  const trimmed = text.trim();
  if (trimmed.length === 0 || trimmed.length > MAX_EMBED_URL_LENGTH || /\s/.test(trimmed))
    return undefined;
  if (!/^https?:\/\//i.test(trimmed)) return undefined;
  try {
    const url = new URL(trimmed);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** The URL an element's content consists of, or `undefined`. */
function loneUrl(element: Element): string | undefined {
  const meaningful = element.children.filter(
    (child) => !(child.type === 'comment' || (child.type === 'text' && child.value.trim() === '')),
  );
  if (meaningful.length !== 1) return undefined;
  const only = meaningful[0] as ElementContent;
  if (only.type === 'text') return standaloneUrl(only.value);
  if (only.type === 'element' && only.tagName === 'a') {
    const href = only.properties.href;
    const text = textOf(only);
    if (typeof href !== 'string' || text === undefined || text.trim() !== href.trim())
      return undefined;
    return standaloneUrl(href);
  }
  return undefined;
}

/** Concatenated text of an element made only of text nodes; `undefined` if it has elements. */
function textOf(element: Element): string | undefined {
  let text = '';
  for (const child of element.children) {
    if (child.type === 'text') text += child.value;
    else if (child.type !== 'comment') return undefined;
  }
  return text;
}

function hasClass(element: Element, name: string): boolean {
  const className = element.properties.className;
  return Array.isArray(className) && className.includes(name);
}

/** Every standalone URL of a tree, in document order. */
export function findStandaloneUrls(tree: Root): StandaloneUrl[] {
  const found: StandaloneUrl[] = [];
  walkElements(tree, (node) => {
    if (node.tagName === 'p') {
      const url = loneUrl(node);
      if (url !== undefined) found.push({ url, kind: 'paragraph', element: node });
    } else if (node.tagName === 'figure' && hasClass(node, 'cms-block-embed')) {
      for (const child of node.children) {
        if (child.type === 'element' && hasClass(child, 'cms-block-embed__wrapper')) {
          const url = loneUrl(child);
          if (url !== undefined) found.push({ url, kind: 'block', element: child });
        }
      }
    }
  });
  return found;
}

/** The distinct standalone URLs of an HTML fragment (or a parsed tree), in document order. */
export function findEmbedUrls(input: Root | string): string[] {
  const tree = typeof input === 'string' ? parser.parse(input) : input;
  return [...new Set(findStandaloneUrls(tree).map((found) => found.url))];
}
