import { existsSync, readdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { pull } from '../../../src/sync/index.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import {
  expectAssets,
  expectItemsEqual,
  expectMediaFiles,
  expectRevisionsEqual,
  settingsFor,
} from '../../helpers/mirror-check.js';

describe('pull of the seeded reference site', () => {
  const fixture = useSiteAndCache();

  it('with credentials and --backup mirrors every item, status, revision, autosave and media file; a second pull is cheap and changes nothing', async () => {
    const { site, temp } = fixture;
    const settings = settingsFor(site, temp.file, { backup: true });
    const first = await pull(settings);
    expect(first.status).toBe('ok');
    expect(first.total.created).toBeGreaterThan(60);
    expect(first.total.revisions).toBeGreaterThan(10);
    expect(first.total.skipped).toBe(0);

    const store = openStore(temp.file, { readonly: true });
    try {
      await expectItemsEqual(store, site, ['pl', 'es'], 'edit');
      expect(expectRevisionsEqual(store, site, ['pl', 'es'])).toBeGreaterThan(10);
      expect(expectMediaFiles(store, site, ['pl', 'es'], 'edit')).toBeGreaterThan(6);
      const assets = expectAssets(store, site, 'pl', 'edit');
      expect(assets.files).toBeGreaterThan(0);
      expect(assets.embeds).toBeGreaterThan(0);
      // A resolved embed of another site (through the proxy) is cached with its answer.
      expect(site.requests.some((r) => r.path === '/oembed/1.0/proxy')).toBe(true);
      // Every status the site holds is part of the backup: each of its posts and pages of
      // every status is live in the cache with that status (read from the site's records).
      for (const lang of ['pl', 'es'])
        for (const type of ['posts', 'pages'] as const)
          for (const record of site.control.listItems(lang, type))
            expect(
              store.items.get(lang, type, record.id),
              `${lang}/${type}/${record.id}`,
            ).toMatchObject({
              status: record.status,
              deletedAt: null,
            });
      for (const status of ['draft', 'pending', 'private', 'future', 'trash'])
        expect(store.items.count('pl', 'posts', { statuses: [status] }), status).toBeGreaterThan(0);
      expect(store.syncQueue.counts()).toEqual([]);
      const info = store.siteInfo.get('pl')?.data as Record<string, unknown>;
      expect(info).toMatchObject({ lang: 'pl', gmt_offset: '2', home: `${site.url}/pl/` });
      expect(info['seo']).toMatchObject({
        source: 'configuration',
        site_representation: { company_or_person: 'company' },
      });
      const run = store.runs.get(first.runId);
      expect(run?.status).toBe('ok');
      expect(run?.counters?.['total']).toMatchObject({ created: first.total.created });
    } finally {
      store.close();
    }

    site.control.clearLog();
    const second = await pull(settings);
    expect(second.total).toMatchObject({
      created: 0,
      updated: 0,
      deleted: 0,
      revisions: 0,
      media_bytes: 0,
    });
    for (const lang of ['pl', 'es']) {
      const requests = site.requests.filter((r) => r.lang === lang && r.path !== '/');
      // At most 3 per language x collection after the index (here: the credential check, the
      // seo configuration, and keyset + count per collection).
      expect(requests.length).toBeLessThanOrEqual(9);
      expect(requests.filter((r) => r.query['include[]'] !== undefined)).toEqual([]);
    }
  });

  it('without credentials mirrors the published content in context=view', async () => {
    const { site, temp } = fixture;
    const summary = await pull(settingsFor(site, temp.file, { auth: false }));
    expect(summary.status).toBe('ok');
    expect(site.requests.every((r) => !r.authenticated)).toBe(true);
    const store = openStore(temp.file, { readonly: true });
    try {
      await expectItemsEqual(store, site, ['pl', 'es'], 'view');
      expect(store.items.count('pl', 'posts', { statuses: ['draft', 'private', 'trash'] })).toBe(0);
      expect(store.revisions.count('pl')).toBe(0);
      // Featured images and media work offline: every media item's files were fetched.
      expectMediaFiles(store, site, ['pl'], 'view');
      expect(expectAssets(store, site, 'es', 'view').files).toBeGreaterThan(0);
      // Without credentials the proxy (other sites' URLs) is never asked.
      expect(site.requests.some((r) => r.path === '/oembed/1.0/proxy')).toBe(false);
      // The site representation comes from an item's schema graph.
      const seo = (store.siteInfo.get('es')?.data as Record<string, unknown>)['seo'];
      expect(seo).toMatchObject({ source: 'schema' });
    } finally {
      store.close();
    }
  });

  it('refuses wrong credentials before crawling instead of quietly mirroring less', async () => {
    const { site, temp } = fixture;
    const error = await pull(settingsFor(site, temp.file, { auth: 'wrong' })).catch(
      (e: unknown) => e,
    );
    expect(error).toMatchObject({ code: 'E_AUTH', exitCode: 2 });
    expect(String((error as Error).message)).not.toContain('wron gpas');
    expect(
      site.requests.filter((r) => r.path.startsWith('/cms/v2/') && r.query['context'] !== 'edit'),
    ).toEqual([]);
    // Refused before the cache is opened: no cache file (not even an empty one) is left.
    expect(existsSync(temp.file)).toBe(false);
    expect(existsSync(dirname(temp.file)) ? readdirSync(dirname(temp.file)) : []).toEqual([]);
  });

  it('stops between requests when its signal aborts, and the next pull finishes the job', async () => {
    const { site, temp } = fixture;
    const settings = settingsFor(site, temp.file, { languages: ['pl'] });
    const abort = new AbortController();
    const reason = new Error('stop now');
    const stopped = await pull(settings, {
      signal: abort.signal,
      onProgress: (event) => {
        if (event.type === 'progress' && event.phase === 'crawl' && event.done > 0)
          abort.abort(reason);
      },
    }).catch((error: unknown) => error);
    expect(stopped).toBe(reason);
    const summary = await pull(settings);
    expect(summary.status).toBe('ok');
    const store = openStore(temp.file, { readonly: true });
    try {
      await expectItemsEqual(store, site, ['pl'], 'edit');
      expect(store.runs.list({ command: 'pull' }).map((run) => run.status)).toEqual([
        'ok',
        'failed',
      ]);
    } finally {
      store.close();
    }
  });

  it('refuses --backup without credentials (revisions need them)', async () => {
    const { site, temp } = fixture;
    await expect(
      pull(settingsFor(site, temp.file, { auth: false, backup: true })),
    ).rejects.toMatchObject({
      code: 'E_CONFIG',
      exitCode: 2,
    });
    expect(site.requests).toEqual([]);
  });
});
