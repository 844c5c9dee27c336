import { describe, expect, it } from 'vitest';
import type { StoredItem } from '../../../src/store/index.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';
import { page, post } from '../../helpers/store/item-fixtures.js';

const fixture = useClockedStore();

describe('revisions and autosaves', () => {
  it('stores them per parent with outcomes, apart from each other', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    const revisions = [
      { id: 11, parent: 1, author: 2, modified_gmt: '2024-01-01T00:00:00' },
      { id: 12, parent: 1, author: 2, modified_gmt: '2024-02-01T00:00:00' },
    ];
    expect(fixture.store.revisions.upsertMany('pl', 'posts', 1, revisions).created).toBe(2);
    const again = fixture.store.revisions.upsertMany('pl', 'posts', 1, [
      revisions[0]!,
      { ...revisions[1]!, author: 3 },
    ]);
    expect(again.outcomes.map((entry) => entry.outcome)).toEqual(['unchanged', 'updated']);
    expect(fixture.store.revisions.list('pl', 'posts', 1).map((revision) => revision.id)).toEqual([
      12, 11,
    ]);
    expect(fixture.store.revisions.get('pl', 12)).toMatchObject({
      parentType: 'posts',
      parentId: 1,
      author: 3,
    });
    expect(fixture.store.autosaves.list('pl', 'posts', 1)).toEqual([]);

    fixture.store.autosaves.upsertMany('pl', 'posts', 1, [{ id: 20, parent: 1 }]);
    expect(fixture.store.autosaves.count('pl')).toBe(1);
    expect(fixture.store.revisions.count('pl')).toBe(2);
  });
});

describe('sync_state', () => {
  it('merges patches: absent keeps, null clears', () => {
    expect(fixture.store.syncState.get('pl', 'posts')).toBeUndefined();
    fixture.store.syncState.set('pl', 'posts', {
      watermarkGmt: '2024-01-01T00:00:00',
      context: 'view',
      cursor: { page: 4, modifiedAfter: 'x' },
    });
    fixture.clock = new Date('2024-05-01T11:00:00.000Z');
    const next = fixture.store.syncState.set('pl', 'posts', {
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
    expect(fixture.store.syncState.get('pl', 'posts')).toEqual(next);
    fixture.store.syncState.set('es', 'media', {});
    expect(
      fixture.store.syncState.list().map((state) => `${state.lang}/${state.collection}`),
    ).toEqual(['es/media', 'pl/posts']);
    expect(fixture.store.syncState.list('pl')).toHaveLength(1);
    expect(fixture.store.syncState.clear('pl', 'posts')).toBe(true);
    expect(fixture.store.syncState.get('pl', 'posts')).toBeUndefined();
  });
});

describe('site_info', () => {
  it('replaces the document of a language', () => {
    fixture.store.siteInfo.set('pl', { name: 'Strona', seo: { company_or_person: 'company' } });
    fixture.store.siteInfo.set('pl', { name: 'Strona 2' });
    expect(fixture.store.siteInfo.get('pl')).toEqual({
      lang: 'pl',
      data: { name: 'Strona 2' },
      fetchedAt: '2024-05-01T10:00:00.000Z',
    });
    expect(fixture.store.siteInfo.get('es')).toBeUndefined();
  });
});

describe('checkouts', () => {
  it('records one checkout per item and one item per file', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1), post(2)]);
    const base = {
      lang: 'pl',
      type: 'posts' as const,
      baseModifiedGmt: '2024-02-02T02:04:01',
      fileHash: 'h',
    };
    fixture.store.checkouts.set({ ...base, id: 1, file: 'edit/pl/posts/a.md' });
    fixture.store.checkouts.set({ ...base, id: 2, file: 'edit/pl/posts/a.md' }); // the file now belongs to 2
    expect(fixture.store.checkouts.get('pl', 'posts', 1)).toBeUndefined();
    expect(fixture.store.checkouts.getByFile('edit/pl/posts/a.md')).toMatchObject({
      id: 2,
      baseModifiedGmt: '2024-02-02T02:04:01',
    });
    expect(fixture.store.checkouts.list('pl')).toHaveLength(1);
    expect(() => fixture.store.checkouts.set({ ...base, id: 99, file: 'x.md' })).toThrow(
      /FOREIGN KEY/,
    );
    expect(fixture.store.checkouts.remove('pl', 'posts', 2)).toBe(true);
    expect(fixture.store.checkouts.list()).toEqual([]);
  });

  it('lists the checkouts whose item moved in the cache since, in one query', () => {
    // Post n is modified at 2024-02-02T02:04:0n (item-fixtures).
    fixture.store.items.upsertPage('pl', 'posts', [post(1), post(2), post(3)]);
    fixture.store.items.upsertPage('es', 'posts', [post(1, { modified_gmt: null })]);
    const at = (id: number) => ({ lang: 'pl', type: 'posts' as const, id, fileHash: 'h' });
    fixture.store.checkouts.set({
      ...at(1),
      file: 'a.html',
      baseModifiedGmt: '2024-02-02T02:04:01',
    });
    fixture.store.checkouts.set({
      ...at(2),
      file: 'b.html',
      baseModifiedGmt: '2024-01-01T00:00:00',
    });
    fixture.store.checkouts.set({ ...at(3), file: 'c.html', baseModifiedGmt: null });
    fixture.store.checkouts.set({ ...at(1), lang: 'es', file: 'd.html', baseModifiedGmt: 'x' });
    // 1 is at its base; 2 moved; 3 has no base but a date; es 1 has no date in the cache.
    expect(fixture.store.checkouts.movedSinceCheckout().map((c) => [c.lang, c.id, c.file])).toEqual(
      [
        ['pl', 2, 'b.html'],
        ['pl', 3, 'c.html'],
      ],
    );
  });
});

describe('edits', () => {
  it('queues, lists, and updates local changes', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    const update = fixture.store.edits.add({
      lang: 'pl',
      type: 'posts',
      itemId: 1,
      file: 'a.md',
      fields: { title: 'T' },
      baseModifiedGmt: 'b',
    });
    const create = fixture.store.edits.add({ lang: 'pl', type: 'pages', fields: { title: 'New' } });
    expect(update).toMatchObject({
      id: 1,
      state: 'pending',
      itemId: 1,
      fields: { title: 'T' },
      error: null,
    });
    expect(create).toMatchObject({ itemId: null, file: null, baseModifiedGmt: null });
    expect(fixture.store.edits.list({ state: 'pending' }).map((edit) => edit.id)).toEqual([
      update.id,
      create.id,
    ]);

    fixture.clock = new Date('2024-05-01T12:00:00.000Z');
    expect(
      fixture.store.edits.update(update.id, {
        state: 'failed',
        error: 'rest_invalid_param: title',
      }),
    ).toMatchObject({
      state: 'failed',
      error: 'rest_invalid_param: title',
      fields: { title: 'T' },
      baseModifiedGmt: 'b',
      updatedAt: '2024-05-01T12:00:00.000Z',
    });
    // A create that succeeded for a page the cache does not hold yet would break the
    // foreign key; record the item first, as push does after re-fetching it.
    fixture.store.items.upsertPage('pl', 'pages', [page(50)]);
    expect(fixture.store.edits.update(create.id, { state: 'done', itemId: 50 })).toMatchObject({
      state: 'done',
      itemId: 50,
    });
    expect(
      fixture.store.edits.update(update.id, { state: 'pending', error: null })?.error,
    ).toBeNull();
    expect(
      fixture.store.edits.list({ state: 'done', lang: 'pl', type: 'pages' }).map((edit) => edit.id),
    ).toEqual([create.id]);
    expect(fixture.store.edits.update(999, { state: 'done' })).toBeUndefined();
    expect(fixture.store.edits.remove(create.id)).toBe(true);
    expect(fixture.store.edits.get(create.id)).toBeUndefined();
  });
});

describe('id_map', () => {
  const source = 'http://127.0.0.1:8787#pl';
  const target = 'http://127.0.0.1:9797#pl';

  it('is idempotent: the same mapping twice is unchanged and keeps its first timestamp', () => {
    expect(fixture.store.idMap.get(source, 'posts', 1, target)).toBeUndefined();
    expect(fixture.store.idMap.set(source, 'posts', 1, target, 101)).toBe('inserted');
    fixture.clock = new Date('2024-06-01T00:00:00.000Z');
    expect(fixture.store.idMap.set(source, 'posts', 1, target, 101)).toBe('unchanged');
    expect(fixture.store.idMap.list(source, target)).toEqual([
      {
        sourceKey: source,
        type: 'posts',
        sourceId: 1,
        targetKey: target,
        targetId: 101,
        createdAt: '2024-05-01T10:00:00.000Z',
      },
    ]);
    expect(fixture.store.idMap.set(source, 'posts', 1, target, 202)).toBe('updated');
    expect(fixture.store.idMap.get(source, 'posts', 1, target)).toBe(202);
    // Other types, sources and targets are separate keys.
    expect(fixture.store.idMap.set(source, 'media', 1, target, 7)).toBe('inserted');
    expect(fixture.store.idMap.set(source, 'posts', 1, 'http://other#pl', 8)).toBe('inserted');
    expect(fixture.store.idMap.list(source, target).map((entry) => entry.type)).toEqual([
      'media',
      'posts',
    ]);
    expect(
      fixture.store.idMap.list(source, target, 'media').map((entry) => entry.targetId),
    ).toEqual([7]);
  });
});

describe('runs', () => {
  it('records start and finish with counters, newest first', () => {
    const pull = fixture.store.runs.start('pull');
    fixture.clock = new Date('2024-05-01T10:05:00.000Z');
    const finished = fixture.store.runs.finish(pull, 'ok', { created: 3, updated: 0 });
    expect(finished).toEqual({
      id: pull,
      command: 'pull',
      startedAt: '2024-05-01T10:00:00.000Z',
      finishedAt: '2024-05-01T10:05:00.000Z',
      status: 'ok',
      counters: { created: 3, updated: 0 },
    });
    const build = fixture.store.runs.start('build');
    expect(fixture.store.runs.latest()?.id).toBe(build);
    expect(fixture.store.runs.latest()?.status).toBe('running');
    expect(fixture.store.runs.latest({ command: 'pull', status: 'ok' })?.counters).toEqual({
      created: 3,
      updated: 0,
    });
    expect(fixture.store.runs.list({ limit: 5 }).map((run) => run.command)).toEqual([
      'build',
      'pull',
    ]);
    expect(() => fixture.store.runs.finish(999, 'failed')).toThrow(RangeError);
  });
});

describe('transformed', () => {
  it('lists live items whose output is missing, made from old content, or by an old version', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1), post(2), post(3), post(4)]);
    fixture.store.items.upsertPage('pl', 'pages', [page(1)]);
    const hashOf = (id: number) => fixture.store.items.get('pl', 'posts', id)?.contentHash ?? '';
    const put = (id: number, version: string, sourceHash = hashOf(id)) =>
      fixture.store.transformed.put({
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
    fixture.store.items.upsertPage('pl', 'posts', [
      post(2, { content: { rendered: '<p>changed</p>' } }),
    ]);
    fixture.store.items.tombstone('pl', 'posts', [4]);

    const stale = (options = {}) =>
      [...fixture.store.transformed.iterateStale('pl', 'v1', options)].map(
        (item: StoredItem) => `${item.type}/${item.id}`,
      );
    // 1 is fresh; 2 changed; 3 old version; 4 tombstoned (never transformed again).
    expect(stale()).toEqual(['pages/1', 'posts/2', 'posts/3']);
    expect(stale({ types: ['posts'] })).toEqual(['posts/2', 'posts/3']);
    expect(fixture.store.transformed.countStale('pl', 'v1')).toBe(3);
    expect(fixture.store.transformed.countStale('pl', 'v2')).toBe(4);

    // Putting while iterating (chunks of one): each item is seen once and the loop ends.
    const seen: string[] = [];
    for (const item of fixture.store.transformed.iterateStale('pl', 'v1', { chunkSize: 1 })) {
      seen.push(`${item.type}/${item.id}`);
      fixture.store.transformed.put({
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
    expect(fixture.store.transformed.countStale('pl', 'v1')).toBe(0);
    expect(fixture.store.transformed.get('pl', 'posts', 3)).toMatchObject({
      html: '<p>new</p>',
      excerpt: 'e',
      meta: { headings: ['a'] },
    });

    put(4, 'v1', 'whatever');
    expect(fixture.store.transformed.deleteForDeletedItems('pl')).toBe(1);
    expect(fixture.store.transformed.get('pl', 'posts', 4)).toBeUndefined();
  });
});

describe('build_outputs', () => {
  it('replaces the record of a build and updates it incrementally', () => {
    const entry = (path: string, hash: string) => ({ path, hash, bytes: hash.length });
    fixture.store.buildOutputs.replace('pl', [
      entry('index.html', 'a'),
      entry('post-1/index.html', 'b'),
    ]);
    fixture.store.buildOutputs.replace('es', [entry('index.html', 'z')]);
    fixture.store.buildOutputs.replace('pl', [entry('index.html', 'c'), entry('feed.xml', 'd')]);
    expect(
      fixture.store.buildOutputs.list('pl').map((output) => `${output.path}=${output.hash}`),
    ).toEqual(['feed.xml=d', 'index.html=c']);
    fixture.store.buildOutputs.update(
      'pl',
      [entry('index.html', 'e'), entry('post-2/index.html', 'f')],
      ['feed.xml'],
    );
    expect(
      fixture.store.buildOutputs.list('pl').map((output) => `${output.path}=${output.hash}`),
    ).toEqual(['index.html=e', 'post-2/index.html=f']);
    expect(fixture.store.buildOutputs.get('es', 'index.html')).toMatchObject({
      hash: 'z',
      builtAt: '2024-05-01T10:00:00.000Z',
    });
  });
});

describe('checkIntegrity', () => {
  it('reports a sound cache as having no problems', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    expect(fixture.store.checkIntegrity()).toEqual([]);
  });
});
