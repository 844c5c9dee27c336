import { createHash } from 'node:crypto';
import { expect } from 'vitest';
import { resolveSettings, type Settings } from '../../../src/config/settings.js';
import type { ItemType, Store } from '../../../src/store/index.js';
import {
  contentMediaUrls,
  isPublicItem,
  mediaItemUrls,
  renderedContent,
} from '../../../src/sync/content-media.js';
import { findEmbedUrls } from '../../../src/transform/index.js';
import { servedItems, type Audience } from '../../helpers/reliability-compare.js';
import { getJson, type Json, type ReferenceSite } from '../../helpers/reference.js';

/**
 * Checks for the pull tests: what the site shows (over HTTP, independently of the crawler)
 * against what the cache holds.
 */
export type Mode = Audience;

export const TYPES: readonly ItemType[] = ['posts', 'pages', 'media'];

/** Settings for a pull of `site` into `cache`, without client-side pacing. */
export function settingsFor(
  site: ReferenceSite,
  cache: string,
  options: { languages?: string[]; auth?: boolean | 'wrong'; backup?: boolean } = {},
): Settings {
  const env: NodeJS.ProcessEnv =
    options.auth === false
      ? {}
      : {
          CMS_USER: site.credentials.user,
          CMS_APP_PASSWORD:
            options.auth === 'wrong' ? 'wron gpas swor dxxx xxxx xxxx' : site.credentials.password,
        };
  const settings = resolveSettings(
    {
      site: site.url,
      lang: (options.languages ?? ['pl', 'es']).join(','),
      cache,
      backup: options.backup ?? false,
    },
    env,
  );
  settings.http = { ...settings.http, requestsPerSecond: 0 };
  return settings;
}

/** Every item the site lists for `type` under the pull's filter, by id, as JSON. */
export const remoteItems: (
  site: ReferenceSite,
  lang: string,
  type: ItemType,
  mode: Mode,
) => Promise<Map<number, Json>> = servedItems;

/** The live items of the cache, by id, parsed. */
export function cachedItems(store: Store, lang: string, type: ItemType): Map<number, Json> {
  return new Map(
    [...store.items.iterate(lang, type)].map((row) => [row.id, JSON.parse(row.json) as Json]),
  );
}

/** Every item, field and status the credentials see, and nothing else live in the cache. */
export async function expectItemsEqual(
  store: Store,
  site: ReferenceSite,
  languages: readonly string[],
  mode: Mode,
): Promise<void> {
  for (const lang of languages) {
    for (const type of TYPES) {
      const remote = await remoteItems(site, lang, type, mode);
      expect(remote.size).toBeGreaterThan(0);
      const cached = cachedItems(store, lang, type);
      expect(
        [...cached.keys()].sort((a, b) => a - b),
        `${lang}/${type} ids`,
      ).toEqual([...remote.keys()].sort((a, b) => a - b));
      for (const [id, item] of remote)
        expect(cached.get(id), `${lang}/${type}/${id}`).toEqual(item);
    }
  }
}

/** Every revision and autosave of every post and page, as the site lists them. */
export async function expectRevisionsEqual(
  store: Store,
  site: ReferenceSite,
  languages: readonly string[],
): Promise<number> {
  let checked = 0;
  for (const lang of languages) {
    for (const type of ['posts', 'pages'] as const) {
      for (const id of (await remoteItems(site, lang, type, 'edit')).keys()) {
        const autosaves = (
          await getJson(site, lang, `/cms/v2/${type}/${id}/autosaves`, {
            query: { context: 'edit' },
            auth: true,
          })
        ).body as Json[];
        const revisions = (
          await getJson(site, lang, `/cms/v2/${type}/${id}/revisions`, {
            query: { context: 'edit', per_page: 100 },
            auth: true,
          })
        ).body as Json[];
        const autosaveIds = new Set(autosaves.map((a) => a.id));
        const byId = (list: Json[]) => [...list].sort((a, b) => a.id - b.id);
        expect(
          byId(store.autosaves.list(lang, type, id).map((r) => JSON.parse(r.json))),
          `${lang} ${type} ${id} autosaves`,
        ).toEqual(byId(autosaves));
        expect(
          byId(store.revisions.list(lang, type, id).map((r) => JSON.parse(r.json))),
          `${lang} ${type} ${id} revisions`,
        ).toEqual(byId(revisions.filter((r) => !autosaveIds.has(r.id))));
        checked += autosaves.length + revisions.length;
      }
    }
  }
  return checked;
}

/** Every file of every media item is in the cache, and its bytes hash to what the site serves. */
export async function expectMediaFiles(
  store: Store,
  site: ReferenceSite,
  languages: readonly string[],
  mode: Mode,
): Promise<number> {
  let files = 0;
  for (const lang of languages) {
    for (const item of (await remoteItems(site, lang, 'media', mode)).values()) {
      for (const url of mediaItemUrls(item)) {
        const file = store.media.getFile(url);
        expect(file, url).toBeDefined();
        const bytes = Buffer.from(await (await fetch(url)).arrayBuffer());
        expect(file?.sha256, url).toBe(createHash('sha256').update(bytes).digest('hex'));
        const blob = store.media.getBlob(file!.sha256)!;
        expect(createHash('sha256').update(blob).digest('hex')).toBe(file!.sha256);
        files += 1;
      }
    }
  }
  return files;
}

/**
 * What the offline build needs for the public posts and pages: every image and uploaded file
 * their content uses (from the site's own origin) is in `media_files`, and every standalone URL
 * has an oEmbed cache entry (only the site's own URLs without credentials). Returns counts.
 */
export async function expectAssets(
  store: Store,
  site: ReferenceSite,
  lang: string,
  mode: Mode,
): Promise<{ files: number; embeds: number }> {
  let files = 0;
  let embeds = 0;
  for (const type of ['posts', 'pages'] as const) {
    for (const item of (await remoteItems(site, lang, type, mode)).values()) {
      if (!isPublicItem(item)) continue;
      const html = renderedContent(item);
      for (const url of contentMediaUrls(html, item.link)) {
        if (new URL(url).origin !== new URL(site.url).origin) continue;
        expect(store.media.getFile(url), `${url} in ${type} ${item.id}`).toBeDefined();
        files += 1;
      }
      for (const url of findEmbedUrls(html)) {
        const own = new URL(url).origin === new URL(site.url).origin;
        const entry = store.oembed.get(url, 600);
        if (own || mode === 'edit') {
          expect(entry, `oEmbed of ${url}`).toBeDefined();
          embeds += 1;
        } else {
          expect(entry).toBeUndefined();
        }
      }
    }
  }
  return { files, embeds };
}
