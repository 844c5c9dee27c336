import { itemLink } from './render.js';
import type { SiteState } from './site-state.js';
import type { FileEntry } from './store.js';

/**
 * What the site answers outside its API for URLs content uses besides an item's `link` and a
 * media item's `source_url` (see observed-behaviour.md, Items): short links to items, and
 * uploaded files under another path prefix of the same host.
 */

const UPLOADS = '/cms-content/uploads/';

/**
 * The `link` a short link (`/pl/?p=38`, `/pl/?page_id=12`) redirects to: a published post or
 * page (`?p=` finds either, `?page_id=` only pages), as deployed servers do for anonymous
 * readers. `undefined` for anything else (the server answers 404).
 */
export function shortLinkTarget(site: SiteState, lang: string, search: string): string | undefined {
  const query = new URLSearchParams(search);
  const store = site.stores.get(lang);
  const pageId = query.get('page_id');
  const postId = query.get('p');
  const id = Number(pageId ?? postId);
  if (store === undefined || !Number.isSafeInteger(id) || id <= 0) return undefined;
  const item =
    pageId !== null
      ? store.getItem('page', id)
      : (store.getItem('post', id) ?? store.getItem('page', id));
  if (item === undefined || item.status !== 'publish') return undefined;
  return itemLink(store, site.base, item);
}

/** Whether a query is a short link's (`p=ID` or `page_id=ID`). */
export function isShortLinkQuery(search: string): boolean {
  const query = new URLSearchParams(search);
  return query.has('p') || query.has('page_id');
}

/**
 * The file at an uploads path: the language's own first, then the same path below the
 * uploads of every language (a file shown under another language's prefix, or none, as a
 * host serving several languages from one uploads directory does).
 */
export function findUpload(
  site: SiteState,
  lang: string | undefined,
  path: string,
): FileEntry | undefined {
  const at = path.indexOf(UPLOADS);
  if (at < 0) return undefined;
  const rest = path.slice(at + UPLOADS.length);
  let decoded = rest;
  try {
    decoded = decodeURI(rest);
  } catch {
    // keep the raw path
  }
  const order =
    lang === undefined ? site.languages : [lang, ...site.languages.filter((l) => l !== lang)];
  for (const code of order) {
    const files = site.stores.get(code)?.files;
    const prefix = `/${code}${UPLOADS}`;
    const file = files?.get(prefix + rest) ?? files?.get(prefix + decoded);
    if (file !== undefined) return file;
  }
  return undefined;
}
