import { expect } from 'vitest';
import { resolveSettings, type Settings } from '../../src/config/settings.js';
import type { ItemType, Store } from '../../src/store/index.js';
import { filesComparison, revisionsComparison } from './reliability-backup.js';
import { servedItems, siteRecords, type Audience } from './reliability-compare.js';
import { credentialEnv } from './cli-args.js';
import type { Json, ReferenceSite } from './reference.js';

/**
 * Checks for the pull tests: what the site holds (its own records and files, and its answers
 * over HTTP, independently of the crawler) against what the cache holds. Nothing here comes
 * from the client's rules in `src/sync` or `src/transform`.
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
      : credentialEnv(
          options.auth === 'wrong'
            ? {
                credentials: {
                  user: site.credentials.user,
                  password: 'wron gpas swor dxxx xxxx xxxx',
                },
              }
            : site,
        );
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

/**
 * Every revision and autosave of every post and page the site holds (any status), as the
 * site's own store has them (`reliability-backup.ts`). Returns how many were compared.
 */
export function expectRevisionsEqual(
  store: Store,
  site: ReferenceSite,
  languages: readonly string[],
): number {
  let compared = 0;
  const problems: string[] = [];
  for (const lang of languages) {
    const result = revisionsComparison(store, site, lang);
    problems.push(...result.problems);
    compared += result.revisions + result.autosaves;
  }
  expect(problems).toEqual([]);
  return compared;
}

/**
 * Every file of every media item the audience sees is in the cache, and its bytes hash to
 * the site's own bytes (read from the site's store, not over the crawler's URLs).
 */
export function expectMediaFiles(
  store: Store,
  site: ReferenceSite,
  languages: readonly string[],
  mode: Mode,
): number {
  let files = 0;
  const problems: string[] = [];
  for (const lang of languages) {
    const owners = new Set(siteRecords(site, lang, 'media', mode).map((record) => record.id));
    const result = filesComparison(store, site, lang, owners);
    problems.push(...result.problems);
    files += result.files;
  }
  expect(problems).toEqual([]);
  return files;
}

/** Absolute URLs of the site's own uploads in a text (src, href and srcset alike). */
function uploadUrls(site: ReferenceSite, lang: string, text: string): string[] {
  const prefix = `${site.url}/${lang}/cms-content/uploads/`.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
  return [...new Set(text.match(new RegExp(`${prefix}[^\\s"'<>,]+`, 'g')) ?? [])];
}

/**
 * URLs standing alone, where the site's editor makes an embed: on a line of their own in an
 * embed block, or as the only text of a paragraph.
 */
function standaloneUrls(text: string): string[] {
  const found = text.matchAll(/(?:<p>|__wrapper">\n)(https?:\/\/[^\s<"]+)(?:<\/p>|\n<\/div>)/g);
  return [...new Set([...found].map((match) => match[1]!))];
}

/**
 * What the offline build needs for the public posts and pages (published, no password, from
 * the site's records): every upload of the site their content uses is in `media_files`, and
 * every standalone URL has an oEmbed cache entry (anonymously only the site's own URLs: other
 * sites' go through the proxy, which needs credentials). Returns counts.
 */
export function expectAssets(
  store: Store,
  site: ReferenceSite,
  lang: string,
  mode: Mode,
): { files: number; embeds: number } {
  let files = 0;
  let embeds = 0;
  for (const type of ['posts', 'pages'] as const) {
    for (const record of site.control.listItems(lang, type)) {
      if (record.status !== 'publish' || record.password !== '') continue;
      for (const url of uploadUrls(site, lang, record.content)) {
        expect(store.media.getFile(url), `${url} in ${type} ${record.id}`).toBeDefined();
        files += 1;
      }
      for (const url of standaloneUrls(record.content)) {
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
