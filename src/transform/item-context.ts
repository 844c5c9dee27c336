/**
 * Per-item values the plugins need (the item's remote link, its page path, its resolved
 * embeds). One processor serves every item, so these travel on the VFile
 * (`file.data.cmsMirror`), not in plugin options. Read defensively: `file.data` is untyped.
 */
import type { VFile } from 'vfile';
import type { OEmbedResponse } from './oembed-response.js';

/** What `processHtml` puts on each file for the plugins. */
export interface ItemContext {
  /** The item's own remote link: the base for relative URLs in its content. */
  baseUrl?: string | undefined;
  /** The item's site path (`/2024/03/my-post/`): output URLs are relative to it. */
  pagePath?: string | undefined;
  /** Resolved standalone URLs of this item (see `resolveEmbeds`). */
  embeds?: ReadonlyMap<string, OEmbedResponse | null> | undefined;
}

/** The key of `ItemContext` on `file.data`. */
export const ITEM_CONTEXT_KEY = 'cmsMirror';

/** The item context on a file, with wrongly typed fields dropped. */
export function itemContext(file: VFile | undefined): ItemContext {
  const raw: unknown = (file?.data as Record<string, unknown> | undefined)?.[ITEM_CONTEXT_KEY];
  if (raw === null || typeof raw !== 'object') return {};
  const value = raw as Record<string, unknown>;
  return {
    baseUrl: typeof value.baseUrl === 'string' ? value.baseUrl : undefined,
    pagePath: typeof value.pagePath === 'string' ? value.pagePath : undefined,
    embeds:
      value.embeds instanceof Map
        ? (value.embeds as ReadonlyMap<string, OEmbedResponse | null>)
        : undefined,
  };
}

/** Parses a base URL once per file; `undefined` when absent or not a URL. */
export function parseBaseUrl(baseUrl: string | undefined): URL | undefined {
  if (baseUrl === undefined) return undefined;
  try {
    return new URL(baseUrl);
  } catch {
    return undefined;
  }
}
