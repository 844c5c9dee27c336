/**
 * The one comparison of the reliability suite: "the cache equals the truth". The truth is the
 * reference site's own records (`control.listItems`), restricted to what the credentials see,
 * plus a content hash of each item's JSON as the site serves it (fetched over HTTP with faults
 * off, independently of the crawler). Which statuses a backup keeps is said here, from the
 * interface, never read from `src/`: an oracle that shares the client's list shrinks with it.
 * The cache side is `store.items`: live rows, and no tombstone left for an item the site still
 * has; given a snapshot of the site taken earlier, every item that has left the site since
 * must still be in the cache as a tombstone. In backup mode revisions, autosaves and media
 * files are compared too (`reliability-backup.ts`).
 *
 * Every item of each language × collection is compared on id, status, modified_gmt, title
 * and content hash; a difference names the language, collection and ids.
 */
import { expect } from 'vitest';
import { contentHash } from '../../src/store/canonical-json.js';
import type { ItemType, Store } from '../../src/store/index.js';
import { formatGmt } from '../../src/reference/site-dates.js';
import type { StoredItem } from '../../src/reference/index.js';
import { backupDifferences } from './reliability-backup.js';
import { getJson, type Json, type ReferenceSite } from './reference.js';

/** `edit`: the demo admin's credentials (every status a backup keeps); `view`: anonymous. */
export type Audience = 'edit' | 'view';

export const RELIABILITY_TYPES: readonly ItemType[] = ['posts', 'pages', 'media'];

/** What is compared of one item. */
export interface ItemFingerprint {
  readonly id: number;
  readonly status: string;
  readonly modifiedGmt: string;
  readonly title: string;
  /** sha256 of the canonical JSON of the item. */
  readonly hash: string;
}

/**
 * Whether the audience sees a stored record. A backup (credentials) keeps every status the
 * site holds but `auto-draft`, an editor's unsaved placeholder (the interface lists it as a
 * status filter; it is no content); anonymous visitors see published posts and pages and
 * `inherit` media.
 */
export function seenBy(audience: Audience, type: ItemType, record: StoredItem): boolean {
  if (audience === 'edit') return record.status !== 'auto-draft';
  return record.status === (type === 'media' ? 'inherit' : 'publish');
}

/** The site's stored records of a collection the audience sees (every status for `edit`). */
export function siteRecords(
  site: ReferenceSite,
  lang: string,
  type: ItemType,
  audience: Audience,
): StoredItem[] {
  return site.control.listItems(lang, type).filter((record) => seenBy(audience, type, record));
}

function rawTitle(json: Json): string {
  const title = json?.title;
  if (typeof title === 'string') return title;
  return String(title?.raw ?? title?.rendered ?? '');
}

/**
 * Every item of a collection as the site serves it to the audience, by id (all pages). With
 * credentials the listing asks for every status the site's records hold.
 */
export async function servedItems(
  site: ReferenceSite,
  lang: string,
  type: ItemType,
  audience: Audience,
): Promise<Map<number, Json>> {
  const items = new Map<number, Json>();
  const statuses = [...new Set(siteRecords(site, lang, type, audience).map((r) => r.status))];
  if (audience === 'edit' && statuses.length === 0) return items;
  for (let page = 1; ; page += 1) {
    const response = await getJson(site, lang, `/cms/v2/${type}`, {
      query: {
        per_page: 100,
        page,
        orderby: 'id',
        order: 'asc',
        context: audience,
        ...(audience === 'edit' ? { status: statuses } : {}),
      },
      auth: audience === 'edit',
    });
    if (response.status === 400 && response.body?.code === 'rest_post_invalid_page_number') break;
    expect(response.status, `${lang}/${type} listing page ${page}`).toBe(200);
    const body = response.body as Json[];
    for (const item of body) {
      expect(items.has(item.id), `${lang}/${type} lists ${item.id} twice`).toBe(false);
      items.set(item.id, item);
    }
    if (body.length < 100) break;
  }
  return items;
}

/**
 * The truth for one language × collection: the site's stored records the audience sees,
 * each with the hash of the JSON the site serves for it. Turns the site's faults off (the
 * comparison must not be disturbed by them).
 */
export async function siteTruth(
  site: ReferenceSite,
  lang: string,
  type: ItemType,
  audience: Audience,
): Promise<Map<number, ItemFingerprint>> {
  site.control.setFaults(undefined);
  const records = siteRecords(site, lang, type, audience);
  const served = await servedItems(site, lang, type, audience);
  // The HTTP listing and the stored records must describe the same set, or the truth is unclear.
  expect(
    [...served.keys()].sort((a, b) => a - b),
    `${lang}/${type}: the site's listing and its records`,
  ).toEqual(records.map((record) => record.id).sort((a, b) => a - b));
  const truth = new Map<number, ItemFingerprint>();
  for (const record of records) {
    truth.set(record.id, {
      id: record.id,
      status: record.status,
      modifiedGmt: formatGmt(record.modifiedGmt),
      title: record.title,
      hash: contentHash(served.get(record.id)),
    });
  }
  return truth;
}

/**
 * The cache side for one language × collection: live rows as fingerprints. Also checks that
 * each row's stored hash is the hash of its JSON (a torn write would break that).
 */
export function cacheFingerprints(
  store: Store,
  lang: string,
  type: ItemType,
): Map<number, ItemFingerprint> {
  const out = new Map<number, ItemFingerprint>();
  for (const row of store.items.iterate(lang, type)) {
    const json = JSON.parse(row.json) as Json;
    expect(row.contentHash, `${lang}/${type}/${row.id}: content_hash of its JSON`).toBe(
      contentHash(json),
    );
    expect(out.has(row.id), `${lang}/${type}/${row.id} twice in the cache`).toBe(false);
    out.set(row.id, {
      id: row.id,
      status: row.status ?? '',
      modifiedGmt: row.modifiedGmt ?? '',
      title: rawTitle(json),
      hash: row.contentHash,
    });
  }
  return out;
}

/**
 * Ids by `lang/type` that the cache must keep: live while the site shows them, a tombstone
 * once it does not. Taken from the site before a first pull (`siteSnapshot`), or from the
 * cache (`cacheSnapshot`) when the site changed while the cache was filled.
 */
export type SiteSnapshot = ReadonlyMap<string, ReadonlySet<number>>;

/** The ids each language × collection holds now, as the audience sees them. */
export function siteSnapshot(
  site: ReferenceSite,
  languages: readonly string[],
  audience: Audience = 'edit',
  types: readonly ItemType[] = RELIABILITY_TYPES,
): SiteSnapshot {
  const snapshot = new Map<string, Set<number>>();
  for (const lang of languages)
    for (const type of types)
      snapshot.set(
        `${lang}/${type}`,
        new Set(siteRecords(site, lang, type, audience).map((record) => record.id)),
      );
  return snapshot;
}

/** Every row the cache holds, live or tombstone, by `lang/type`: none of them may vanish. */
export function cacheSnapshot(
  store: Store,
  languages: readonly string[],
  types: readonly ItemType[] = RELIABILITY_TYPES,
): SiteSnapshot {
  const snapshot = new Map<string, Set<number>>();
  for (const lang of languages)
    for (const type of types)
      snapshot.set(
        `${lang}/${type}`,
        new Set(
          [...store.items.iterate(lang, type, { includeDeleted: true })].map((row) => row.id),
        ),
      );
  return snapshot;
}

/**
 * An item that must be kept as a tombstone: a row with `deleted_at` set. Fails when the row
 * is gone (a hard delete), or still live.
 */
export function expectTombstone(store: Store, lang: string, type: ItemType, id: number): void {
  const row = store.items.get(lang, type, id);
  expect(row, `${lang}/${type}/${id}: kept in the cache as a tombstone`).toBeDefined();
  expect(row!.deletedAt, `${lang}/${type}/${id}: deleted_at`).toEqual(expect.any(String));
  expect(JSON.parse(row!.json).id, `${lang}/${type}/${id}: its last JSON kept`).toBe(id);
}

/** Ids of `before` the site no longer shows that are not tombstones in the cache. */
function lostTombstones(
  store: Store,
  lang: string,
  type: ItemType,
  before: ReadonlySet<number> | undefined,
  truth: ReadonlyMap<number, ItemFingerprint>,
): string[] {
  const out: string[] = [];
  for (const id of before ?? []) {
    if (truth.has(id)) continue;
    const row = store.items.get(lang, type, id);
    if (row === undefined)
      out.push(`${lang}/${type}/${id}: left the site and is gone from the cache`);
    else if (row.deletedAt === null)
      out.push(`${lang}/${type}/${id}: left the site but is live in the cache`);
  }
  return out;
}

export interface CompareOptions {
  readonly languages: readonly string[];
  /** @default 'edit' */
  readonly audience?: Audience;
  /** @default all three collections */
  readonly types?: readonly ItemType[];
  /**
   * The site as it was before the runs under test (`siteSnapshot`): every item of it the
   * site no longer shows must be in the cache as a tombstone. @default no check
   */
  readonly before?: SiteSnapshot;
  /** Also compare revisions, autosaves and media files (a `--backup` pull). @default false */
  readonly backup?: boolean;
}
/** A list of differences, empty when the cache equals the truth. Pure; for messages and asserts. */
export function differences(
  label: string,
  cache: ReadonlyMap<number, ItemFingerprint>,
  truth: ReadonlyMap<number, ItemFingerprint>,
): string[] {
  const out: string[] = [];
  const missing = [...truth.keys()].filter((id) => !cache.has(id));
  const extra = [...cache.keys()].filter((id) => !truth.has(id));
  if (missing.length > 0) out.push(`${label}: missing from the cache: ${missing.join(', ')}`);
  if (extra.length > 0) out.push(`${label}: in the cache but not on the site: ${extra.join(', ')}`);
  for (const [id, want] of truth) {
    const have = cache.get(id);
    if (!have) continue;
    for (const field of ['status', 'modifiedGmt', 'title', 'hash'] as const) {
      if (have[field] !== want[field]) {
        out.push(
          `${label}/${id}: ${field} is ${JSON.stringify(have[field])}, the site has ${JSON.stringify(want[field])}`,
        );
      }
    }
  }
  return out;
}

/**
 * Asserts that every language × collection of the cache equals the site as the audience
 * sees it, that no tombstone remains for an item the site still has, that every item of
 * `before` the site no longer shows is a tombstone, and (backup) that revisions, autosaves and
 * media files equal the site's. Returns the number of items compared (so a caller can check
 * the comparison was not vacuous).
 */
export async function expectCacheEqualsSite(
  store: Store,
  site: ReferenceSite,
  options: CompareOptions,
): Promise<number> {
  const audience = options.audience ?? 'edit';
  const problems: string[] = [];
  let compared = 0;
  for (const lang of options.languages) {
    for (const type of options.types ?? RELIABILITY_TYPES) {
      const truth = await siteTruth(site, lang, type, audience);
      const cache = cacheFingerprints(store, lang, type);
      problems.push(...differences(`${lang}/${type}`, cache, truth));
      const tombstoned = [...store.items.iterate(lang, type, { includeDeleted: true })]
        .filter((row) => row.deletedAt !== null && truth.has(row.id))
        .map((row) => row.id);
      if (tombstoned.length > 0)
        problems.push(`${lang}/${type}: live on the site but tombstoned: ${tombstoned.join(', ')}`);
      problems.push(
        ...lostTombstones(store, lang, type, options.before?.get(`${lang}/${type}`), truth),
      );
      compared += truth.size;
    }
    if (options.backup) problems.push(...backupDifferences(store, site, lang).problems);
  }
  expect(problems).toEqual([]);
  return compared;
}
