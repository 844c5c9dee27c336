import { existsSync, readdirSync, readlinkSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AccessError } from '../../../src/errors.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { compare, verify, type VerifyReport } from '../../../src/sync/verify.js';
import { settingsFor } from '../../helpers/mirror-check.js';
import { useSite } from '../../helpers/mirror-fixture.js';
import { getJson } from '../../helpers/reference.js';
import { COLLECTIONS, mirrorSite, nested } from '../../helpers/sync/verify-cache.js';
import { startListingProxy } from '../../helpers/sync/verify-proxy.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

/**
 * `verify` with the real client against the reference site, on a cache filled from what the
 * site lists over HTTP (a clean pull's result, made without the pull): the site's records and
 * request log are the oracle of what must be reported.
 */
describe('verify against the reference site', () => {
  const fixture = useSite({ posts: 4, pages: 2, media: 2, languages: ['pl', 'es'] });
  let temp: TempCache;
  beforeEach(() => {
    temp = tempCache();
  });
  afterEach(() => temp.cleanup());

  async function fill(mode: 'view' | 'edit', edit?: (store: Store) => void): Promise<void> {
    const store = openStore(temp.file);
    try {
      await mirrorSite(store, fixture.site, ['pl', 'es'], mode);
      edit?.(store);
    } finally {
      store.close();
    }
  }

  function settings(auth: boolean) {
    const made = settingsFor(fixture.site, temp.file, { languages: ['pl', 'es'], auth });
    made.http = { ...made.http, retries: 0 };
    return made;
  }

  /** Ids the site lists to an anonymous reader. */
  async function listed(lang: string, type: string): Promise<number[]> {
    const response = await getJson(fixture.site, lang, `/cms/v2/${type}`, {
      query: { per_page: 100 },
    });
    return (response.body as { id: number }[]).map((record) => record.id);
  }

  it('a clean cache verifies clean, every language × collection counted, in order', async () => {
    await fill('view');
    fixture.site.control.clearLog();
    const report = await verify(settings(false));
    expect(report.requests).toBe(fixture.site.requests.length);
    expect(report.requests).toBeGreaterThan(6);
    expect(report.ok).toBe(true);
    expect(report.mode).toBe('view');
    expect(report.differences).toEqual([]);
    const expected = [];
    for (const lang of ['es', 'pl']) {
      for (const type of COLLECTIONS) {
        const ids = await listed(lang, type);
        expected.push({
          lang,
          collection: type,
          remote: ids.length,
          local: ids.length,
          missing: 0,
          extra: 0,
          stale: 0,
          skipped: 0,
        });
      }
    }
    expect(report.collections).toEqual(expected);
    // The cache is closed again: no file descriptor of this process is left on it.
    expect(openFilesUnder(temp.dir)).toEqual([]);
    // Every listing asks for the pull's filter in id order.
    const lists = fixture.site.requests
      .slice(0, report.requests)
      .filter((r) => r.path === '/cms/v2/posts');
    expect(lists.map((r) => r.lang).sort()).toEqual(['es', 'pl']);
    for (const r of lists) {
      expect(r.query).toMatchObject({ orderby: 'id', order: 'asc', context: 'view' });
    }
  });

  it('names what the site added, changed and removed since, and ignores tombstones', async () => {
    const { control } = fixture.site;
    const [post] = await listed('pl', 'posts');
    const [page] = await listed('pl', 'pages');
    const [goneMedia, keptMedia] = await listed('pl', 'media');
    await fill('view', (store) => {
      // Deleted on the site and tombstoned by a pull: no difference.
      store.items.tombstone('pl', 'media', [goneMedia!, keptMedia!]);
    });
    control.deleteItem('pl', 'media', goneMedia!);
    control.setClock(() => new Date('2030-01-02T03:04:05Z'));
    control.updateItem('pl', 'posts', post!, { title: 'changed' });
    control.deleteItem('pl', 'pages', page!);
    const [added] = control.createItems('es', 'posts', 1);
    const cache = openStore(temp.file, { readonly: true });
    const oldPost = cache.items.get('pl', 'posts', post!)!.modifiedGmt;
    const oldPage = cache.items.get('pl', 'pages', page!)!.modifiedGmt;
    cache.close();
    expect(oldPost).toMatch(/^20\d\d-/);

    const report = await verify(settings(false));
    expect(report.ok).toBe(false);
    expect(byPlace(report)).toEqual([
      {
        lang: 'es',
        collection: 'posts',
        id: added!.id,
        kind: 'missing',
        remote: '2030-01-02T03:04:05',
      },
      {
        lang: 'pl',
        collection: 'media',
        id: keptMedia!,
        kind: 'missing',
        remote: expect.any(String),
      },
      { lang: 'pl', collection: 'pages', id: page!, kind: 'extra', local: oldPage },
      {
        lang: 'pl',
        collection: 'posts',
        id: post!,
        kind: 'stale',
        remote: '2030-01-02T03:04:05',
        local: oldPost,
      },
    ]);
    const summary = (lang: string, type: string) =>
      report.collections.find((c) => c.lang === lang && c.collection === type)!;
    expect(summary('pl', 'posts')).toMatchObject({ stale: 1, missing: 0, extra: 0 });
    expect(summary('pl', 'pages')).toMatchObject({ extra: 1, missing: 0, stale: 0 });
    expect(summary('es', 'posts')).toMatchObject({ missing: 1, extra: 0, stale: 0 });
    expect(summary('pl', 'media')).toMatchObject({ missing: 1, extra: 0, stale: 0 });
    expect(summary('es', 'pages')).toMatchObject({ missing: 0, extra: 0, stale: 0 });

    // At most `limit` differences listed; the counts stay complete.
    const limited = await verify(settings(false), { limit: 2 });
    expect(limited.differences).toHaveLength(2);
    expect(limited.collections).toEqual(report.collections);
  });

  it('is not ok when a collection has one missing and one extra item (and nothing else)', async () => {
    const { control } = fixture.site;
    const [gone] = await listed('pl', 'posts');
    await fill('view');
    control.deleteItem('pl', 'posts', gone!);
    control.createItems('pl', 'posts', 1);
    const report = await verify(settings(false));
    expect(report.differences.map((d) => d.kind).sort()).toEqual(['extra', 'missing']);
    expect(report.ok).toBe(false);
  });

  it('is not ok when a collection has one extra and one stale item (and nothing else)', async () => {
    const { control } = fixture.site;
    const [gone, changed] = await listed('pl', 'pages');
    expect(changed).toBeDefined();
    await fill('view');
    control.deleteItem('pl', 'pages', gone!);
    control.setClock(() => new Date('2032-01-01T00:00:00Z'));
    control.updateItem('pl', 'pages', changed!, { title: 'changed' });
    const report = await verify(settings(false));
    expect(report.differences.map((d) => d.kind).sort()).toEqual(['extra', 'stale']);
    expect(report.ok).toBe(false);
  });

  it('a record the pull skips (nested too deep) is reported as skipped, not as a difference', async () => {
    const { control } = fixture.site;
    const [kept, fresh] = await listed('pl', 'posts');
    await fill('view', (store) => {
      store.items.tombstone('pl', 'posts', [fresh!]);
    });
    control.setClock(() => new Date('2031-01-01T00:00:00Z'));
    control.updateItem('pl', 'posts', kept!, { meta: nested(150) });
    control.updateItem('pl', 'posts', fresh!, { meta: nested(150) });
    const report = await verify(settings(false));
    expect(report.ok).toBe(true);
    expect(byPlace(report)).toEqual([
      { lang: 'pl', collection: 'posts', id: Math.min(kept!, fresh!), kind: 'skipped' },
      { lang: 'pl', collection: 'posts', id: Math.max(kept!, fresh!), kind: 'skipped' },
    ]);
    const posts = report.collections.find((c) => c.lang === 'pl' && c.collection === 'posts')!;
    const ids = await listed('pl', 'posts');
    expect(posts).toEqual({
      lang: 'pl',
      collection: 'posts',
      remote: ids.length,
      local: ids.length - 1,
      missing: 0,
      extra: 0,
      stale: 0,
      skipped: 2,
    });
  });

  it('with credentials compares every status: a cache of published items only misses the rest', async () => {
    await fill('view');
    const report = await verify(settings(true));
    expect(report.mode).toBe('edit');
    expect(report.ok).toBe(false);
    const unpublished = fixture.site.control
      .listItems('pl', 'posts')
      .filter((item) => item.status !== 'publish')
      .map((item) => item.id)
      .sort((a, b) => a - b);
    expect(unpublished.length).toBeGreaterThan(0);
    const missing = report.differences
      .filter((d) => d.lang === 'pl' && d.collection === 'posts')
      .map((d) => [d.kind, d.id]);
    expect(missing).toEqual(unpublished.map((id) => ['missing', id]));
    const edited = fixture.site.requests.filter(
      (r) => r.path === '/cms/v2/posts' && r.query['orderby'] === 'id',
    );
    expect(edited.every((r) => r.query['context'] === 'edit')).toBe(true);
  });

  it('a cache filled with every status verifies clean with credentials', async () => {
    await fill('edit');
    const report = await verify(settings(true));
    expect(report.differences).toEqual([]);
    expect(report.ok).toBe(true);
  });

  it('refuses a cache that does not exist, and does not create one', async () => {
    const made = settings(false);
    made.cache = `${temp.dir}/absent.sqlite`;
    await expect(verify(made)).rejects.toThrow(/absent\.sqlite/);
    expect(existsSync(made.cache)).toBe(false);
  });

  it('refuses credentials of a weak role with the advice of a pull without them', async () => {
    await fill('view');
    const made = settings(false);
    made.credentials = fixture.site.roleCredentials.subscriber;
    const error = await verify(made).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccessError);
    expect((error as AccessError).message).toMatch(
      /accepted the credentials in CMS_USER\/CMS_APP_PASSWORD.*, or pull without CMS_USER\/CMS_APP_PASSWORD \(published content only\)$/,
    );
    expect((error as AccessError).message).not.toMatch(/--backup/);
  });

  it('ignores listed records that are null or have no numeric id, and reads a non-string modified_gmt as none', async () => {
    await fill('view');
    const [first] = await listed('pl', 'posts');
    const cache = openStore(temp.file, { readonly: true });
    const local = cache.items.get('pl', 'posts', first!)!.modifiedGmt;
    cache.close();
    const proxy = await startListingProxy(fixture.site, '/pl/cms-json/cms/v2/posts', (records) => [
      null,
      { id: '777', modified_gmt: '2024-01-01T00:00:00' },
      ...records.map((record) =>
        (record as { id: number }).id === first
          ? { ...(record as object), modified_gmt: null }
          : record,
      ),
    ]);
    try {
      const made = settings(false);
      made.site = proxy.url;
      const report = await verify(made);
      expect(report.differences).toEqual([
        { lang: 'pl', collection: 'posts', id: first, kind: 'stale', remote: undefined, local },
      ]);
    } finally {
      await proxy.close();
    }
  });

  it('stops with an error naming the URL when the site fails', async () => {
    await fill('view');
    fixture.site.control.setFaults({ error: 1 });
    await expect(verify(settings(false))).rejects.toThrow(
      `${fixture.site.url}/pl/cms-json/ is not a cms-json site: it answered 500`,
    );
  });
});

/** Paths under `dir` that this process holds open (Linux: /proc/self/fd). */
function openFilesUnder(dir: string): string[] {
  return readdirSync('/proc/self/fd').flatMap((fd) => {
    try {
      const target = readlinkSync(`/proc/self/fd/${fd}`);
      return target.startsWith(dir) ? [target] : [];
    } catch {
      return [];
    }
  });
}

function byPlace(report: VerifyReport) {
  return [...report.differences].sort((a, b) =>
    a.lang !== b.lang
      ? a.lang < b.lang
        ? -1
        : 1
      : a.collection !== b.collection
        ? a.collection < b.collection
          ? -1
          : 1
        : a.id - b.id,
  );
}

describe('compare (the cache against a listing)', () => {
  const fixture = useClockedStore();

  it('treats a cache row without modified_gmt as equal to a record without one', () => {
    const { store } = fixture;
    store.items.upsertPage('pl', 'posts', [
      { id: 3, status: 'publish' },
      { id: 1, status: 'publish', modified_gmt: '2024-01-01T00:00:00' },
      { id: 2, status: 'publish', modified_gmt: '2024-01-01T00:00:00' },
    ]);
    const remote = new Map<number, string | undefined>([
      [3, undefined],
      [1, '2024-01-01T00:00:00'],
      [2, undefined],
      [9, undefined],
    ]);
    const result = compare(store, 'pl', 'posts', remote, new Set([5]));
    expect(result.differences).toEqual([
      {
        lang: 'pl',
        collection: 'posts',
        id: 2,
        kind: 'stale',
        remote: undefined,
        local: '2024-01-01T00:00:00',
      },
      { lang: 'pl', collection: 'posts', id: 5, kind: 'skipped' },
      { lang: 'pl', collection: 'posts', id: 9, kind: 'missing', remote: undefined },
    ]);
    expect(result.summary).toEqual({
      lang: 'pl',
      collection: 'posts',
      remote: 5,
      local: 3,
      missing: 1,
      extra: 0,
      stale: 1,
      skipped: 1,
    });
  });
});
