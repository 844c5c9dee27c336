import { describe, expect, it } from 'vitest';
import { FakeSite } from '../../helpers/fake-site.js';
import { useCollectionSync } from '../../helpers/sync/collection-sync-fixture.js';

/**
 * More of one crawl stream's promises, against the in-memory site (issue 11, mutation testing
 * of collection-sync.ts and crawl-store.ts): the progress a user sees, the work a backup
 * queues, the item history, what a no-op pull costs, and when the crawl starts over.
 */
describe('CollectionSync: progress, queued work, history and restarts', () => {
  const fixture = useCollectionSync();
  const { sync, warnings } = fixture;
  const queued = (task: 'revisions' | 'assets' | 'children', type = 'posts' as const) =>
    fixture.store.syncQueue.next('pl', task, type, 0, 1000);

  it('reports its progress: items stored of the count the site gave, then the deletions phase', async () => {
    fixture.site.add(25, fixture.site.now - 100, 1);
    await sync();
    const progress = fixture.events.flatMap((event) => (event.type === 'progress' ? [event] : []));
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
    fixture.site.add(20, fixture.site.now - 100, 1);
    const seen: number[][] = [];
    await sync({ onItems: (items) => seen.push(items.map((item) => item.id)) });
    expect(seen.every((ids) => ids.length > 0)).toBe(true);
    expect([...new Set(seen.flat())].sort((a, b) => a - b)).toEqual([...fixture.site.items.keys()]);
    seen.length = 0;
    await sync({ onItems: (items) => seen.push(items.map((item) => item.id)) });
    expect(seen.every((ids) => ids.length > 0)).toBe(true);
  });

  it('stores the children a moved page brought in pages of per_page, each shown once to `onItems`', async () => {
    const [top, ...children] = fixture.site.add(8, fixture.site.now - 100, 1);
    Object.assign(top!, { slug: 'top' });
    for (const [n, page] of children.entries())
      Object.assign(page, { slug: `c${n}`, parent: top!.id });
    await sync({ type: 'pages', perPage: 5 });
    fixture.site.now += 10;
    Object.assign(top!, { slug: 'moved' });
    fixture.site.edit(top!.id);
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
    const [bad] = fixture.site.add(1, fixture.site.now - 100);
    fixture.site.replacements.set(bad!.id, { id: bad!.id, modified_gmt: 'yesterday' });
    const seen: number[][] = [];
    const counters = await sync({ onItems: (items) => seen.push(items.map((item) => item.id)) });
    expect(counters.skipped).toBe(1);
    expect(fixture.site.requests.length).toBeGreaterThan(0);
    expect(seen).toEqual([]);
  });

  it('a backup queues the revisions of created and edited items only, and the files of public ones', async () => {
    const items = fixture.site.add(5, fixture.site.now - 100, 1);
    // A password-protected post: kept, but its files are not fetched.
    fixture.site.replacements.set(items[1]!.id, {
      ...fixture.site.json(items[1]!),
      content: { rendered: '<p>secret</p>', protected: true },
    });
    await sync({ backup: true });
    const ids = items.map((item) => item.id);
    expect(queued('revisions')).toEqual(ids);
    expect(queued('assets')).toEqual(ids.filter((id) => id !== items[1]!.id));
    for (const task of ['revisions', 'assets'] as const) {
      fixture.store.syncQueue.remove('pl', task, 'posts', ids);
    }

    // Nothing changed: nothing queued. One edit: that one.
    await sync({ backup: true });
    expect(queued('revisions')).toEqual([]);
    expect(queued('assets')).toEqual([]);
    fixture.site.now += 10;
    fixture.site.edit(items[3]!.id);
    await sync({ backup: true });
    expect(queued('revisions')).toEqual([items[3]!.id]);
    expect(queued('assets')).toEqual([items[3]!.id]);
  });

  it('a pull that is not a backup queues no revisions; a file collection queues every changed file', async () => {
    const items = fixture.site.add(3, fixture.site.now - 100, 1);
    await sync();
    expect(queued('revisions')).toEqual([]);
    expect(queued('assets')).toEqual(items.map((item) => item.id));

    const files = new FakeSite();
    files.add(2, files.now - 100, 1);
    fixture.site = files;
    await sync({ type: 'media', backup: true });
    expect(fixture.store.syncQueue.next('pl', 'assets', 'media', 0, 10)).toEqual([1, 2]);
    // Files have no revisions.
    expect(fixture.store.syncQueue.next('pl', 'revisions', 'media', 0, 10)).toEqual([]);
  });

  it('records in the item history every item a backup pull stored and every one it tombstoned', async () => {
    const items = fixture.site.add(12, fixture.site.now - 100, 1);
    const first = fixture.store.runs.start('pull');
    await sync({ backup: true, historyRun: first });
    const versions = fixture.store.itemVersions.versionsOf('pl', 'posts', items[0]!.id);
    expect(versions.map((v) => [v.runId, v.gone])).toEqual([[first, false]]);

    fixture.site.items.delete(items[0]!.id);
    fixture.site.items.get(items[5]!.id)!.status = 'draft';
    const second = fixture.store.runs.start('pull');
    const counters = await sync({ backup: true, historyRun: second });
    expect(counters.deleted).toBe(2);
    expect(
      fixture.store.itemVersions
        .versionsOf('pl', 'posts', items[0]!.id)
        .map((v) => [v.runId, v.gone]),
    ).toEqual([
      [first, false],
      [second, true],
    ]);
    expect(fixture.store.items.get('pl', 'posts', items[0]!.id)?.deletedAt).toEqual(
      expect.any(String),
    );

    // Without a history run nothing is recorded.
    const before = fixture.store.itemVersions.versionsOf('pl', 'posts', items[7]!.id).length;
    fixture.site.now += 10;
    fixture.site.edit(items[7]!.id);
    await sync({ backup: true });
    expect(fixture.store.itemVersions.versionsOf('pl', 'posts', items[7]!.id)).toHaveLength(before);
  });

  it('a no-op pull with the count read up front costs one request; a pull that changed something counts again', async () => {
    const items = fixture.site.add(30, fixture.site.now - 100, 1);
    await sync();
    fixture.site.requests = [];
    await sync({ checkedTotal: 30 });
    expect(fixture.site.requests).toHaveLength(1);

    fixture.site.now += 10;
    fixture.site.edit(items[2]!.id);
    fixture.site.requests = [];
    const counters = await sync({ checkedTotal: 30 });
    expect(counters).toMatchObject({ created: 0, updated: 1, deleted: 0 });
    // The keyset page, then the count after the crawl (the one up front may be stale).
    expect(fixture.site.requests).toHaveLength(2);
  });

  it('records what the counts were after a pull, and when the collection was last listed in full', async () => {
    const items = fixture.site.add(15, fixture.site.now - 100, 1);
    await sync();
    expect(fixture.store.syncState.get('pl', 'posts')).toMatchObject({
      remoteTotal: 15,
      localTotal: 15,
      context: 'view',
      unlisted: 0,
      pullsSinceListing: 0,
      cursor: null,
    });
    fixture.site.items.delete(items[0]!.id);
    await sync();
    expect(fixture.store.syncState.get('pl', 'posts')).toMatchObject({
      remoteTotal: 14,
      localTotal: 14,
      unlisted: 0,
      pullsSinceListing: 1,
    });
    await sync();
    expect(fixture.store.syncState.get('pl', 'posts')?.pullsSinceListing).toBe(2);
  });

  it('lists the collection in full every Nth pull, and from the watermark otherwise', async () => {
    fixture.site.add(15, fixture.site.now - 100, 1);
    await sync({ fullSweepEvery: 3 });
    for (const pull of [1, 2]) {
      fixture.site.requests = [];
      await sync({ fullSweepEvery: 3 });
      expect(
        fixture.site.requests[0]!['modified_after'],
        `pull ${pull} after the listing`,
      ).toBeDefined();
      expect(fixture.store.syncState.get('pl', 'posts')?.pullsSinceListing).toBe(pull);
    }
    fixture.site.requests = [];
    await sync({ fullSweepEvery: 3 });
    // The third pull after the listing: from the beginning, and no probe (it saw every id).
    expect(fixture.site.requests[0]!['modified_after']).toBeUndefined();
    expect(fixture.site.requests.filter((q) => q['include'] !== undefined)).toEqual([]);
    expect(fixture.store.syncState.get('pl', 'posts')?.pullsSinceListing).toBe(0);
  });

  it('starts over when the context changes, and drops what the new context does not list', async () => {
    const items = fixture.site.add(12, fixture.site.now - 100, 1);
    await sync({ mode: 'edit' });
    // In the view context the site no longer lists one of them (say, a draft).
    fixture.site.items.get(items[4]!.id)!.status = 'draft';
    fixture.site.requests = [];
    const counters = await sync({ mode: 'view' });
    expect(warnings()).toContain('posts: switching from context=edit to view: full crawl');
    expect(fixture.site.requests[0]!['modified_after']).toBeUndefined();
    expect(counters.deleted).toBe(1);
    expect(fixture.store.syncState.get('pl', 'posts')?.context).toBe('view');
  });

  it('stores each item with the context it was read in, and rewrites it when the context changes', async () => {
    const items = fixture.site.add(12, fixture.site.now - 100, 1);
    await sync({ mode: 'edit' });
    const first = fixture.store.items.get('pl', 'posts', items[0]!.id);
    expect(first).toBeDefined();
    expect(first!.context).toBe('edit');
    // The same content read in the view context is another copy (it may lack fields): updated.
    const counters = await sync({ mode: 'view' });
    expect(counters).toMatchObject({ created: 0, updated: 12, unchanged: 0 });
    expect(fixture.store.items.get('pl', 'posts', items[0]!.id)!.context).toBe('view');
  });

  it('does not rescan for a new record it had to skip (listed, never stored)', async () => {
    fixture.site.add(20, fixture.site.now - 100, 1);
    await sync();
    fixture.site.now += 10;
    const [late] = fixture.site.add(1);
    fixture.site.replacements.set(late!.id, { id: late!.id, modified_gmt: 'yesterday' });
    fixture.events.length = 0;
    const counters = await sync();
    expect(counters.skipped).toBe(1);
    expect(warnings()).toEqual([
      `posts: skipped a bad record (id ${late!.id}): no modified_gmt timestamp ("yesterday")`,
    ]);
  });

  it('names a bad record by its id only when it has one', async () => {
    const [withId, withoutId] = fixture.site.add(2, fixture.site.now - 100, 1);
    fixture.site.replacements.set(withId!.id, { id: withId!.id, modified_gmt: 'yesterday' });
    fixture.site.replacements.set(withoutId!.id, {
      modified_gmt: fixture.site.json(withoutId!).modified_gmt,
    });
    await sync();
    const skipped = warnings().filter((w) => w.startsWith('posts: skipped a bad record'));
    expect(skipped).toHaveLength(2);
    expect(skipped[0]).toMatch(new RegExp(`^posts: skipped a bad record \\(id ${withId!.id}\\): `));
    expect(skipped[1]).toMatch(/^posts: skipped a bad record: /);
  });

  it('does not take a bad record without an id for a listed item: the counts disagree, it rescans', async () => {
    fixture.site.add(20, fixture.site.now - 100, 1);
    await sync();
    fixture.site.now += 10;
    const [late] = fixture.site.add(1);
    fixture.site.replacements.set(late!.id, {
      modified_gmt: fixture.site.json(late!).modified_gmt,
    });
    fixture.events.length = 0;
    const counters = await sync();
    expect(counters.skipped).toBe(1);
    expect(warnings().filter((w) => w.includes('rescanning from the beginning'))).toEqual([
      'posts: the site counts 21 items (0 of them unlisted at the last full listing), the cache 20 after the crawl: rescanning from the beginning',
    ]);
  });

  it('warns when the counts still disagree after the probe, and rescans from the beginning once', async () => {
    fixture.site.add(20, fixture.site.now - 100, 1);
    await sync();
    fixture.site.add(1, fixture.site.now - 5000); // listed late with an old date
    fixture.events.length = 0;
    await sync();
    expect(warnings()).toEqual([
      'posts: the site counts 21 items (0 of them unlisted at the last full listing), the cache 20 after the crawl: rescanning from the beginning',
    ]);
    expect(fixture.store.syncState.get('pl', 'posts')).toMatchObject({
      remoteTotal: 21,
      localTotal: 21,
      unlisted: 0,
      pullsSinceListing: 0,
    });
  });

  it('counts an item read twice in one pull once: updated by the crawl, then unchanged on the rescan', async () => {
    const items = fixture.site.add(15, fixture.site.now - 100, 1);
    await sync();
    // The rescan reads everything again; the item edited before it counts as updated once.
    fixture.site.now += 10;
    fixture.site.edit(items[3]!.id);
    fixture.site.add(1, fixture.site.now - 5000);
    const counters = await sync();
    expect(counters).toMatchObject({ created: 1, updated: 1, deleted: 0 });
    expect(counters.unchanged).toBe(14);
  });

  it('counts an item read unchanged, then edited and read again in the same pull, once as updated', async () => {
    const items = fixture.site.add(25, fixture.site.now - 1000, 1);
    await sync({ fullSweepEvery: 1 });
    // The next pull lists everything again; after its first page (which read the item as it
    // is cached) the item is edited, so the same listing reaches it once more at its end.
    const edited = items[3]!.id;
    fixture.site.requests = [];
    fixture.site.beforeRequest = (n) => {
      if (n !== 2) return;
      fixture.site.now += 10;
      fixture.site.edit(edited);
    };
    const counters = await sync({ fullSweepEvery: 1 });
    fixture.site.beforeRequest = undefined;
    expect(fixture.site.requests[0]!['modified_after']).toBeUndefined();
    expect(counters).toMatchObject({ created: 0, updated: 1, unchanged: 24, deleted: 0 });
    // And the cache holds the edited version.
    const cached = fixture.store.items.get('pl', 'posts', edited);
    expect(cached).toBeDefined();
    expect(JSON.parse(cached!.json)).toMatchObject({ version: 2 });
  });

  it('counts an item created, then edited and read again in the same pull, once as created', async () => {
    const items = fixture.site.add(25, fixture.site.now - 1000, 1);
    fixture.site.beforeRequest = (n) => {
      if (n !== 2) return;
      fixture.site.now += 10;
      fixture.site.edit(items[3]!.id);
    };
    const counters = await sync();
    fixture.site.beforeRequest = undefined;
    expect(counters).toMatchObject({ created: 25, updated: 0, unchanged: 0, deleted: 0 });
    const cached = fixture.store.items.get('pl', 'posts', items[3]!.id);
    expect(cached).toBeDefined();
    expect(JSON.parse(cached!.json)).toMatchObject({ version: 2 });
  });

  it('stops at once when the pull is aborted', async () => {
    fixture.site.add(5, fixture.site.now - 100, 1);
    const controller = new AbortController();
    controller.abort(new Error('stopped by the user'));
    await expect(sync({ signal: controller.signal })).rejects.toThrow('stopped by the user');
    expect(fixture.site.requests).toEqual([]);
    expect(fixture.store.items.count('pl', 'posts')).toBe(0);
  });

  it('rescans once for items the site counts but never lists, then remembers them', async () => {
    fixture.site.add(12, fixture.site.now - 100, 1);
    await sync();
    fixture.events.length = 0;
    await sync({ unlisted: 1 });
    expect(warnings()).toEqual([
      'posts: the site counts 13 items (0 of them unlisted at the last full listing), the cache 12 after the crawl: rescanning from the beginning',
    ]);
    expect(fixture.store.syncState.get('pl', 'posts')).toMatchObject({
      unlisted: 1,
      pullsSinceListing: 0,
    });

    // Remembered: the next pull agrees at once (keyset page and count, no probe, no rescan).
    fixture.events.length = 0;
    fixture.site.requests = [];
    await sync({ unlisted: 1 });
    expect(warnings()).toEqual([]);
    expect(fixture.site.requests).toHaveLength(2);
    expect(fixture.store.syncState.get('pl', 'posts')).toMatchObject({
      unlisted: 1,
      pullsSinceListing: 1,
    });

    // And named in the warning when something else makes the counts disagree.
    fixture.site.add(1, fixture.site.now - 5000);
    fixture.events.length = 0;
    await sync({ unlisted: 1 });
    expect(warnings()).toEqual([
      'posts: the site counts 14 items (1 of them unlisted at the last full listing), the cache 12 after the crawl: rescanning from the beginning',
    ]);
    expect(fixture.store.items.count('pl', 'posts')).toBe(13);
  });

  it('takes the count of a full listing from its first page, and never rescans without counts', async () => {
    const items = fixture.site.add(25, fixture.site.now - 100, 1);
    await sync();
    expect(fixture.site.requests.filter((q) => q['per_page'] === 1)).toEqual([]);

    fixture.site.sendTotals = false;
    fixture.site.items.delete(items[0]!.id);
    fixture.events.length = 0;
    const counters = await sync();
    expect(counters.deleted).toBe(1);
    expect(warnings()).toEqual([]);
  });

  it('queues no children for an item outside a page tree whose link changed', async () => {
    const [post] = fixture.site.add(1, fixture.site.now - 100);
    Object.assign(post!, { slug: 'a' });
    await sync();
    fixture.site.now += 10;
    Object.assign(post!, { slug: 'b' });
    fixture.site.edit(post!.id);
    await sync();
    expect(fixture.store.syncQueue.counts('pl').filter((c) => c.task === 'children')).toEqual([]);
  });

  it('resumes a crawl killed between keyset pages from the page after the last stored one', async () => {
    fixture.site.add(45, fixture.site.now - 1000, 1);
    const inner = fixture.site.client();
    let calls = 0;
    const dying = Object.assign(Object.create(inner) as typeof inner, {
      get: async (route: string, query?: Record<string, unknown>) => {
        calls += 1;
        if (calls === 3) throw new Error('killed');
        return inner.get(route, query as never);
      },
    });
    await expect(sync({ client: dying })).rejects.toThrow('killed');
    // Two pages stored (the second page starts again at the first page's last second).
    const afterKill = fixture.store.items.count('pl', 'posts');
    expect(afterKill).toBe(19);
    fixture.site.requests = [];
    const counters = await sync();
    // Not from the beginning: the stored pages were not read again.
    expect(fixture.site.requests[0]!['modified_after']).toBeDefined();
    expect(counters.created).toBe(45 - afterKill);
    expect(counters.unchanged).toBeLessThanOrEqual(1);
    expect(fixture.store.items.count('pl', 'posts')).toBe(45);
  });
});
