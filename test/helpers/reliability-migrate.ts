/**
 * The migrate scenario of the reliability suite: a source site pulled into a cache, an empty
 * target site, and the check that the target ends holding the source's content exactly once.
 * Items are compared in terms a migration keeps (no ids, no hosts): slug, title, status, the
 * parent's slug and the featured image's slug, as sorted lists, so a duplicate shows as an
 * extra entry and a missing item as a missing one.
 */
import { expect } from 'vitest';
import { resolveSettings } from '../../src/config/settings.js';
import type { ContentType, ReferenceSite, StoredItem } from '../../src/reference/index.js';
import { pull } from '../../src/sync/index.js';
import { credentialEnv } from './cli-args.js';
import { getJson } from './reference.js';

/** What migrate carries over (the planner leaves trash behind). */
const MIGRATED: Readonly<Record<ContentType, readonly string[]>> = {
  posts: ['publish', 'future', 'draft', 'pending', 'private'],
  pages: ['publish', 'future', 'draft', 'pending', 'private'],
  media: ['inherit', 'private'],
};

export interface TreeEntry {
  readonly slug: string;
  readonly title: string;
  readonly status: string;
  readonly parent: string | null;
  readonly featured: string | null;
}

export type MigrationTree = Record<ContentType, TreeEntry[]>;

function decoded(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}

/** One language of a site as a migration sees it, from the site's own records. */
export function migrationTree(site: ReferenceSite, lang: string): MigrationTree {
  const items = (type: ContentType) =>
    site.control.listItems(lang, type).filter((item) => MIGRATED[type].includes(item.status));
  const media = items('media');
  const pages = items('pages');
  const slugOf = (list: readonly StoredItem[]) =>
    new Map(list.map((item) => [item.id, decoded(item.slug)]));
  const mediaSlug = slugOf(media);
  const pageSlug = slugOf(pages);
  const entry = (item: StoredItem, parents: ReadonlyMap<number, string>): TreeEntry => ({
    slug: decoded(item.slug),
    title: item.title,
    status: item.status,
    parent: item.parent === 0 ? null : (parents.get(item.parent) ?? `missing ${item.parent}`),
    featured:
      item.featuredMedia === 0
        ? null
        : (mediaSlug.get(item.featuredMedia) ?? `missing ${item.featuredMedia}`),
  });
  const sorted = (list: TreeEntry[]) =>
    list.sort((a, b) =>
      `${a.slug}\u0000${a.title}`.localeCompare(`${b.slug}\u0000${b.title}`, 'en'),
    );
  return {
    // An attachment's parent is a post; which one is not part of this comparison.
    media: sorted(media.map((item) => ({ ...entry(item, new Map()), parent: null }))),
    pages: sorted(pages.map((item) => entry(item, pageSlug))),
    posts: sorted(items('posts').map((item) => entry(item, new Map()))),
  };
}

/** The target holds every migrated item of the source exactly once, and nothing else. */
export function expectMigrated(source: ReferenceSite, target: ReferenceSite, lang: string): void {
  const from = migrationTree(source, lang);
  const to = migrationTree(target, lang);
  for (const type of ['media', 'pages', 'posts'] as const) {
    expect(from[type].length).toBeGreaterThan(0);
    expect(to[type], `${type} on the target`).toEqual(from[type]);
  }
  // Nothing the migration could have made twice is left in any status, trash included.
  for (const type of ['media', 'pages', 'posts'] as const)
    expect(target.control.listItems(lang, type)).toHaveLength(to[type].length);
}

/** Pulls one language of `source` into `cache` (with credentials, media binaries included). */
export async function pullSource(
  source: ReferenceSite,
  cache: string,
  lang: string,
): Promise<void> {
  const settings = resolveSettings(
    { site: source.url, lang, cache, backup: true },
    credentialEnv(source),
  );
  settings.http = { ...settings.http, requestsPerSecond: 0 };
  const summary = await pull(settings);
  expect(summary.status).toBe('ok');
}

const UPLOADS = '/cms-content/uploads/';
const LISTED = ['publish', 'future', 'draft', 'pending', 'private'];

/** A page or post as the site's interface answers it in the edit context. */
interface EditItem {
  readonly id: number;
  readonly link: string;
  readonly title: { readonly raw: string };
  readonly content: { readonly raw: string };
  readonly excerpt: { readonly raw: string };
}

async function editItems(site: ReferenceSite, lang: string, type: 'pages' | 'posts') {
  const items: EditItem[] = [];
  for (let page = 1; ; page++) {
    const query = { per_page: 100, page, context: 'edit', status: LISTED };
    const { status, body } = await getJson(site, lang, `/cms/v2/${type}`, { query, auth: true });
    expect(status, `${type} page ${page}`).toBe(200);
    items.push(...(body as EditItem[]));
    if ((body as EditItem[]).length < 100) return items;
  }
}

/**
 * Every URL in `html`, resolved against `base`: attribute values (each `srcset` candidate),
 * then absolute and scheme-relative URLs in the rest of the text (block comments' `\/` read as
 * `/`).
 */
export function urlsIn(html: string, base: string): URL[] {
  const text = html.replace(/\\\//g, '/').replace(/&amp;/g, '&');
  const values: string[] = [];
  const rest = text.replace(/\s(href|src|srcset|poster)=(["'])([^"']*)\2/gi, (...match) => {
    const [name, value] = [String(match[1]).toLowerCase(), String(match[3])];
    if (name !== 'srcset') values.push(value);
    else values.push(...value.split(',').map((part) => part.trim().split(/\s+/)[0] ?? ''));
    return ' ';
  });
  values.push(...[...rest.matchAll(/(?:https?:)?\/\/[^\s"'<>)\]]+/g)].map((m) => m[0]));
  return values.flatMap((value) => {
    if (value.trim() === '' || value.startsWith('#')) return [];
    try {
      return [new URL(value.trim(), base)];
    } catch {
      return [];
    }
  });
}

/** The id a short link (`{home}?p=ID`, `{home}?page_id=ID`) names, when `url` is one. */
function shortLinkId(url: URL, home: string): number | undefined {
  if (url.pathname.replace(/\/?$/, '/') !== home) return undefined;
  const id = url.searchParams.get('page_id') ?? url.searchParams.get('p');
  return id === null ? undefined : Number(id);
}

/** What names an item on a site: its `link`, or a short link with its id (not the home). */
interface Names {
  readonly host: string;
  readonly home: string;
  readonly byLink: ReadonlyMap<string, string>;
  readonly byId: ReadonlyMap<number, string>;
}

async function namesOf(site: ReferenceSite, lang: string): Promise<Names> {
  const home = `${site.url}/${lang}/`;
  const byLink = new Map<string, string>();
  for (const type of ['pages', 'posts'] as const) {
    for (const item of await editItems(site, lang, type)) {
      byLink.set(item.link, item.title.raw);
      // A front page's link is the home; it is also reached by its slug.
      const slug = site.control.getItem(lang, type, item.id)?.slug;
      if (item.link === home && slug) byLink.set(`${home}${slug}/`, item.title.raw);
    }
  }
  byLink.delete(home);
  const byId = new Map(
    (['media', 'pages', 'posts'] as const)
      .flatMap((type) => site.control.listItems(lang, type))
      .map((stored) => [stored.id, stored.title]),
  );
  return { host: new URL(site.url).host, home: `/${lang}/`, byLink, byId };
}

/**
 * Titles of the items an item's URLs name, in order: by their `link` or by a short link
 * (`missing ID` for a short link that names nothing). A migration rewrites URLs in place, so
 * the copy names the copies of what the source item names, in the same order.
 */
function namedTitles(names: Names, item: EditItem): string[] {
  return urlsIn(`${item.content.raw}${item.excerpt.raw}`, item.link)
    .filter((url) => url.host === names.host)
    .flatMap((url) => {
      url.hash = '';
      const linked = names.byLink.get(url.href);
      if (linked !== undefined) return [linked];
      const id = shortLinkId(url, names.home);
      return id === undefined ? [] : [names.byId.get(id) ?? `missing ${id}`];
    });
}

/**
 * References left to the source in what a migration made on the target (`own`: the ids of
 * the target's items that are not the migration's): any URL on the source's host, whatever
 * the scheme, path prefix or size variant; a URL of the target's uploads (relative ones
 * resolved against the item's link) that the target serves for none of the migrated media;
 * and links or short links that do not name the copies of the items the source item's name
 * (a `?p=ID` kept with the source's id names another item on the target, or none).
 */
export async function sourceReferences(
  source: ReferenceSite,
  target: ReferenceSite,
  lang: string,
  own: ReadonlySet<number>,
): Promise<string[]> {
  const sourceHost = new URL(source.url).host;
  const targetHost = new URL(target.url).host;
  const served = new Set(
    target.control
      .listFiles(lang)
      .filter((file) => !own.has(file.owner))
      .map((file) => file.url.slice(file.url.indexOf(UPLOADS))),
  );
  const [fromNames, toNames] = [await namesOf(source, lang), await namesOf(target, lang)];
  const found: string[] = [];
  for (const type of ['pages', 'posts'] as const) {
    const sources = await editItems(source, lang, type);
    for (const item of await editItems(target, lang, type)) {
      if (own.has(item.id)) continue;
      for (const url of urlsIn(`${item.content.raw}${item.excerpt.raw}`, item.link)) {
        const at = url.pathname.indexOf(UPLOADS);
        if (url.host === sourceHost) found.push(`${type} ${item.id}: ${url.href}`);
        else if (url.host === targetHost && at >= 0 && !served.has(url.pathname.slice(at)))
          found.push(`${type} ${item.id}: ${url.href} (no migrated file)`);
      }
      const links = namedTitles(toNames, item);
      const expected = sources
        .filter((candidate) => candidate.title.raw === item.title.raw)
        .map((candidate) => namedTitles(fromNames, candidate));
      if (!expected.some((titles) => titles.join('\n') === links.join('\n')))
        found.push(
          `${type} ${item.id}: links to ${links.join(', ')} (source: ${expected[0]?.join(', ')})`,
        );
    }
  }
  return found;
}
