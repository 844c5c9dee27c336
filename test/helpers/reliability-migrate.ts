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
