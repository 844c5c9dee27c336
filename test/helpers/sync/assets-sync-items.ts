import type { CmsItem } from '../../../src/store/index.js';

/**
 * A post as the cache holds it, with the given rendered content: published and unprotected
 * unless `overrides` say otherwise; `link` is the page the content's relative URLs resolve
 * against (`null` for none).
 */
export function contentItem(
  id: number,
  html: string,
  overrides: { status?: string; protected?: boolean; link?: string | null } = {},
): CmsItem {
  return {
    id,
    status: overrides.status ?? 'publish',
    modified_gmt: '2024-04-01T10:00:00',
    slug: `post-${id}`,
    link: overrides.link === undefined ? `http://127.0.0.1/pl/post-${id}/` : overrides.link,
    title: { rendered: `Post ${id}` },
    content: { rendered: html, protected: overrides.protected ?? false },
  };
}

/** `url` spelled with the other scheme (`http:` ↔ `https:`), same host and port. */
export function otherScheme(url: string): string {
  return url.startsWith('https:') ? `http:${url.slice(6)}` : `https:${url.slice(5)}`;
}
