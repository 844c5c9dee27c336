/**
 * How many revisions an item says it has: `_links["version-history"][0].count`, the length of
 * its revisions list with the autosave included (observed-behaviour.md, Collections). A backup
 * asks for revisions and autosaves only when this is not 0, which on a site where most items
 * were never edited saves two requests per item. Pure.
 */

/** The count from an item's JSON (as stored); undefined when the server does not send one. */
export function versionCount(itemJson: string): number | undefined {
  let item: unknown;
  try {
    item = JSON.parse(itemJson);
  } catch {
    return undefined;
  }
  const history = (item as { _links?: { 'version-history'?: unknown } } | null)?._links?.[
    'version-history'
  ];
  const count = Array.isArray(history)
    ? (history[0] as { count?: unknown } | null)?.count
    : undefined;
  return typeof count === 'number' && Number.isSafeInteger(count) && count >= 0 ? count : undefined;
}
