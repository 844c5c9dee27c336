import { ITEM_TYPES } from '../collections.js';
import { StoreError } from '../errors.js';
import type { Store } from '../store/index.js';

/**
 * What a migration needs to know about the source site, from its cache: the base `url` and
 * the language `home` (to rewrite links) and the `seo/v1` settings (to copy). The pull stores
 * them in `site_info`; an older cache without it falls back to the items' own links.
 */
export interface SourceSite {
  readonly url: string;
  readonly home: string;
  readonly seo: SourceSeo;
}

export interface SourceSeo {
  readonly siteRepresentation: Record<string, unknown> | undefined;
  readonly socialProfiles: Record<string, unknown> | undefined;
}

export function sourceSiteOf(store: Store, lang: string): SourceSite {
  const data = store.siteInfo.get(lang)?.data;
  let url = findString(data, 'url');
  let home = findString(data, 'home');
  if (url === undefined || home === undefined) {
    const derived = deriveFromLinks(store, lang);
    url ??= derived?.url;
    home ??= derived?.home;
  }
  if (url === undefined) {
    throw new StoreError(
      store.file,
      `${store.file} has no site address for "${lang}" (no site_info and no item links): pull that language into it first`,
    );
  }
  const base = url.replace(/\/+$/, '');
  return {
    url: base,
    home: home ?? `${base}/${lang}/`,
    seo: {
      siteRepresentation: findObjectWith(data, 'company_or_person'),
      socialProfiles:
        findObjectWith(data, 'other_social_urls') ?? findObjectWith(data, 'facebook_site'),
    },
  };
}

function deriveFromLinks(store: Store, lang: string): { url: string; home: string } | undefined {
  for (const type of ITEM_TYPES) {
    for (const item of store.items.iterate(lang, type, { chunkSize: 1 })) {
      const link = item.link;
      if (link === null) continue;
      const parsed = new URL(link);
      const marker = `/${lang}/`;
      const at = parsed.pathname.indexOf(marker);
      const prefix = at === -1 ? '' : parsed.pathname.slice(0, at);
      return { url: `${parsed.origin}${prefix}`, home: `${parsed.origin}${prefix}${marker}` };
    }
  }
  return undefined;
}

/** A string field at the top or one level down (`{index: {url}}`, `{site: {home}}`). */
function findString(data: unknown, key: string): string | undefined {
  if (!isRecord(data)) return undefined;
  if (typeof data[key] === 'string' && data[key] !== '') return data[key];
  for (const value of Object.values(data)) {
    if (isRecord(value) && typeof value[key] === 'string' && value[key] !== '') return value[key];
  }
  return undefined;
}

/** The first object (breadth-first, three levels deep) that has `key`. */
function findObjectWith(
  data: unknown,
  key: string,
  depth = 0,
): Record<string, unknown> | undefined {
  if (!isRecord(data) || depth > 3) return undefined;
  if (key in data) return data;
  for (const value of Object.values(data)) {
    const found = findObjectWith(value, key, depth + 1);
    if (found) return found;
  }
  return undefined;
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
