import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Store, StoredItem } from '../../../src/store/index.js';
import { openStore } from '../../../src/store/index.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { tempCache } from '../../helpers/temp-cache.js';
import { page, post } from './item-fixtures.js';

let temp: TempCache;
let store: Store;
let clock: Date;
beforeEach(() => {
  temp = tempCache();
  clock = new Date('2024-05-01T10:00:00.000Z');
  store = openStore(temp.file, { now: () => clock });
});
afterEach(() => {
  store.close();
  temp.cleanup();
});

describe('revisions and autosaves', () => {
  it('stores them per parent with outcomes, apart from each other', () => {
    store.items.upsertPage('pl', 'posts', [post(1)]);
    const revisions = [
      { id: 11, parent: 1, author: 2, modified_gmt: '2024-01-01T00:00:00' },
      { id: 12, parent: 1, author: 2, modified_gmt: '2024-02-01T00:00:00' },
    ];
    expect(store.revisions.upsertMany('pl', 'posts', 1, revisions).created).toBe(2);
    const again = store.revisions.upsertMany('pl', 'posts', 1, [
      revisions[0]!,
      { ...revisions[1]!, author: 3 },
    ]);
    expect(again.outcomes.map((entry) => entry.outcome)).toEqual(['unchanged', 'updated']);
    expect(store.revisions.list('pl', 'posts', 1).map((revision) => revision.id)).toEqual([12, 11]);
    expect(store.revisions.get('pl', 12)).toMatchObject({
      parentType: 'posts',
      parentId: 1,
      author: 3,
    });
    expect(store.autosaves.list('pl', 'posts', 1)).toEqual([]);

    store.autosaves.upsertMany('pl', 'posts', 1, [{ id: 20, parent: 1 }]);
    expect(store.autosaves.count('pl')).toBe(1);
    expect(store.revisions.count('pl')).toBe(2);
  });
});

describe('sync_state', () => {
  it('merges patches: absent keeps, null clears', () => {
    expect(store.syncState.get('pl', 'posts')).toBeUndefined();
    store.syncState.set('pl', 'posts', {
      watermarkGmt: '2024-01-01T00:00:00',
      context: 'view',
      cursor: { page: 4, modifiedAfter: 'x' },
    });
    clock = new Date('2024-05-01T11:00:00.000Z');
    const next = store.syncState.set('pl', 'posts', {
      remoteTotal: 10,
      localTotal: 9,
      cursor: null,
    });
    expect(next).toEqual({
      lang: 'pl',
      collection: 'posts',
      watermarkGmt: '2024-01-01T00:00:00',
      context: 'view',
      remoteTotal: 10,
      localTotal: 9,
      unlisted: null,
      pullsSinceListing: null,
      cursor: null,
      updatedAt: '2024-05-01T11:00:00.000Z',
    });
    expect(store.syncState.get('pl', 'posts')).toEqual(next);
    store.syncState.set('es', 'media', {});
    expect(store.syncState.list().map((state) => `${state.lang}/${state.collection}`)).toEqual([
      'es/media',
      'pl/posts',
    ]);
    expect(store.syncState.list('pl')).toHaveLength(1);
    expect(store.syncState.clear('pl', 'posts')).toBe(true);
    expect(store.syncState.get('pl', 'posts')).toBeUndefined();
  });
});

describe('site_info', () => {
  it('replaces the document of a language', () => {
    store.siteInfo.set('pl', { name: 'Strona', seo: { company_or_person: 'company' } });
    store.siteInfo.set('pl', { name: 'Strona 2' });
    expect(store.siteInfo.get('pl')).toEqual({
      lang: 'pl',
      data: { name: 'Strona 2' },
      fetchedAt: '2024-05-01T10:00:00.000Z',
    });
    expect(store.siteInfo.get('es')).toBeUndefined();
  });
});

describe('checkouts', () => {
  it('records one checkout per item and one item per file', () => {
    store.items.upsertPage('pl', 'posts', [post(1), post(2)]);
    const base = {
      lang: 'pl',
      type: 'posts' as const,
      baseModifiedGmt: '2024-02-02T02:04:01',
      fileHash: 'h',
    };
    store.checkouts.set({ ...base, id: 1, file: 'edit/pl/posts/a.md' });
    store.checkouts.set({ ...base, id: 2, file: 'edit/pl/posts/a.md' }); // the file now belongs to 2
    expect(store.checkouts.get('pl', 'posts', 1)).toBeUndefined();
    expect(store.checkouts.getByFile('edit/pl/posts/a.md')).toMatchObject({
      id: 2,
      baseModifiedGmt: '2024-02-02T02:04:01',
    });
    expect(store.checkouts.list('pl')).toHaveLength(1);
    expect(() => store.checkouts.set({ ...base, id: 99, file: 'x.md' })).toThrow(/FOREIGN KEY/);
    expect(store.checkouts.remove('pl', 'posts', 2)).toBe(true);
    expect(store.checkouts.list()).toEqual([]);
  });
});

describe('edits', () => {
  it('queues, lists, and updates local changes', () => {
    store.items.upsertPage('pl', 'posts', [post(1)]);
    const update = store.edits.add({
      lang: 'pl',
      type: 'posts',
      itemId: 1,
      file: 'a.md',
      fields: { title: 'T' },
      baseModifiedGmt: 'b',
    });
    const create = store.edits.add({ lang: 'pl', type: 'pages', fields: { title: 'New' } });
    expect(update).toMatchObject({
      id: 1,
      state: 'pending',
      itemId: 1,
      fields: { title: 'T' },
      error: null,
    });
    expect(create).toMatchObject({ itemId: null, file: null, baseModifiedGmt: null });
    expect(store.edits.list({ state: 'pending' }).map((edit) => edit.id)).toEqual([
      update.id,
      create.id,
    ]);

    clock = new Date('2024-05-01T12:00:00.000Z');
    expect(
      store.edits.update(update.id, { state: 'failed', error: 'rest_invalid_param: title' }),
    ).toMatchObject({
      state: 'failed',
      error: 'rest_invalid_param: title',
      fields: { title: 'T' },
      baseModifiedGmt: 'b',
      updatedAt: '2024-05-01T12:00:00.000Z',
    });
    // A create that succeeded for a page the cache does not hold yet would break the
    // foreign key; record the item first, as push does after re-fetching it.
    store.items.upsertPage('pl', 'pages', [page(50)]);
    expect(store.edits.update(create.id, { state: 'done', itemId: 50 })).toMatchObject({
      state: 'done',
      itemId: 50,
    });
    expect(store.edits.update(update.id, { state: 'pending', error: null })?.error).toBeNull();
    expect(
      store.edits.list({ state: 'done', lang: 'pl', type: 'pages' }).map((edit) => edit.id),
    ).toEqual([create.id]);
    expect(store.edits.update(999, { state: 'done' })).toBeUndefined();
    expect(store.edits.remove(create.id)).toBe(true);
    expect(store.edits.get(create.id)).toBeUndefined();
  });
});

describe('id_map', () => {
  const source = 'http://127.0.0.1:8787#pl';
  const target = 'http://127.0.0.1:9797#pl';

  it('is idempotent: the same mapping twice is unchanged and keeps its first timestamp', () => {
    expect(store.idMap.get(source, 'posts', 1, target)).toBeUndefined();
    expect(store.idMap.set(source, 'posts', 1, target, 101)).toBe('inserted');
    clock = new Date('2024-06-01T00:00:00.000Z');
    expect(store.idMap.set(source, 'posts', 1, target, 101)).toBe('unchanged');
    expect(store.idMap.list(source, target)).toEqual([
      {
        sourceKey: source,
        type: 'posts',
        sourceId: 1,
        targetKey: target,
        targetId: 101,
        createdAt: '2024-05-01T10:00:00.000Z',
      },
    ]);
    expect(store.idMap.set(source, 'posts', 1, target, 202)).toBe('updated');
    expect(store.idMap.get(source, 'posts', 1, target)).toBe(202);
    // Other types, sources and targets are separate keys.
    expect(store.idMap.set(source, 'media', 1, target, 7)).toBe('inserted');
    expect(store.idMap.set(source, 'posts', 1, 'http://other#pl', 8)).toBe('inserted');
    expect(store.idMap.list(source, target).map((entry) => entry.type)).toEqual(['media', 'posts']);
    expect(store.idMap.list(source, target, 'media').map((entry) => entry.targetId)).toEqual([7]);
  });
});

describe('runs', () => {
  it('records start and finish with counters, newest first', () => {
    const pull = store.runs.start('pull');
    clock = new Date('2024-05-01T10:05:00.000Z');
    const finished = store.runs.finish(pull, 'ok', { created: 3, updated: 0 });
    expect(finished).toEqual({
      id: pull,
      command: 'pull',
      startedAt: '2024-05-01T10:00:00.000Z',
      finishedAt: '2024-05-01T10:05:00.000Z',
      status: 'ok',
      counters: { created: 3, updated: 0 },
    });
    const build = store.runs.start('build');
    expect(store.runs.latest()?.id).toBe(build);
    expect(store.runs.latest()?.status).toBe('running');
    expect(store.runs.latest({ command: 'pull', status: 'ok' })?.counters).toEqual({
      created: 3,
      updated: 0,
    });
    expect(store.runs.list({ limit: 5 }).map((run) => run.command)).toEqual(['build', 'pull']);
    expect(() => store.runs.finish(999, 'failed')).toThrow(RangeError);
  });
});

describe('transformed', () => {
  it('lists live items whose output is missing, made from old content, or by an old version', () => {
    store.items.upsertPage('pl', 'posts', [post(1), post(2), post(3), post(4)]);
    store.items.upsertPage('pl', 'pages', [page(1)]);
    const hashOf = (id: number) => store.items.get('pl', 'posts', id)?.contentHash ?? '';
    const put = (id: number, version: string, sourceHash = hashOf(id)) =>
      store.transformed.put({
        lang: 'pl',
        type: 'posts',
        id,
        transformVersion: version,
        sourceHash,
        html: `<p>${id}</p>`,
      });
    put(1, 'v1');
    put(2, 'v1');
    put(3, 'v0');
    store.items.upsertPage('pl', 'posts', [post(2, { content: { rendered: '<p>changed</p>' } })]);
    store.items.tombstone('pl', 'posts', [4]);

    const stale = (options = {}) =>
      [...store.transformed.iterateStale('pl', 'v1', options)].map(
        (item: StoredItem) => `${item.type}/${item.id}`,
      );
    // 1 is fresh; 2 changed; 3 old version; 4 tombstoned (never transformed again).
    expect(stale()).toEqual(['pages/1', 'posts/2', 'posts/3']);
    expect(stale({ types: ['posts'] })).toEqual(['posts/2', 'posts/3']);
    expect(store.transformed.countStale('pl', 'v1')).toBe(3);
    expect(store.transformed.countStale('pl', 'v2')).toBe(4);

    // Putting while iterating (chunks of one): each item is seen once and the loop ends.
    const seen: string[] = [];
    for (const item of store.transformed.iterateStale('pl', 'v1', { chunkSize: 1 })) {
      seen.push(`${item.type}/${item.id}`);
      store.transformed.put({
        lang: 'pl',
        type: item.type,
        id: item.id,
        transformVersion: 'v1',
        sourceHash: item.contentHash,
        html: '<p>new</p>',
        excerpt: 'e',
        meta: { headings: ['a'] },
      });
    }
    expect(seen).toEqual(['pages/1', 'posts/2', 'posts/3']);
    expect(store.transformed.countStale('pl', 'v1')).toBe(0);
    expect(store.transformed.get('pl', 'posts', 3)).toMatchObject({
      html: '<p>new</p>',
      excerpt: 'e',
      meta: { headings: ['a'] },
    });

    put(4, 'v1', 'whatever');
    expect(store.transformed.deleteForDeletedItems('pl')).toBe(1);
    expect(store.transformed.get('pl', 'posts', 4)).toBeUndefined();
  });
});

describe('build_outputs', () => {
  it('replaces the record of a build and updates it incrementally', () => {
    const entry = (path: string, hash: string) => ({ path, hash, bytes: hash.length });
    store.buildOutputs.replace('pl', [entry('index.html', 'a'), entry('post-1/index.html', 'b')]);
    store.buildOutputs.replace('es', [entry('index.html', 'z')]);
    store.buildOutputs.replace('pl', [entry('index.html', 'c'), entry('feed.xml', 'd')]);
    expect(store.buildOutputs.list('pl').map((output) => `${output.path}=${output.hash}`)).toEqual([
      'feed.xml=d',
      'index.html=c',
    ]);
    store.buildOutputs.update(
      'pl',
      [entry('index.html', 'e'), entry('post-2/index.html', 'f')],
      ['feed.xml'],
    );
    expect(store.buildOutputs.list('pl').map((output) => `${output.path}=${output.hash}`)).toEqual([
      'index.html=e',
      'post-2/index.html=f',
    ]);
    expect(store.buildOutputs.get('es', 'index.html')).toMatchObject({
      hash: 'z',
      builtAt: '2024-05-01T10:00:00.000Z',
    });
  });
});

describe('checkIntegrity', () => {
  it('reports a sound cache as having no problems', () => {
    store.items.upsertPage('pl', 'posts', [post(1)]);
    expect(store.checkIntegrity()).toEqual([]);
  });
});
