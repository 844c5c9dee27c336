/**
 * rehype plugin: headings get ids so in-page links (`#section`) and a table of contents can
 * point at them.
 *
 * `h1`–`h6` without an id get a github-slugger slug of their text (lower-cased, punctuation
 * dropped, letters of every script kept: `Zażółć gęślą` → `zażółć-gęślą`). Ids are unique in
 * the document: existing ids of any element are kept and never reused, repeats get `-1`,
 * `-2`, ... A heading without usable text gets `section`.
 */
import type { Root } from 'hast';
import GithubSlugger, { slug } from 'github-slugger';
import { toString } from 'hast-util-to-string';
import { walkElements } from './walk-elements.js';

export interface HeadingIdsOptions {
  /**
   * Prefix for generated ids (for example `h-`), to keep them apart from ids the page
   * template uses.
   * @default ''
   */
  readonly prefix?: string;
}

const HEADING = /^h[1-6]$/;
const FALLBACK = 'section';

export function rehypeHeadingIds(options: HeadingIdsOptions = {}) {
  const prefix = options.prefix ?? '';

  return (tree: Root): void => {
    const taken = new Set<string>();
    walkElements(tree, (node) => {
      const id = node.properties.id;
      if (typeof id === 'string' && id !== '') taken.add(id);
    });

    const slugger = new GithubSlugger();
    walkElements(tree, (node) => {
      if (!HEADING.test(node.tagName)) return;
      const existing = node.properties.id;
      if (typeof existing === 'string' && existing !== '') return;

      const text = toString(node);
      const source = slug(text) === '' ? FALLBACK : text;
      let id: string;
      // The slugger counts what it has handed out, so each call yields the next variant.
      do {
        id = `${prefix}${slugger.slug(source)}`;
      } while (taken.has(id));
      taken.add(id);
      node.properties.id = id;
    });
  };
}
