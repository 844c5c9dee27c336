import type { CrawlItem } from './record-check.js';

/**
 * Which stored pages moved: the ones already cached whose `link` differs from the cached one.
 * A page's link holds its parents' slugs, so a moved page's descendants moved too without
 * their `modified_gmt` changing; the crawl refetches them by parent. A page new to the cache
 * has no cached descendants to fix. Pure.
 *
 * @param cachedLinks the cached link per id before the store (absent: never stored).
 */
export function movedPageIds(
  items: readonly CrawlItem[],
  cachedLinks: ReadonlyMap<number, string | null>,
): number[] {
  const moved: number[] = [];
  for (const item of items) {
    if (!cachedLinks.has(item.id)) continue;
    const link = typeof item['link'] === 'string' ? item['link'] : null;
    if (cachedLinks.get(item.id) !== link) moved.push(item.id);
  }
  return moved;
}
