import { describe, expect, it } from 'vitest';
import type { Store } from '../../../src/store/index.js';
import { status } from '../../../src/sync/cache-status.js';
import { page, post } from '../../helpers/store/item-fixtures.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';

/**
 * `status` reads the cache only: every figure below is what the test itself put in the cache
 * (items by status, tombstones, sync state, queued work, revisions, files, runs), so the
 * expected report is known without asking src/ how it counts.
 */
describe('cache status', () => {
  const fixture = useClockedStore();

  function media(id: number, overrides: Record<string, unknown> = {}) {
    return { ...post(id), type: 'attachment', status: 'inherit', ...overrides };
  }

  /** pl: posts of four statuses and one unusual one, a tombstone; pages; media; es: state only. */
  function fill(store: Store): void {
    store.items.upsertPage('pl', 'posts', [
      post(1),
      post(2),
      post(3, { status: 'draft' }),
      post(4, { status: 'private' }),
      post(5, { status: 'trash' }),
      post(6, { status: 'odd-status' }),
      post(7),
    ]);
    store.items.tombstone('pl', 'posts', [7]);
    store.items.upsertPage('pl', 'pages', [page(20, { status: 'future' }), page(21)]);
    store.items.tombstone('pl', 'pages', [20, 21]);
    store.items.upsertPage('pl', 'media', [media(30), media(31, { status: 'private' })]);
    store.syncState.set('pl', 'posts', {
      watermarkGmt: '2024-04-30T08:00:00',
      context: 'edit',
      remoteTotal: 6,
      localTotal: 6,
      cursor: null,
    });
    fixture.clock = new Date('2024-05-02T11:00:00.000Z');
    store.syncState.set('es', 'pages', { cursor: { after: 12 }, context: 'view' });
    store.syncQueue.add('pl', 'revisions', 'posts', [1, 2]);
    store.syncQueue.add('pl', 'assets', 'posts', [1, 2, 3]);
    store.syncQueue.add('pl', 'assets', 'media', [30]);
    store.syncQueue.add('pl', 'children', 'pages', [21]);
    store.syncQueue.add('es', 'assets', 'pages', [8, 9]);
  }

  it('reports each language × collection with statuses, tombstones, crawl state and queued work', () => {
    const { store } = fixture;
    fill(store);
    const report = status(store);
    expect(report.file).toBe(fixture.temp.file);
    expect(report.languages).toEqual(['es', 'pl']);
    expect(report.collections).toEqual([
      {
        lang: 'es',
        collection: 'pages',
        live: 0,
        deleted: 0,
        statuses: {},
        watermark: null,
        interrupted: true,
        context: 'view',
        remoteTotal: null,
        localTotal: null,
        updatedAt: '2024-05-02T11:00:00.000Z',
        pending: { revisions: 0, assets: 2, children: 0 },
      },
      {
        lang: 'pl',
        collection: 'posts',
        live: 6,
        deleted: 1,
        statuses: { publish: 2, draft: 1, private: 1, trash: 1, other: 1 },
        watermark: '2024-04-30T08:00:00',
        interrupted: false,
        context: 'edit',
        remoteTotal: 6,
        localTotal: 6,
        updatedAt: '2024-05-01T10:00:00.000Z',
        pending: { revisions: 2, assets: 3, children: 0 },
      },
      {
        lang: 'pl',
        collection: 'pages',
        live: 0,
        deleted: 2,
        statuses: {},
        watermark: null,
        interrupted: false,
        context: null,
        remoteTotal: null,
        localTotal: null,
        updatedAt: null,
        pending: { revisions: 0, assets: 0, children: 1 },
      },
      {
        lang: 'pl',
        collection: 'media',
        live: 2,
        deleted: 0,
        statuses: { inherit: 1, private: 1 },
        watermark: null,
        interrupted: false,
        context: null,
        remoteTotal: null,
        localTotal: null,
        updatedAt: null,
        pending: { revisions: 0, assets: 1, children: 0 },
      },
    ]);
    // Only non-zero statuses are listed, and no `other` when every status is a known one.
    expect(Object.keys(report.collections[3]!.statuses).sort()).toEqual(['inherit', 'private']);
  });

  it('counts revisions and autosaves per language, files per language and blobs once', () => {
    const { store } = fixture;
    store.items.upsertPage('pl', 'posts', [post(1)]);
    store.items.upsertPage('es', 'posts', [post(1)]);
    store.revisions.upsertMany('pl', 'posts', 1, [post(101), post(102)]);
    store.autosaves.upsertMany('pl', 'posts', 1, [post(103)]);
    store.revisions.upsertMany('es', 'posts', 1, [post(104)]);
    const a = store.media.putBlob(Buffer.from('first file, 25 bytes long'));
    const b = store.media.putBlob(Buffer.from('second'));
    store.media.setFile({ url: 'http://s.test/pl/a.png', sha256: a.sha256, lang: 'pl' });
    store.media.setFile({ url: 'http://s.test/pl/b.png', sha256: b.sha256, lang: 'pl' });
    store.media.setFile({ url: 'http://s.test/es/a.png', sha256: a.sha256, lang: 'es' });
    const report = status(store);
    expect(report.revisions).toEqual({
      es: { revisions: 1, autosaves: 0 },
      pl: { revisions: 2, autosaves: 1 },
    });
    expect(report.media).toEqual({ files: 3, blobs: 2, bytes: 25 + 6 });
  });

  it('lists the latest pull runs, newest first, five unless told', () => {
    const { store } = fixture;
    const pulls: number[] = [];
    for (let n = 0; n < 7; n += 1) {
      const id = store.runs.start('pull');
      store.runs.finish(id, 'ok', { created: n });
      pulls.push(id);
      store.runs.start('build');
    }
    const newest = [...pulls].reverse();
    expect(status(store).runs.map((run) => run.id)).toEqual(newest.slice(0, 5));
    expect(status(store, { runs: 2 }).runs.map((run) => run.id)).toEqual(newest.slice(0, 2));
    expect(status(store).runs.every((run) => run.command === 'pull')).toBe(true);
    expect(status(store).runs[0]!.counters).toEqual({ created: 6 });
  });

  it('reports an empty cache as empty', () => {
    expect(status(fixture.store)).toEqual({
      file: fixture.temp.file,
      languages: [],
      collections: [],
      revisions: {},
      media: { files: 0, blobs: 0, bytes: 0 },
      runs: [],
    });
  });
});
