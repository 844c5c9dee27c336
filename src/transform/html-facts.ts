/**
 * Facts about an item's transformed HTML that the build needs for every page, even the ones
 * it does not render: a digest (has the page's content changed?) and the local files it
 * references (which media to copy). The transform stores them with the HTML, so the build
 * reads them instead of reading and scanning the HTML of every item.
 */
import { createHash } from 'node:crypto';
import { localReferences } from './local-references.js';
import { remainingShortLinks } from './short-links.js';

export interface HtmlFacts {
  /** `htmlDigestOf(html)`. */
  htmlDigest: string;
  /** Canonical site paths of the local files the HTML references, sorted. */
  media: string[];
  /**
   * Short links (`?p=ID`) under the language's host still pointing at the remote site: they
   * name no public item, so the build warns about them. Absent when there are none.
   */
  shortLinks?: string[];
}

/** A short digest (128 bits, hex) of an HTML string. */
export function htmlDigestOf(html: string): string {
  return createHash('sha256').update(html).digest('hex').slice(0, 32);
}

/** The facts of `html` as the page at `pageSitePath` of the language at `homeUrl` shows it. */
export function htmlFacts(html: string, pageSitePath: string, homeUrl?: string): HtmlFacts {
  const facts: HtmlFacts = {
    htmlDigest: htmlDigestOf(html),
    media: [...localReferences(html, pageSitePath)].sort(),
  };
  const shortLinks = homeUrl === undefined ? [] : remainingShortLinks(html, homeUrl);
  if (shortLinks.length > 0) facts.shortLinks = shortLinks;
  return facts;
}

/** The facts stored in a transformed row's `meta`, when they are there and well formed. */
export function storedHtmlFacts(meta: unknown): HtmlFacts | undefined {
  const value = meta as
    { htmlDigest?: unknown; media?: unknown; shortLinks?: unknown } | null | undefined;
  if (typeof value?.htmlDigest !== 'string' || !Array.isArray(value.media)) return undefined;
  const media = value.media as unknown[];
  if (!media.every((entry) => typeof entry === 'string')) return undefined;
  const facts: HtmlFacts = { htmlDigest: value.htmlDigest, media: media as string[] };
  const shortLinks = value.shortLinks;
  if (Array.isArray(shortLinks) && shortLinks.every((entry) => typeof entry === 'string'))
    facts.shortLinks = shortLinks as string[];
  return facts;
}
