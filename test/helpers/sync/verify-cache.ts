import { expect } from 'vitest';
import type { ItemType, Store } from '../../../src/store/index.js';
import { getJson, type ReferenceSite } from '../reference.js';

/** Every status a backup reader lists, per collection (the interface's status lists). */
const EVERY_STATUS: Readonly<Record<ItemType, readonly string[]>> = {
  posts: ['publish', 'future', 'draft', 'pending', 'private', 'trash'],
  pages: ['publish', 'future', 'draft', 'pending', 'private', 'trash'],
  media: ['inherit', 'private', 'trash'],
};

export const COLLECTIONS: readonly ItemType[] = ['posts', 'pages', 'media'];

/**
 * Copies into `store` what the site lists of one collection to an anonymous reader (`view`)
 * or to its editor with every status (`edit`), read over HTTP: a cache as a clean pull of that
 * reader leaves it, made without the pull. Returns the records' ids.
 */
export async function mirrorCollection(
  store: Store,
  site: ReferenceSite,
  lang: string,
  type: ItemType,
  mode: 'view' | 'edit',
): Promise<number[]> {
  const response = await getJson(site, lang, `/cms/v2/${type}`, {
    query:
      mode === 'view'
        ? { per_page: 100 }
        : { per_page: 100, context: 'edit', status: EVERY_STATUS[type] },
    auth: mode === 'edit',
  });
  expect(response.status).toBe(200);
  const records = response.body as { id: number }[];
  expect(records.length).toBeLessThan(100);
  if (records.length > 0) store.items.upsertPage(lang, type, records, { context: mode });
  return records.map((record) => record.id);
}

/** `mirrorCollection` of every collection of every language given. */
export async function mirrorSite(
  store: Store,
  site: ReferenceSite,
  languages: readonly string[],
  mode: 'view' | 'edit',
): Promise<void> {
  for (const lang of languages) {
    for (const type of COLLECTIONS) await mirrorCollection(store, site, lang, type, mode);
  }
}

/** An object nested `depth` levels deep (deeper than the cache stores). */
export function nested(depth: number): Record<string, unknown> {
  let value: Record<string, unknown> = { leaf: true };
  for (let n = 1; n < depth; n += 1) value = { inner: value };
  return value;
}
