import { describe, expect, it } from 'vitest';
import { useCollectionSync } from '../../helpers/sync/collection-sync-fixture.js';
import { gmt } from '../../helpers/fake-site.js';

describe('CollectionSync (keyset crawl against an in-memory fixture.site)', () => {
  const fixture = useCollectionSync();
  const { sync } = fixture;
  const warnings = (): string[] => fixture.warnings();

  function cached(type: 'posts' | 'pages' = 'posts'): Map<number, Record<string, unknown>> {
    return new Map(
      [...fixture.store.items.iterate('pl', type)].map((row) => [row.id, JSON.parse(row.json)]),
    );
  }

  it('mirrors every item of a tie larger than a page (25 items in one second, pages of 10)', async () => {
    fixture.site.add(5, fixture.site.now - 100);
    fixture.site.add(25, fixture.site.now - 50);
    fixture.site.add(5, fixture.site.now - 10);
    const counters = await sync();
    expect(cached()).toEqual(fixture.site.expected());
    expect(counters).toMatchObject({ created: 35, updated: 0, unchanged: 0, deleted: 0 });
    // The tie was swept in id order within its second.
    expect(
      fixture.site.requests.some(
        (q) => q['orderby'] === 'id' && q['modified_before'] !== undefined,
      ),
    ).toBe(true);
  });

  it('misses nothing and counts nothing twice when items are edited, created and deleted mid-crawl', async () => {
    const initial = fixture.site
      .add(60, fixture.site.now - 1000)
      .concat(fixture.site.add(60, fixture.site.now - 500));
    fixture.site.beforeRequest = (n) => {
      fixture.site.now += 1;
      if (n === 2) fixture.site.edit(initial[0]!.id); // already read: moves to the end
      if (n === 3) fixture.site.edit(initial[100]!.id); // not read yet: moves to the end
      if (n === 4) fixture.site.add(3);
      if (n === 5) fixture.site.items.delete(initial[70]!.id);
      if (n === 6) fixture.site.items.delete(initial[1]!.id); // read already
    };
    const first = await sync();
    const stillThere = initial
      .filter((item) => fixture.site.items.has(item.id))
      .map((item) => item.id);
    const ids = cached();
    for (const id of stillThere) expect(ids.has(id)).toBe(true);
    expect(warnings().filter((w) => /rescanning/.test(w))).toEqual([]);
    // Every id counted once: creations of what was seen, no double counting of the edits.
    expect(first.created).toBe(ids.size + first.deleted);
    expect(first.updated + first.unchanged).toBe(0);

    fixture.site.beforeRequest = undefined;
    fixture.site.now += 5;
    await sync();
    expect(cached()).toEqual(fixture.site.expected());
    const gone = fixture.store.items.get('pl', 'posts', initial[1]!.id);
    expect(gone, 'kept as a tombstone').toBeDefined();
    expect(gone!.deletedAt).toEqual(expect.any(String));
  });

  it('keeps every item of a tie whose items leave the second during the sweep', async () => {
    const tie = fixture.site.add(35, fixture.site.now - 50);
    fixture.site.add(3, fixture.site.now - 10);
    let sweeps = 0;
    fixture.site.beforeRequest = () => {
      const query = fixture.site.requests.at(-1)!;
      if (query['orderby'] === 'id' && query['page'] === 2) {
        sweeps += 1;
        // Items early in id order leave the second: later pages shift down by one.
        if (sweeps <= 2) fixture.site.edit(tie[sweeps]!.id);
      }
      fixture.site.now += 1;
    };
    await sync();
    fixture.site.beforeRequest = undefined;
    const ids = cached();
    for (const item of tie) expect(ids.has(item.id)).toBe(true);
    // Found by the repeated sweep itself, not by the rescan safety net.
    expect(warnings().filter((w) => /rescanning/.test(w))).toEqual([]);
    await sync();
    expect(cached()).toEqual(fixture.site.expected());
  });

  it('reads again, on the next pull, an item edited in a second the crawl had already passed', async () => {
    const start = fixture.site.now;
    const old = fixture.site.add(5, start - 100, 1);
    fixture.site.add(12, start); // a tie in the current second
    fixture.site.beforeRequest = (n) => {
      const query = fixture.site.requests.at(-1)!;
      if (n > 2 && query['orderby'] === 'modified') {
        // The crawl is now strictly after `start`, and the clock still says `start`.
        fixture.site.edit(old[0]!.id);
        fixture.site.now += 1;
        fixture.site.edit(old[1]!.id);
        fixture.site.beforeRequest = undefined;
      }
    };
    await sync();
    expect(fixture.store.items.get('pl', 'posts', old[1]!.id)?.json).toContain('v2');
    expect(fixture.store.items.get('pl', 'posts', old[0]!.id)?.json).toContain('v1'); // missed so far
    // The watermark stops at the server clock of the crawl start, not at old[1]'s newer time.
    expect(fixture.store.syncState.get('pl', 'posts')?.watermarkGmt).toBe(gmt(start));
    await sync();
    expect(cached()).toEqual(fixture.site.expected());
    expect(warnings().filter((w) => /rescanning/.test(w))).toEqual([]);
  });

  it('resumes a killed crawl from its last committed page and ends equal to the site', async () => {
    fixture.site.add(95, fixture.site.now - 1000);
    fixture.site.add(20, fixture.site.now - 500); // a tie bigger than a page
    fixture.site.add(30, fixture.site.now - 100);
    await expect(sync({ failAfter: 6 })).rejects.toThrow('killed');
    const afterKill = fixture.store.items.count('pl', 'posts');
    expect(afterKill).toBeGreaterThanOrEqual(50);
    const state = fixture.store.syncState.get('pl', 'posts');
    expect(state, 'sync_state of pl/posts').toBeDefined();
    expect(state!.cursor).toEqual(expect.objectContaining({ page: expect.any(Number) }));
    const before = fixture.site.requests.length;
    await sync();
    expect(cached()).toEqual(fixture.site.expected());
    // It resumed: the resumed run did not read the first pages again.
    const resumedFirst = fixture.site.requests[before]!;
    expect(resumedFirst['modified_after']).toBeDefined();
    expect(fixture.store.syncState.get('pl', 'posts')?.cursor).toBeNull();
  });

  it('costs two requests when nothing changed (keyset + count) and counts re-reads as unchanged', async () => {
    fixture.site.add(30, fixture.site.now - 100, 1);
    await sync();
    fixture.site.requests = [];
    const counters = await sync();
    expect(fixture.site.requests).toHaveLength(2);
    expect(counters).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    expect(counters.unchanged).toBeGreaterThanOrEqual(1);
  });

  it('probes ids only when the counts disagree, and tombstones the absent ones', async () => {
    const items = fixture.site.add(30, fixture.site.now - 100, 1);
    await sync();
    fixture.site.items.delete(items[4]!.id);
    fixture.site.items.get(items[9]!.id)!.status = 'draft'; // unpublished without a new modified
    fixture.site.requests = [];
    const counters = await sync();
    expect(counters.deleted).toBe(2);
    // 29 live ids not re-read by the keyset query (only the last second is), 10 per probe.
    expect(fixture.site.requests.filter((q) => q['include'] !== undefined)).toHaveLength(3);
    expect(cached()).toEqual(fixture.site.expected());
    expect(fixture.store.items.count('pl', 'posts', { includeDeleted: true })).toBe(30);
  });

  it('without count headers probes every live id it did not see (documented cost)', async () => {
    fixture.site.sendTotals = false;
    const items = fixture.site.add(25, fixture.site.now - 100);
    await sync();
    fixture.site.items.delete(items[0]!.id);
    const counters = await sync();
    expect(counters.deleted).toBe(1);
    expect(cached()).toEqual(fixture.site.expected());
  });

  it('rescans when the site lists more items than the cache after the probe', async () => {
    fixture.site.add(20, fixture.site.now - 100);
    await sync();
    // An item appears with an old modified_gmt (a scheduled post going live keeps its date).
    fixture.site.add(1, fixture.site.now - 5000);
    const counters = await sync();
    expect(counters.created).toBe(1);
    expect(cached()).toEqual(fixture.site.expected());
    expect(warnings().some((w) => /rescanning/.test(w))).toBe(true);
  });

  it('logs, counts and skips bad records once each without stopping the crawl', async () => {
    const items = fixture.site.add(25, fixture.site.now - 100);
    fixture.site.replacements.set(items[3]!.id, { id: 'x' });
    fixture.site.replacements.set(items[12]!.id, 'not an object');
    const counters = await sync();
    expect(counters.skipped).toBe(2);
    expect(counters.created).toBe(23);
    expect(warnings().filter((w) => /bad record/.test(w))).toHaveLength(2);
  });

  it('refetches the descendants of a moved page by parent, level by level, through a parent cycle', async () => {
    // 12 pages under one chain top → mid → leaf, plus a sibling tree that does not move.
    const [top, mid, leaf, other, ...rest] = fixture.site.add(16, fixture.site.now - 100, 1);
    Object.assign(top!, { slug: 'top' });
    Object.assign(mid!, { slug: 'mid', parent: top!.id });
    Object.assign(leaf!, { slug: 'leaf', parent: mid!.id });
    Object.assign(other!, { slug: 'other' });
    for (const [n, page] of rest.entries()) {
      Object.assign(page, { slug: `p${n}`, parent: n < 6 ? leaf!.id : other!.id });
    }
    await sync({ type: 'pages', perPage: 5 });
    fixture.site.requests = [];
    await sync({ type: 'pages', perPage: 5 });
    // Nothing moved: no request by parent.
    expect(fixture.site.requests.filter((q) => q['parent'] !== undefined)).toEqual([]);

    // The top page gets a new slug and, on top of it, a parent cycle (top under leaf).
    fixture.site.now += 10;
    Object.assign(top!, { slug: 'moved', parent: leaf!.id });
    fixture.site.edit(top!.id);
    fixture.site.requests = [];
    const counters = await sync({ type: 'pages', perPage: 5 });
    expect(cached('pages')).toEqual(fixture.site.expected());
    expect(cached('pages').get(rest[0]!.id)?.['link']).toContain('/moved/');
    // top, mid, leaf and leaf's 6 children; the other tree is untouched.
    expect(counters).toMatchObject({ created: 0, updated: 9, deleted: 0 });
    const byParent = fixture.site.requests.filter((q) => q['parent'] !== undefined);
    // Levels: [top] → [mid] → [leaf] (2 pages: 6 children + top, whose link is now cached)
    // → leaf's 6 children in chunks of per_page (no children; top is not asked twice).
    const children = rest.slice(0, 6).map((page) => page.id);
    expect(byParent.map((q) => q['parent'])).toEqual([
      [top!.id],
      [mid!.id],
      [leaf!.id],
      [leaf!.id],
      children.slice(0, 5),
      children.slice(5),
    ]);
  });

  it('refetches the children of a page moved by a pull that died before refetching them', async () => {
    const [top, mid, ...children] = fixture.site.add(8, fixture.site.now - 100, 1);
    Object.assign(top!, { slug: 'top' });
    Object.assign(mid!, { slug: 'mid', parent: top!.id });
    for (const [n, page] of children.entries())
      Object.assign(page, { slug: `c${n}`, parent: mid!.id });
    await sync({ type: 'pages', perPage: 5 });

    fixture.site.now += 10;
    Object.assign(top!, { slug: 'moved' });
    fixture.site.edit(top!.id);
    // The pull stores the moved page, then dies at its first request by parent.
    fixture.site.beforeRequest = (n) => {
      if (fixture.site.requests[n - 1]?.['parent'] !== undefined) throw new Error('killed');
    };
    await expect(sync({ type: 'pages', perPage: 5 })).rejects.toThrow('killed');
    fixture.site.beforeRequest = undefined;
    expect(cached('pages').get(top!.id)?.['link']).toContain('/moved/');
    expect(cached('pages').get(children[0]!.id)?.['link']).not.toContain('/moved/');

    // Nothing changes on the site: the next pull still owes the children their new links.
    fixture.site.requests = [];
    await sync({ type: 'pages', perPage: 5 });
    expect(cached('pages')).toEqual(fixture.site.expected());
    expect(cached('pages').get(children[0]!.id)?.['link']).toContain('/moved/mid/');
    expect(fixture.site.requests.filter((q) => q['parent'] !== undefined).length).toBeGreaterThan(
      0,
    );
    expect(
      fixture.store.syncQueue.counts('pl').filter((count) => count.task === 'children'),
    ).toEqual([]);

    // And once done, a pull owes nothing: no request by parent.
    fixture.site.requests = [];
    await sync({ type: 'pages', perPage: 5 });
    expect(fixture.site.requests.filter((q) => q['parent'] !== undefined)).toEqual([]);
  });
});
