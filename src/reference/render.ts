import type { LangStore, StoredItem } from './store.js';
import { siteYearMonth } from './site-dates.js';

/**
 * What the site derives from stored content: rendered HTML, excerpts, slugs and links. Pure
 * functions of the stored record (and the store for parent pages).
 */

const BLOCK_COMMENT = /<!-- \/?cms:[^>]*?-->\n?/g;

/** Rendered content: block delimiters removed; embeddable URLs stay as text (not resolved). */
export function renderContent(raw: string): string {
  const html = raw
    .replace(BLOCK_COMMENT, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return html === '' ? '' : `${html}\n`;
}

export function stripTags(html: string): string {
  return html
    .replace(BLOCK_COMMENT, '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

export function wordCount(html: string): number {
  const plain = stripTags(html);
  return plain === '' ? 0 : plain.split(' ').length;
}

/** The excerpt: the stored one, or the first `length` words of the content. */
export function renderExcerpt(item: Pick<StoredItem, 'excerpt' | 'content'>, length = 55): string {
  if (item.excerpt.trim() !== '') return `<p>${item.excerpt.trim()}</p>\n`;
  const words = stripTags(item.content).split(' ').filter(Boolean);
  if (words.length === 0) return '';
  const cut = words.length > length;
  return `<p>${words.slice(0, Math.max(0, length)).join(' ')}${cut ? ' [&hellip;]' : ''}</p>\n`;
}

/** A slug from a title, as servers make them: accents folded, lowercase, hyphens. */
export function sanitizeSlug(value: string): string {
  const folded = value
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .toLowerCase()
    .replace(/<[^>]*>/g, '')
    .replace(/&[a-z0-9#]+;/g, '');
  let out = '';
  for (const ch of folded) {
    if (/[a-z0-9_-]/.test(ch)) out += ch;
    else if (/[\s.,/\\:;!?'"()[\]{}|+=*&^%$#@~`<>]/.test(ch)) out += '-';
    else if (ch.charCodeAt(0) > 127) out += encodeURIComponent(ch).toLowerCase();
  }
  return out.replace(/-+/g, '-').replace(/^-|-$/g, '');
}

export function apiRoot(base: string, lang: string): string {
  return `${base}/${lang}/cms-json/`;
}

export function homeUrl(base: string, lang: string): string {
  return `${base}/${lang}/`;
}

/** Statuses whose items have no pretty link yet (servers answer `?p=ID`). */
const UNPUBLISHED = new Set(['draft', 'pending', 'auto-draft']);

export function itemLink(store: LangStore, base: string, item: StoredItem): string {
  const home = homeUrl(base, store.settings.lang);
  if (item.type === 'attachment') return `${home}attachment/${item.slug}/`;
  if (UNPUBLISHED.has(item.status) || item.slug === '') {
    return item.type === 'page' ? `${home}?page_id=${item.id}` : `${home}?p=${item.id}`;
  }
  // The static front page lives at the home address, as on servers of this family.
  if (item.type === 'page' && store.showOnFront === 'page' && store.pageOnFront === item.id)
    return home;
  if (item.type === 'page') return `${home}${pagePath(store, item)}/`;
  const [year, month] = siteYearMonth(item.dateGmt, store.settings.gmtOffset);
  return `${home}${year}/${month}/${item.slug}/`;
}

/** `parent-slug/child-slug` for a page; guards against parent cycles. */
export function pagePath(store: LangStore, page: StoredItem): string {
  const slugs = [page.slug];
  const seen = new Set([page.id]);
  let parent = store.getItem('page', page.parent);
  while (parent && !seen.has(parent.id)) {
    slugs.unshift(parent.slug);
    seen.add(parent.id);
    parent = store.getItem('page', parent.parent);
  }
  return slugs.join('/');
}

export function permalinkTemplate(store: LangStore, base: string, item: StoredItem): string {
  const home = homeUrl(base, store.settings.lang);
  if (item.type === 'page') {
    const path = pagePath(store, item);
    const parentPath = path.includes('/') ? `${path.slice(0, path.lastIndexOf('/'))}/` : '';
    return `${home}${parentPath}%pagename%/`;
  }
  const [year, month] = siteYearMonth(item.dateGmt, store.settings.gmtOffset);
  return `${home}${year}/${month}/%postname%/`;
}

export function guidOf(base: string, lang: string, item: StoredItem): string {
  return item.type === 'page'
    ? `${homeUrl(base, lang)}?page_id=${item.id}`
    : `${homeUrl(base, lang)}?p=${item.id}`;
}

export function uploadsUrl(base: string, lang: string, file: string): string {
  return `${base}/${lang}/cms-content/uploads/${file}`;
}

export function escapeHtml(value: string): string {
  return value
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
}
