import { describe, expect, it } from 'vitest';
import { contentHash, openStore } from '../../../src/store/index.js';
import { page, post } from '../../helpers/store/item-fixtures.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';

// Cases found by mutation testing (test/mutation/RESULTS.md): the kept history of a backup
// cache holds each stored version once, a `gone` row once per disappearance, and its reads
// answer by language, type, id and time exactly.

const cache = useClockedStore();
function at(iso: string): void {
  cache.clock = new Date(iso);
}

describe('item history: recording stored versions', () => {
  it('copies the stored item as it is, with the run that saw it and its fetch time', () => {
    const item = post(1, { status: 'private' });
    const runId = cache.store.runs.start('pull');
    cache.store.items.upsertPage('pl', 'posts', [item]);
    at('2024-05-01T11:00:00.000Z');
    expect(cache.store.itemVersions.recordStored('pl', 'posts', [1], runId)).toBe(1);
    expect(cache.store.itemVersions.versionsOf('pl', 'posts', 1)).toEqual([
      {
        seq: expect.any(Number),
        lang: 'pl',
        type: 'posts',
        id: 1,
        runId,
        seenAt: '2024-05-01T10:00:00.000Z',
        gone: false,
        status: 'private',
        modifiedGmt: item['modified_gmt'],
        contentHash: contentHash(item),
        json: JSON.stringify(item),
      },
    ]);
  });

  it('records only the ids given, of the language and type given, and nothing for none', () => {
    const runId = cache.store.runs.start('pull');
    cache.store.items.upsertPage('pl', 'posts', [post(1), post(2)]);
    cache.store.items.upsertPage('pl', 'pages', [page(1)]);
    cache.store.items.upsertPage('es', 'posts', [post(1)]);
    expect(cache.store.itemVersions.recordStored('pl', 'posts', [], runId)).toBe(0);
    expect(cache.store.itemVersions.versionsOf('pl', 'posts', 1)).toEqual([]);
    expect(cache.store.itemVersions.recordStored('pl', 'posts', [1, 99], runId)).toBe(1);
    expect(cache.store.itemVersions.versionsOf('pl', 'posts', 1)).toHaveLength(1);
    expect(cache.store.itemVersions.versionsOf('pl', 'posts', 2)).toEqual([]);
    expect(cache.store.itemVersions.versionsOf('pl', 'pages', 1)).toEqual([]);
    expect(cache.store.itemVersions.versionsOf('es', 'posts', 1)).toEqual([]);
  });

  it('adds a version only when the content changed since the latest one', () => {
    const first = cache.store.runs.start('pull');
    cache.store.items.upsertPage('pl', 'posts', [post(1)]);
    expect(cache.store.itemVersions.recordStored('pl', 'posts', [1], first)).toBe(1);
    const second = cache.store.runs.start('pull');
    expect(cache.store.itemVersions.recordStored('pl', 'posts', [1], second)).toBe(0);
    cache.store.items.upsertPage('pl', 'posts', [post(1, { title: { rendered: 'New' } })]);
    expect(cache.store.itemVersions.recordStored('pl', 'posts', [1], second)).toBe(1);
    // Back to the first content: it differs from the latest version, so it is kept again.
    cache.store.items.upsertPage('pl', 'posts', [post(1)]);
    expect(cache.store.itemVersions.recordStored('pl', 'posts', [1], second)).toBe(1);
    const versions = cache.store.itemVersions.versionsOf('pl', 'posts', 1);
    expect(versions.map((version) => version.runId)).toEqual([first, second, second]);
    expect(versions.map((version) => version.contentHash)).toEqual([
      contentHash(post(1)),
      contentHash(post(1, { title: { rendered: 'New' } })),
      contentHash(post(1)),
    ]);
    expect(versions[0]!.seq).toBeLessThan(versions[1]!.seq);
    expect(versions[1]!.seq).toBeLessThan(versions[2]!.seq);
  });

  it('does not record a tombstoned item as stored', () => {
    const runId = cache.store.runs.start('pull');
    cache.store.items.upsertPage('pl', 'posts', [post(1)]);
    cache.store.items.tombstone('pl', 'posts', [1]);
    expect(cache.store.itemVersions.recordStored('pl', 'posts', [1], runId)).toBe(0);
    expect(cache.store.itemVersions.versionsOf('pl', 'posts', 1)).toEqual([]);
  });

  it('records the item again after it was gone, even with the same content', () => {
    const runId = cache.store.runs.start('pull');
    cache.store.items.upsertPage('pl', 'posts', [post(1)]);
    cache.store.itemVersions.recordStored('pl', 'posts', [1], runId);
    cache.store.items.tombstone('pl', 'posts', [1]);
    cache.store.itemVersions.recordGone('pl', 'posts', [1], runId);
    cache.store.items.upsertPage('pl', 'posts', [post(1)]);
    expect(cache.store.itemVersions.recordStored('pl', 'posts', [1], runId)).toBe(1);
    expect(cache.store.itemVersions.versionsOf('pl', 'posts', 1).map((v) => v.gone)).toEqual([
      false,
      true,
      false,
    ]);
  });
});

describe('item history: recording disappearances', () => {
  it('a gone row at the tombstone time, with the last status and no content', () => {
    const runId = cache.store.runs.start('pull');
    const item = post(1, { status: 'draft' });
    cache.store.items.upsertPage('pl', 'posts', [item]);
    cache.store.itemVersions.recordStored('pl', 'posts', [1], runId);
    at('2024-05-02T08:00:00.000Z');
    cache.store.items.tombstone('pl', 'posts', [1]);
    at('2024-05-03T08:00:00.000Z');
    const later = cache.store.runs.start('pull');
    expect(cache.store.itemVersions.recordGone('pl', 'posts', [1], later)).toBe(1);
    const versions = cache.store.itemVersions.versionsOf('pl', 'posts', 1);
    expect(versions).toHaveLength(2);
    expect(versions[1]).toEqual({
      seq: expect.any(Number),
      lang: 'pl',
      type: 'posts',
      id: 1,
      runId: later,
      seenAt: '2024-05-02T08:00:00.000Z',
      gone: true,
      status: 'draft',
      modifiedGmt: item['modified_gmt'],
      contentHash: null,
      json: null,
    });
  });

  it('one gone row per disappearance, none for a live item, none for other ids', () => {
    const runId = cache.store.runs.start('pull');
    cache.store.items.upsertPage('pl', 'posts', [post(1), post(2), post(3)]);
    cache.store.items.upsertPage('pl', 'pages', [page(1)]);
    cache.store.items.tombstone('pl', 'posts', [1, 3]);
    cache.store.items.tombstone('pl', 'pages', [1]);
    expect(cache.store.itemVersions.recordGone('pl', 'posts', [], runId)).toBe(0);
    expect(cache.store.itemVersions.recordGone('pl', 'posts', [1, 2], runId)).toBe(1);
    expect(cache.store.itemVersions.recordGone('pl', 'posts', [1, 2], runId)).toBe(0);
    expect(cache.store.itemVersions.versionsOf('pl', 'posts', 1).map((v) => v.gone)).toEqual([
      true,
    ]);
    expect(cache.store.itemVersions.versionsOf('pl', 'posts', 2)).toEqual([]);
    expect(cache.store.itemVersions.versionsOf('pl', 'posts', 3)).toEqual([]);
    expect(cache.store.itemVersions.versionsOf('pl', 'pages', 1)).toEqual([]);
  });
});

describe('item history: reading', () => {
  function history(): { first: number; second: number } {
    const first = cache.store.runs.start('pull');
    cache.store.items.upsertPage('pl', 'posts', [post(1), post(2)]);
    cache.store.items.upsertPage('pl', 'pages', [page(1)]);
    cache.store.itemVersions.recordStored('pl', 'posts', [1, 2], first);
    cache.store.itemVersions.recordStored('pl', 'pages', [1], first);
    at('2024-05-02T10:00:00.000Z');
    const second = cache.store.runs.start('pull');
    cache.store.items.upsertPage('pl', 'posts', [post(1, { title: { rendered: 'v2' } })]);
    cache.store.itemVersions.recordStored('pl', 'posts', [1], second);
    at('2024-05-03T10:00:00.000Z');
    cache.store.items.upsertPage('es', 'posts', [post(5)]);
    cache.store.itemVersions.recordStored('es', 'posts', [5], second);
    return { first, second };
  }

  it('versionAt: the latest row seen at or before the time, undefined before the first', () => {
    const { first, second } = history();
    const version = (iso: string) => cache.store.itemVersions.versionAt('pl', 'posts', 1, iso);
    expect(version('2024-05-01T09:59:59.999Z')).toBeUndefined();
    expect(version('2024-05-01T10:00:00.000Z')?.runId).toBe(first);
    expect(version('2024-05-02T09:59:59.999Z')?.runId).toBe(first);
    expect(version('2024-05-02T10:00:00.000Z')?.runId).toBe(second);
    expect(version('2025-01-01T00:00:00.000Z')).toMatchObject({
      runId: second,
      json: JSON.stringify(post(1, { title: { rendered: 'v2' } })),
      gone: false,
    });
    expect(cache.store.itemVersions.versionAt('pl', 'pages', 2, '2025-01-01T00:00:00.000Z')).toBe(
      undefined,
    );
    expect(cache.store.itemVersions.versionAt('es', 'posts', 1, '2025-01-01T00:00:00.000Z')).toBe(
      undefined,
    );
    expect(
      cache.store.itemVersions.versionAt('pl', 'pages', 1, '2025-01-01T00:00:00.000Z')?.type,
    ).toBe('pages');
  });

  it('changedAfter: items with a row strictly after the time, each once, by type then id', () => {
    history();
    expect(cache.store.itemVersions.changedAfter('pl', '2024-04-01T00:00:00.000Z')).toEqual([
      { type: 'pages', id: 1 },
      { type: 'posts', id: 1 },
      { type: 'posts', id: 2 },
    ]);
    expect(cache.store.itemVersions.changedAfter('pl', '2024-05-01T10:00:00.000Z')).toEqual([
      { type: 'posts', id: 1 },
    ]);
    expect(cache.store.itemVersions.changedAfter('pl', '2024-05-02T10:00:00.000Z')).toEqual([]);
    expect(cache.store.itemVersions.changedAfter('es', '2024-05-01T10:00:00.000Z')).toEqual([
      { type: 'posts', id: 5 },
    ]);
  });

  it('historyStart: the first pull that recorded a row of the language, with its start', () => {
    const before = cache.store.runs.start('pull');
    at('2024-05-01T10:30:00.000Z');
    expect(cache.store.itemVersions.historyStart('pl')).toBeUndefined();
    const { first, second } = history();
    expect(first).toBeGreaterThan(before);
    expect(cache.store.itemVersions.historyStart('pl')).toEqual({
      runId: first,
      startedAt: '2024-05-01T10:30:00.000Z',
    });
    expect(cache.store.itemVersions.historyStart('es')).toEqual({
      runId: second,
      startedAt: '2024-05-02T10:00:00.000Z',
    });
    expect(cache.store.itemVersions.historyStart('de')).toBeUndefined();
  });
});

describe('item history: errors say what was being done', () => {
  it('a read-only cache refuses to keep history, and says so', () => {
    const runId = cache.store.runs.start('pull');
    cache.store.items.upsertPage('pl', 'posts', [post(1)]);
    cache.store.items.tombstone('pl', 'posts', [1]);
    const readonly = openStore(cache.temp.file, { readonly: true });
    try {
      expect(() => readonly.itemVersions.recordStored('pl', 'posts', [1], runId)).toThrow(
        /while keeping item history/,
      );
      expect(() => readonly.itemVersions.recordGone('pl', 'posts', [1], runId)).toThrow(
        /while keeping item history/,
      );
    } finally {
      readonly.close();
    }
  });
});
