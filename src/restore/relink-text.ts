/**
 * Links to re-created items moved to their new id and URL. An item deleted for good comes back
 * under a new id and usually a new URL; content that names it (its link, a short link
 * `?p=ID`, a file's URL, a media id in an image class, a block comment or a gallery) is
 * rewritten to the new one. Only exact old URLs are replaced, never a prefix of a longer one
 * (a child page's address starts with its parent's). Pure.
 */

export interface LinkMap {
  /** Old id → new id of re-created items (ids are unique across a site's collections). */
  readonly ids: ReadonlyMap<number, number>;
  /** Old id → new id of re-created files (media ids in content). */
  readonly fileIds: ReadonlyMap<number, number>;
  /** Old URL → new URL (items' links, files' URLs). */
  readonly urls: ReadonlyMap<string, string>;
}

export const EMPTY_LINKS: LinkMap = { ids: new Map(), fileIds: new Map(), urls: new Map() };

/** Where a URL ends in HTML, text or an escaped JSON string. */
const URL_END = `(?=["'<>\\s#?)\\]\\\\,]|$)`;

export function relinkText(text: string, links: LinkMap): string {
  if (text === '' || (links.ids.size === 0 && links.urls.size === 0 && links.fileIds.size === 0))
    return text;
  let out = text;
  const urls = [...links.urls].filter(([from, to]) => from !== '' && from !== to);
  for (const [from, to] of urls.sort((a, b) => b[0].length - a[0].length)) {
    out = replaceUrl(out, from, to);
    // Block comments carry URLs as JSON strings, with `\/` for `/`.
    out = replaceUrl(out, from.replace(/\//g, '\\/'), to.replace(/\//g, '\\/'));
  }
  out = out.replace(
    /([?&](?:amp;)?(?:p|page_id)=)(\d+)(?!\d)/g,
    (whole, key: string, id: string) => {
      const to = links.ids.get(Number(id));
      return to === undefined ? whole : `${key}${to}`;
    },
  );
  const file = (whole: string, before: string, id: string, after = ''): string => {
    const to = links.fileIds.get(Number(id));
    return to === undefined ? whole : `${before}${to}${after}`;
  };
  out = out.replace(/(\bcms-image-)(\d+)\b/g, (w, b: string, id: string) => file(w, b, id));
  out = out.replace(/(\bdata-id=(["']))(\d+)\2/g, (w, b: string, q: string, id: string) =>
    file(w, b, id, q),
  );
  return out.replace(/<!--[^>]*?(?:image|gallery|media|file|video|audio|cover)[\s\S]*?-->/g, (c) =>
    c.replace(/("id":)(\d+)/g, (w, b: string, id: string) => file(w, b, id)),
  );
}

function replaceUrl(text: string, from: string, to: string): string {
  if (!text.includes(from)) return text;
  const pattern = new RegExp(`${escapeRegExp(from)}${URL_END}`, 'g');
  return text.replace(pattern, () => to);
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** What relinking needs to know of one re-created item. */
export interface Recreated {
  readonly file: boolean;
  readonly oldId: number;
  readonly newId: number;
  /** Old URL → new URL. */
  readonly urls: readonly (readonly [string, string])[];
}

/** `links` with one more re-created item. */
export function withRecreated(links: LinkMap, item: Recreated): LinkMap {
  const ids = new Map(links.ids);
  const fileIds = new Map(links.fileIds);
  const urls = new Map(links.urls);
  (item.file ? fileIds : ids).set(item.oldId, item.newId);
  for (const [from, to] of item.urls) urls.set(from, to);
  return { ids, fileIds, urls };
}

/** Whether `text` may name an item of `links` (a cheap test before a relink). */
export function mayLink(text: string, links: LinkMap): boolean {
  for (const url of links.urls.keys()) if (text.includes(url)) return true;
  for (const id of links.ids.keys()) {
    if (text.includes(`p=${id}`) || text.includes(`page_id=${id}`)) return true;
  }
  for (const id of links.fileIds.keys()) if (text.includes(String(id))) return true;
  return false;
}
