import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../../src/store/index.js';
import { CollectionSync } from '../../../src/sync/collection-sync.js';
import {
  emptyCounters,
  type PullCounters,
  type PullEvent,
} from '../../../src/sync/pull-summary.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';
import { FakeSite, gmt } from '../../helpers/fake-site.js';

describe('CollectionSync (keyset crawl against an in-memory site)', () => {
  let temp: TempCache;
  let store: Store;
  let site: FakeSite;
  let warnings: string[];
  beforeEach(() => {
    temp = tempCache();
    store = openStore(temp.file);
    site = new FakeSite();
    warnings = [];
  });
  afterEach(() => {
    store.close();
    temp.cleanup();
  });

  async function sync(
    options: { perPage?: number; failAfter?: number; type?: 'posts' | 'pages' } = {},
  ): Promise<PullCounters> {
    const counters = emptyCounters();
    await new CollectionSync({
      client: site.client(options.failAfter === undefined ? {} : { failAfter: options.failAfter }),
      store,
      lang: 'pl',
      type: options.type ?? 'posts',
      mode: 'view',
      perPage: options.perPage ?? 10,
      backup: false,
      counters,
      emit: (event: PullEvent) => {
        if (event.type === 'warning') warnings.push(event.message);
      },
    }).run();
    return counters;
  }

  function cached(type: 'posts' | 'pages' = 'posts'): Map<number, Record<string, unknown>> {
    return new Map(
      [...store.items.iterate('pl', type)].map((row) => [row.id, JSON.parse(row.json)]),
    );
  }

  it('mirrors every item of a tie larger than a page (25 items in one second, pages of 10)', async () => {
    site.add(5, site.now - 100);
    site.add(25, site.now - 50);
    site.add(5, site.now - 10);
    const counters = await sync();
    expect(cached()).toEqual(site.expected());
    expect(counters).toMatchObject({ created: 35, updated: 0, unchanged: 0, deleted: 0 });
    // The tie was swept in id order within its second.
    expect(
      site.requests.some((q) => q['orderby'] === 'id' && q['modified_before'] !== undefined),
    ).toBe(true);
  });

  it('misses nothing and counts nothing twice when items are edited, created and deleted mid-crawl', async () => {
    const initial = site.add(60, site.now - 1000).concat(site.add(60, site.now - 500));
    site.beforeRequest = (n) => {
      site.now += 1;
      if (n === 2) site.edit(initial[0]!.id); // already read: moves to the end
      if (n === 3) site.edit(initial[100]!.id); // not read yet: moves to the end
      if (n === 4) site.add(3);
      if (n === 5) site.items.delete(initial[70]!.id);
      if (n === 6) site.items.delete(initial[1]!.id); // read already
    };
    const first = await sync();
    const stillThere = initial.filter((item) => site.items.has(item.id)).map((item) => item.id);
    const ids = cached();
    for (const id of stillThere) expect(ids.has(id)).toBe(true);
    expect(warnings.filter((w) => /rescanning/.test(w))).toEqual([]);
    // Every id counted once: creations of what was seen, no double counting of the edits.
    expect(first.created).toBe(ids.size + first.deleted);
    expect(first.updated + first.unchanged).toBe(0);

    site.beforeRequest = undefined;
    site.now += 5;
    await sync();
    expect(cached()).toEqual(site.expected());
    const gone = store.items.get('pl', 'posts', initial[1]!.id);
    expect(gone, 'kept as a tombstone').toBeDefined();
    expect(gone!.deletedAt).toEqual(expect.any(String));
  });

  it('keeps every item of a tie whose items leave the second during the sweep', async () => {
    const tie = site.add(35, site.now - 50);
    site.add(3, site.now - 10);
    let sweeps = 0;
    site.beforeRequest = () => {
      const query = site.requests.at(-1)!;
      if (query['orderby'] === 'id' && query['page'] === 2) {
        sweeps += 1;
        // Items early in id order leave the second: later pages shift down by one.
        if (sweeps <= 2) site.edit(tie[sweeps]!.id);
      }
      site.now += 1;
    };
    await sync();
    site.beforeRequest = undefined;
    const ids = cached();
    for (const item of tie) expect(ids.has(item.id)).toBe(true);
    // Found by the repeated sweep itself, not by the rescan safety net.
    expect(warnings.filter((w) => /rescanning/.test(w))).toEqual([]);
    await sync();
    expect(cached()).toEqual(site.expected());
  });

  it('reads again, on the next pull, an item edited in a second the crawl had already passed', async () => {
    const start = site.now;
    const old = site.add(5, start - 100, 1);
    site.add(12, start); // a tie in the current second
    site.beforeRequest = (n) => {
      const query = site.requests.at(-1)!;
      if (n > 2 && query['orderby'] === 'modified') {
        // The crawl is now strictly after `start`, and the clock still says `start`.
        site.edit(old[0]!.id);
        site.now += 1;
        site.edit(old[1]!.id);
        site.beforeRequest = undefined;
      }
    };
    await sync();
    expect(store.items.get('pl', 'posts', old[1]!.id)?.json).toContain('v2');
    expect(store.items.get('pl', 'posts', old[0]!.id)?.json).toContain('v1'); // missed so far
    // The watermark stops at the server clock of the crawl start, not at old[1]'s newer time.
    expect(store.syncState.get('pl', 'posts')?.watermarkGmt).toBe(gmt(start));
    await sync();
    expect(cached()).toEqual(site.expected());
    expect(warnings.filter((w) => /rescanning/.test(w))).toEqual([]);
  });

  it('resumes a killed crawl from its last committed page and ends equal to the site', async () => {
    site.add(95, site.now - 1000);
    site.add(20, site.now - 500); // a tie bigger than a page
    site.add(30, site.now - 100);
    await expect(sync({ failAfter: 6 })).rejects.toThrow('killed');
    const afterKill = store.items.count('pl', 'posts');
    expect(afterKill).toBeGreaterThanOrEqual(50);
    const state = store.syncState.get('pl', 'posts');
    expect(state, 'sync_state of pl/posts').toBeDefined();
    expect(state!.cursor).toEqual(expect.objectContaining({ page: expect.any(Number) }));
    const before = site.requests.length;
    await sync();
    expect(cached()).toEqual(site.expected());
    // It resumed: the resumed run did not read the first pages again.
    const resumedFirst = site.requests[before]!;
    expect(resumedFirst['modified_after']).toBeDefined();
    expect(store.syncState.get('pl', 'posts')?.cursor).toBeNull();
  });

  it('costs two requests when nothing changed (keyset + count) and counts re-reads as unchanged', async () => {
    site.add(30, site.now - 100, 1);
    await sync();
    site.requests = [];
    const counters = await sync();
    expect(site.requests).toHaveLength(2);
    expect(counters).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    expect(counters.unchanged).toBeGreaterThanOrEqual(1);
  });

  it('probes ids only when the counts disagree, and tombstones the absent ones', async () => {
    const items = site.add(30, site.now - 100, 1);
    await sync();
    site.items.delete(items[4]!.id);
    site.items.get(items[9]!.id)!.status = 'draft'; // unpublished without a new modified
    site.requests = [];
    const counters = await sync();
    expect(counters.deleted).toBe(2);
    // 29 live ids not re-read by the keyset query (only the last second is), 10 per probe.
    expect(site.requests.filter((q) => q['include'] !== undefined)).toHaveLength(3);
    expect(cached()).toEqual(site.expected());
    expect(store.items.count('pl', 'posts', { includeDeleted: true })).toBe(30);
  });

  it('without count headers probes every live id it did not see (documented cost)', async () => {
    site.sendTotals = false;
    const items = site.add(25, site.now - 100);
    await sync();
    site.items.delete(items[0]!.id);
    const counters = await sync();
    expect(counters.deleted).toBe(1);
    expect(cached()).toEqual(site.expected());
  });

  it('rescans when the site lists more items than the cache after the probe', async () => {
    site.add(20, site.now - 100);
    await sync();
    // An item appears with an old modified_gmt (a scheduled post going live keeps its date).
    site.add(1, site.now - 5000);
    const counters = await sync();
    expect(counters.created).toBe(1);
    expect(cached()).toEqual(site.expected());
    expect(warnings.some((w) => /rescanning/.test(w))).toBe(true);
  });

  it('logs, counts and skips bad records once each without stopping the crawl', async () => {
    const items = site.add(25, site.now - 100);
    site.replacements.set(items[3]!.id, { id: 'x' });
    site.replacements.set(items[12]!.id, 'not an object');
    const counters = await sync();
    expect(counters.skipped).toBe(2);
    expect(counters.created).toBe(23);
    expect(warnings.filter((w) => /bad record/.test(w))).toHaveLength(2);
  });

  it('refetches the descendants of a moved page by parent, level by level, through a parent cycle', async () => {
    // 12 pages under one chain top → mid → leaf, plus a sibling tree that does not move.
    const [top, mid, leaf, other, ...rest] = site.add(16, site.now - 100, 1);
    Object.assign(top!, { slug: 'top' });
    Object.assign(mid!, { slug: 'mid', parent: top!.id });
    Object.assign(leaf!, { slug: 'leaf', parent: mid!.id });
    Object.assign(other!, { slug: 'other' });
    for (const [n, page] of rest.entries()) {
      Object.assign(page, { slug: `p${n}`, parent: n < 6 ? leaf!.id : other!.id });
    }
    await sync({ type: 'pages', perPage: 5 });
    site.requests = [];
    await sync({ type: 'pages', perPage: 5 });
    // Nothing moved: no request by parent.
    expect(site.requests.filter((q) => q['parent'] !== undefined)).toEqual([]);

    // The top page gets a new slug and, on top of it, a parent cycle (top under leaf).
    site.now += 10;
    Object.assign(top!, { slug: 'moved', parent: leaf!.id });
    site.edit(top!.id);
    site.requests = [];
    const counters = await sync({ type: 'pages', perPage: 5 });
    expect(cached('pages')).toEqual(site.expected());
    expect(cached('pages').get(rest[0]!.id)?.['link']).toContain('/moved/');
    // top, mid, leaf and leaf's 6 children; the other tree is untouched.
    expect(counters).toMatchObject({ created: 0, updated: 9, deleted: 0 });
    const byParent = site.requests.filter((q) => q['parent'] !== undefined);
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
    const [top, mid, ...children] = site.add(8, site.now - 100, 1);
    Object.assign(top!, { slug: 'top' });
    Object.assign(mid!, { slug: 'mid', parent: top!.id });
    for (const [n, page] of children.entries())
      Object.assign(page, { slug: `c${n}`, parent: mid!.id });
    await sync({ type: 'pages', perPage: 5 });

    site.now += 10;
    Object.assign(top!, { slug: 'moved' });
    site.edit(top!.id);
    // The pull stores the moved page, then dies at its first request by parent.
    site.beforeRequest = (n) => {
      if (site.requests[n - 1]?.['parent'] !== undefined) throw new Error('killed');
    };
    await expect(sync({ type: 'pages', perPage: 5 })).rejects.toThrow('killed');
    site.beforeRequest = undefined;
    expect(cached('pages').get(top!.id)?.['link']).toContain('/moved/');
    expect(cached('pages').get(children[0]!.id)?.['link']).not.toContain('/moved/');

    // Nothing changes on the site: the next pull still owes the children their new links.
    site.requests = [];
    await sync({ type: 'pages', perPage: 5 });
    expect(cached('pages')).toEqual(site.expected());
    expect(cached('pages').get(children[0]!.id)?.['link']).toContain('/moved/mid/');
    expect(site.requests.filter((q) => q['parent'] !== undefined).length).toBeGreaterThan(0);
    expect(store.syncQueue.counts('pl').filter((count) => count.task === 'children')).toEqual([]);

    // And once done, a pull owes nothing: no request by parent.
    site.requests = [];
    await sync({ type: 'pages', perPage: 5 });
    expect(site.requests.filter((q) => q['parent'] !== undefined)).toEqual([]);
  });
});
