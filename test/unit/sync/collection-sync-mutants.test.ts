import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import { CollectionSync } from '../../../src/sync/collection-sync.js';
import {
  emptyCounters,
  type PullCounters,
  type PullEvent,
} from '../../../src/sync/pull-summary.js';
import { FakeSite } from '../../helpers/fake-site.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

/**
 * More of one crawl stream's promises, against the in-memory site (issue 11, mutation testing
 * of collection-sync.ts and crawl-store.ts): the progress a user sees, the work a backup
 * queues, the item history, what a no-op pull costs, and when the crawl starts over.
 */
describe('CollectionSync: progress, queued work, history and restarts', () => {
  let temp: TempCache;
  let store: Store;
  let site: FakeSite;
  let events: PullEvent[];
  beforeEach(() => {
    temp = tempCache();
    store = openStore(temp.file);
    site = new FakeSite();
    events = [];
  });
  afterEach(() => {
    store.close();
    temp.cleanup();
  });

  interface Options {
    perPage?: number;
    type?: 'posts' | 'pages' | 'media';
    mode?: 'view' | 'edit';
    backup?: boolean;
    historyRun?: number;
    checkedTotal?: number;
    fullSweepEvery?: number;
    onItems?: (items: readonly { id: number }[]) => void;
    signal?: AbortSignal;
    /** Items the site counts in `X-CMS-Total` but never lists (observed-behaviour.md). */
    unlisted?: number;
  }

  /** The site's client, with `X-CMS-Total` raised by `unlisted` when asked. */
  function client(unlisted: number) {
    const inner = site.client();
    if (unlisted === 0) return inner;
    const get = inner.get.bind(inner);
    return Object.assign(Object.create(inner) as typeof inner, {
      get: async (route: string, query?: Record<string, unknown>) => {
        const answer = await get(route, query as never);
        const headers = { ...answer.headers } as Record<string, string>;
        headers['x-cms-total'] = String(Number(headers['x-cms-total']) + unlisted);
        return { ...answer, headers };
      },
    });
  }

  async function sync(options: Options = {}): Promise<PullCounters> {
    const counters = emptyCounters();
    await new CollectionSync({
      client: client(options.unlisted ?? 0),
      store,
      lang: 'pl',
      type: options.type ?? 'posts',
      mode: options.mode ?? 'view',
      perPage: options.perPage ?? 10,
      backup: options.backup ?? false,
      historyRun: options.historyRun,
      counters,
      emit: (event) => events.push(event),
      checkedTotal: options.checkedTotal,
      fullSweepEvery: options.fullSweepEvery,
      onItems: options.onItems,
      signal: options.signal,
    }).run();
    return counters;
  }

  const warnings = () =>
    events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));
  const queued = (task: 'revisions' | 'assets' | 'children', type = 'posts' as const) =>
    store.syncQueue.next('pl', task, type, 0, 1000);

  it('reports its progress: items stored of the count the site gave, then the deletions phase', async () => {
    site.add(25, site.now - 100, 1);
    await sync();
    const progress = events.flatMap((event) => (event.type === 'progress' ? [event] : []));
    for (const event of progress) {
      expect(event).toMatchObject({ type: 'progress', lang: 'pl', collection: 'posts' });
    }
    // Nothing known before the first page; then the site's count, and the items stored so far
    // (a boundary second is read again by the next page, so `done` can pass the count).
    expect(progress[0]).toMatchObject({ phase: 'crawl', done: 0, total: undefined });
    const crawl = progress.slice(1, -1);
    expect(crawl.map((event) => event.phase)).toEqual(crawl.map(() => 'crawl'));
    expect(crawl.map((event) => event.total)).toEqual(crawl.map(() => 25));
    expect(crawl[0]!.done).toBe(10);
    const done = crawl.map((event) => event.done);
    expect(done).toEqual([...done].sort((a, b) => a - b));
    expect(done.at(-1)).toBeGreaterThanOrEqual(25);
    expect(progress.at(-1)).toMatchObject({ phase: 'deletions', done: done.at(-1), total: 25 });
  });

  it('shows every stored page to `onItems`, and no empty one', async () => {
    site.add(20, site.now - 100, 1);
    const seen: number[][] = [];
    await sync({ onItems: (items) => seen.push(items.map((item) => item.id)) });
    expect(seen.every((ids) => ids.length > 0)).toBe(true);
    expect([...new Set(seen.flat())].sort((a, b) => a - b)).toEqual([...site.items.keys()]);
    seen.length = 0;
    await sync({ onItems: (items) => seen.push(items.map((item) => item.id)) });
    expect(seen.every((ids) => ids.length > 0)).toBe(true);
  });

  it('stores the children a moved page brought in pages of per_page, each shown once to `onItems`', async () => {
    const [top, ...children] = site.add(8, site.now - 100, 1);
    Object.assign(top!, { slug: 'top' });
    for (const [n, page] of children.entries())
      Object.assign(page, { slug: `c${n}`, parent: top!.id });
    await sync({ type: 'pages', perPage: 5 });
    site.now += 10;
    Object.assign(top!, { slug: 'moved' });
    site.edit(top!.id);
    const seen: number[][] = [];
    const counters = await sync({
      type: 'pages',
      perPage: 5,
      onItems: (items) => seen.push(items.map((item) => item.id)),
    });
    expect(counters).toMatchObject({ created: 0, updated: 8 });
    // The crawl's page (the moved page, and the last second of the watermark read again),
    // then its 7 children refetched by parent: 5, then 2.
    expect(seen[0]).toContain(top!.id);
    expect(seen.slice(1)).toEqual([
      children.slice(0, 5).map((c) => c.id),
      children.slice(5).map((c) => c.id),
    ]);
  });

  it('shows `onItems` nothing when a page brings no usable item', async () => {
    const [bad] = site.add(1, site.now - 100);
    site.replacements.set(bad!.id, { id: bad!.id, modified_gmt: 'yesterday' });
    const seen: number[][] = [];
    const counters = await sync({ onItems: (items) => seen.push(items.map((item) => item.id)) });
    expect(counters.skipped).toBe(1);
    expect(site.requests.length).toBeGreaterThan(0);
    expect(seen).toEqual([]);
  });

  it('a backup queues the revisions of created and edited items only, and the files of public ones', async () => {
    const items = site.add(5, site.now - 100, 1);
    // A password-protected post: kept, but its files are not fetched.
    site.replacements.set(items[1]!.id, {
      ...site.json(items[1]!),
      content: { rendered: '<p>secret</p>', protected: true },
    });
    await sync({ backup: true });
    const ids = items.map((item) => item.id);
    expect(queued('revisions')).toEqual(ids);
    expect(queued('assets')).toEqual(ids.filter((id) => id !== items[1]!.id));
    for (const task of ['revisions', 'assets'] as const) {
      store.syncQueue.remove('pl', task, 'posts', ids);
    }

    // Nothing changed: nothing queued. One edit: that one.
    await sync({ backup: true });
    expect(queued('revisions')).toEqual([]);
    expect(queued('assets')).toEqual([]);
    site.now += 10;
    site.edit(items[3]!.id);
    await sync({ backup: true });
    expect(queued('revisions')).toEqual([items[3]!.id]);
    expect(queued('assets')).toEqual([items[3]!.id]);
  });

  it('a pull that is not a backup queues no revisions; a file collection queues every changed file', async () => {
    const items = site.add(3, site.now - 100, 1);
    await sync();
    expect(queued('revisions')).toEqual([]);
    expect(queued('assets')).toEqual(items.map((item) => item.id));

    const files = new FakeSite();
    files.add(2, files.now - 100, 1);
    site = files;
    await sync({ type: 'media', backup: true });
    expect(store.syncQueue.next('pl', 'assets', 'media', 0, 10)).toEqual([1, 2]);
    // Files have no revisions.
    expect(store.syncQueue.next('pl', 'revisions', 'media', 0, 10)).toEqual([]);
  });

  it('records in the item history every item a backup pull stored and every one it tombstoned', async () => {
    const items = site.add(12, site.now - 100, 1);
    const first = store.runs.start('pull');
    await sync({ backup: true, historyRun: first });
    const versions = store.itemVersions.versionsOf('pl', 'posts', items[0]!.id);
    expect(versions.map((v) => [v.runId, v.gone])).toEqual([[first, false]]);

    site.items.delete(items[0]!.id);
    site.items.get(items[5]!.id)!.status = 'draft';
    const second = store.runs.start('pull');
    const counters = await sync({ backup: true, historyRun: second });
    expect(counters.deleted).toBe(2);
    expect(
      store.itemVersions.versionsOf('pl', 'posts', items[0]!.id).map((v) => [v.runId, v.gone]),
    ).toEqual([
      [first, false],
      [second, true],
    ]);
    expect(store.items.get('pl', 'posts', items[0]!.id)?.deletedAt).toEqual(expect.any(String));

    // Without a history run nothing is recorded.
    const before = store.itemVersions.versionsOf('pl', 'posts', items[7]!.id).length;
    site.now += 10;
    site.edit(items[7]!.id);
    await sync({ backup: true });
    expect(store.itemVersions.versionsOf('pl', 'posts', items[7]!.id)).toHaveLength(before);
  });

  it('a no-op pull with the count read up front costs one request; a pull that changed something counts again', async () => {
    const items = site.add(30, site.now - 100, 1);
    await sync();
    site.requests = [];
    await sync({ checkedTotal: 30 });
    expect(site.requests).toHaveLength(1);

    site.now += 10;
    site.edit(items[2]!.id);
    site.requests = [];
    const counters = await sync({ checkedTotal: 30 });
    expect(counters).toMatchObject({ created: 0, updated: 1, deleted: 0 });
    // The keyset page, then the count after the crawl (the one up front may be stale).
    expect(site.requests).toHaveLength(2);
  });

  it('records what the counts were after a pull, and when the collection was last listed in full', async () => {
    const items = site.add(15, site.now - 100, 1);
    await sync();
    expect(store.syncState.get('pl', 'posts')).toMatchObject({
      remoteTotal: 15,
      localTotal: 15,
      context: 'view',
      unlisted: 0,
      pullsSinceListing: 0,
      cursor: null,
    });
    site.items.delete(items[0]!.id);
    await sync();
    expect(store.syncState.get('pl', 'posts')).toMatchObject({
      remoteTotal: 14,
      localTotal: 14,
      unlisted: 0,
      pullsSinceListing: 1,
    });
    await sync();
    expect(store.syncState.get('pl', 'posts')?.pullsSinceListing).toBe(2);
  });

  it('lists the collection in full every Nth pull, and from the watermark otherwise', async () => {
    site.add(15, site.now - 100, 1);
    await sync({ fullSweepEvery: 3 });
    for (const pull of [1, 2]) {
      site.requests = [];
      await sync({ fullSweepEvery: 3 });
      expect(site.requests[0]!['modified_after'], `pull ${pull} after the listing`).toBeDefined();
      expect(store.syncState.get('pl', 'posts')?.pullsSinceListing).toBe(pull);
    }
    site.requests = [];
    await sync({ fullSweepEvery: 3 });
    // The third pull after the listing: from the beginning, and no probe (it saw every id).
    expect(site.requests[0]!['modified_after']).toBeUndefined();
    expect(site.requests.filter((q) => q['include'] !== undefined)).toEqual([]);
    expect(store.syncState.get('pl', 'posts')?.pullsSinceListing).toBe(0);
  });

  it('starts over when the context changes, and drops what the new context does not list', async () => {
    const items = site.add(12, site.now - 100, 1);
    await sync({ mode: 'edit' });
    // In the view context the site no longer lists one of them (say, a draft).
    site.items.get(items[4]!.id)!.status = 'draft';
    site.requests = [];
    const counters = await sync({ mode: 'view' });
    expect(warnings()).toContain('posts: switching from context=edit to view: full crawl');
    expect(site.requests[0]!['modified_after']).toBeUndefined();
    expect(counters.deleted).toBe(1);
    expect(store.syncState.get('pl', 'posts')?.context).toBe('view');
  });

  it('stores each item with the context it was read in, and rewrites it when the context changes', async () => {
    const items = site.add(12, site.now - 100, 1);
    await sync({ mode: 'edit' });
    const first = store.items.get('pl', 'posts', items[0]!.id);
    expect(first).toBeDefined();
    expect(first!.context).toBe('edit');
    // The same content read in the view context is another copy (it may lack fields): updated.
    const counters = await sync({ mode: 'view' });
    expect(counters).toMatchObject({ created: 0, updated: 12, unchanged: 0 });
    expect(store.items.get('pl', 'posts', items[0]!.id)!.context).toBe('view');
  });

  it('does not rescan for a new record it had to skip (listed, never stored)', async () => {
    site.add(20, site.now - 100, 1);
    await sync();
    site.now += 10;
    const [late] = site.add(1);
    site.replacements.set(late!.id, { id: late!.id, modified_gmt: 'yesterday' });
    events = [];
    const counters = await sync();
    expect(counters.skipped).toBe(1);
    expect(warnings()).toEqual([
      `posts: skipped a bad record (id ${late!.id}): no modified_gmt timestamp ("yesterday")`,
    ]);
  });

  it('names a bad record by its id only when it has one', async () => {
    const [withId, withoutId] = site.add(2, site.now - 100, 1);
    site.replacements.set(withId!.id, { id: withId!.id, modified_gmt: 'yesterday' });
    site.replacements.set(withoutId!.id, { modified_gmt: site.json(withoutId!).modified_gmt });
    await sync();
    const skipped = warnings().filter((w) => w.startsWith('posts: skipped a bad record'));
    expect(skipped).toHaveLength(2);
    expect(skipped[0]).toMatch(new RegExp(`^posts: skipped a bad record \\(id ${withId!.id}\\): `));
    expect(skipped[1]).toMatch(/^posts: skipped a bad record: /);
  });

  it('does not take a bad record without an id for a listed item: the counts disagree, it rescans', async () => {
    site.add(20, site.now - 100, 1);
    await sync();
    site.now += 10;
    const [late] = site.add(1);
    site.replacements.set(late!.id, { modified_gmt: site.json(late!).modified_gmt });
    events = [];
    const counters = await sync();
    expect(counters.skipped).toBe(1);
    expect(warnings().filter((w) => w.includes('rescanning from the beginning'))).toEqual([
      'posts: the site counts 21 items (0 of them unlisted at the last full listing), the cache 20 after the crawl: rescanning from the beginning',
    ]);
  });

  it('warns when the counts still disagree after the probe, and rescans from the beginning once', async () => {
    site.add(20, site.now - 100, 1);
    await sync();
    site.add(1, site.now - 5000); // listed late with an old date
    events = [];
    await sync();
    expect(warnings()).toEqual([
      'posts: the site counts 21 items (0 of them unlisted at the last full listing), the cache 20 after the crawl: rescanning from the beginning',
    ]);
    expect(store.syncState.get('pl', 'posts')).toMatchObject({
      remoteTotal: 21,
      localTotal: 21,
      unlisted: 0,
      pullsSinceListing: 0,
    });
  });

  it('counts an item read twice in one pull once: updated by the crawl, then unchanged on the rescan', async () => {
    const items = site.add(15, site.now - 100, 1);
    await sync();
    // The rescan reads everything again; the item edited before it counts as updated once.
    site.now += 10;
    site.edit(items[3]!.id);
    site.add(1, site.now - 5000);
    const counters = await sync();
    expect(counters).toMatchObject({ created: 1, updated: 1, deleted: 0 });
    expect(counters.unchanged).toBe(14);
  });

  it('counts an item read unchanged, then edited and read again in the same pull, once as updated', async () => {
    const items = site.add(25, site.now - 1000, 1);
    await sync({ fullSweepEvery: 1 });
    // The next pull lists everything again; after its first page (which read the item as it
    // is cached) the item is edited, so the same listing reaches it once more at its end.
    const edited = items[3]!.id;
    site.requests = [];
    site.beforeRequest = (n) => {
      if (n !== 2) return;
      site.now += 10;
      site.edit(edited);
    };
    const counters = await sync({ fullSweepEvery: 1 });
    site.beforeRequest = undefined;
    expect(site.requests[0]!['modified_after']).toBeUndefined();
    expect(counters).toMatchObject({ created: 0, updated: 1, unchanged: 24, deleted: 0 });
    // And the cache holds the edited version.
    const cached = store.items.get('pl', 'posts', edited);
    expect(cached).toBeDefined();
    expect(JSON.parse(cached!.json)).toMatchObject({ version: 2 });
  });

  it('counts an item created, then edited and read again in the same pull, once as created', async () => {
    const items = site.add(25, site.now - 1000, 1);
    site.beforeRequest = (n) => {
      if (n !== 2) return;
      site.now += 10;
      site.edit(items[3]!.id);
    };
    const counters = await sync();
    site.beforeRequest = undefined;
    expect(counters).toMatchObject({ created: 25, updated: 0, unchanged: 0, deleted: 0 });
    const cached = store.items.get('pl', 'posts', items[3]!.id);
    expect(cached).toBeDefined();
    expect(JSON.parse(cached!.json)).toMatchObject({ version: 2 });
  });

  it('stops at once when the pull is aborted', async () => {
    site.add(5, site.now - 100, 1);
    const controller = new AbortController();
    controller.abort(new Error('stopped by the user'));
    await expect(sync({ signal: controller.signal })).rejects.toThrow('stopped by the user');
    expect(site.requests).toEqual([]);
    expect(store.items.count('pl', 'posts')).toBe(0);
  });

  it('rescans once for items the site counts but never lists, then remembers them', async () => {
    site.add(12, site.now - 100, 1);
    await sync();
    events = [];
    await sync({ unlisted: 1 });
    expect(warnings()).toEqual([
      'posts: the site counts 13 items (0 of them unlisted at the last full listing), the cache 12 after the crawl: rescanning from the beginning',
    ]);
    expect(store.syncState.get('pl', 'posts')).toMatchObject({ unlisted: 1, pullsSinceListing: 0 });

    // Remembered: the next pull agrees at once (keyset page and count, no probe, no rescan).
    events = [];
    site.requests = [];
    await sync({ unlisted: 1 });
    expect(warnings()).toEqual([]);
    expect(site.requests).toHaveLength(2);
    expect(store.syncState.get('pl', 'posts')).toMatchObject({ unlisted: 1, pullsSinceListing: 1 });

    // And named in the warning when something else makes the counts disagree.
    site.add(1, site.now - 5000);
    events = [];
    await sync({ unlisted: 1 });
    expect(warnings()).toEqual([
      'posts: the site counts 14 items (1 of them unlisted at the last full listing), the cache 12 after the crawl: rescanning from the beginning',
    ]);
    expect(store.items.count('pl', 'posts')).toBe(13);
  });

  it('takes the count of a full listing from its first page, and never rescans without counts', async () => {
    const items = site.add(25, site.now - 100, 1);
    await sync();
    expect(site.requests.filter((q) => q['per_page'] === 1)).toEqual([]);

    site.sendTotals = false;
    site.items.delete(items[0]!.id);
    events = [];
    const counters = await sync();
    expect(counters.deleted).toBe(1);
    expect(warnings()).toEqual([]);
  });

  it('queues no children for an item outside a page tree whose link changed', async () => {
    const [post] = site.add(1, site.now - 100);
    Object.assign(post!, { slug: 'a' });
    await sync();
    site.now += 10;
    Object.assign(post!, { slug: 'b' });
    site.edit(post!.id);
    await sync();
    expect(store.syncQueue.counts('pl').filter((c) => c.task === 'children')).toEqual([]);
  });

  it('resumes a crawl killed between keyset pages from the page after the last stored one', async () => {
    site.add(45, site.now - 1000, 1);
    const inner = site.client();
    let calls = 0;
    const dying = Object.assign(Object.create(inner) as typeof inner, {
      get: async (route: string, query?: Record<string, unknown>) => {
        calls += 1;
        if (calls === 3) throw new Error('killed');
        return inner.get(route, query as never);
      },
    });
    await expect(
      new CollectionSync({
        client: dying,
        store,
        lang: 'pl',
        type: 'posts',
        mode: 'view',
        perPage: 10,
        backup: false,
        counters: emptyCounters(),
        emit: () => {},
      }).run(),
    ).rejects.toThrow('killed');
    // Two pages stored (the second page starts again at the first page's last second).
    const afterKill = store.items.count('pl', 'posts');
    expect(afterKill).toBe(19);
    site.requests = [];
    const counters = await sync();
    // Not from the beginning: the stored pages were not read again.
    expect(site.requests[0]!['modified_after']).toBeDefined();
    expect(counters.created).toBe(45 - afterKill);
    expect(counters.unchanged).toBeLessThanOrEqual(1);
    expect(store.items.count('pl', 'posts')).toBe(45);
  });
});
