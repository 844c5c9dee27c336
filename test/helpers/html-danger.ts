import type { Element } from 'hast';

/**
 * Pieces shared by the security tests' scans of built HTML for anything executable, so the
 * unit fuzz fixture and the end-to-end oEmbed test judge those parts the same way.
 */

/** hast property names whose value is a URL a browser may follow or load. */
export const URL_PROPERTY_NAMES: readonly string[] = [
  'href',
  'src',
  'action',
  'formAction',
  'data',
  'poster',
  'xLinkHref',
  'background',
  'cite',
];

/**
 * Whether a `<script type="application/ld+json">` holds one intact JSON document: structured
 * data is not executed, but a provider string with "</script>" in it would cut it short.
 */
export function isIntactLdJson(script: Element): boolean {
  const text = script.children.map((child) => (child.type === 'text' ? child.value : '')).join('');
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
