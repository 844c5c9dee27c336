import { beforeEach, describe, expect, it } from 'vitest';
import type { CmsClient, ListPage, Query } from '../../../src/client/index.js';
import { walkPages } from '../../../src/client/page-walk.js';
import { BodyError, HttpError, NetworkError, SiteError } from '../../../src/errors.js';
import type { Store } from '../../../src/store/index.js';
import { emptyCounters, type PullEvent } from '../../../src/sync/pull-summary.js';
import { MAX_REVISIONS, syncRevisions } from '../../../src/sync/revisions-sync.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';

/**
 * The backup's revisions and autosaves (issue 11, "revisions after a crash"): a queued parent
 * leaves the `revisions` queue only once its lists are fetched and stored, so a failed or
 * killed fetch is retried by the next pull. Against a real SQLite cache and an in-memory site
 * that answers the autosaves and revisions routes as the interface describes (revisions paged
 * by `per_page`/`page` with `X-CMS-Total`; the walk over pages is the client's own).
 */

interface Parent {
  autosaves: unknown;
  revisions: unknown[];
  /** Declared total, when it differs from the list (a hostile server). */
  declared?: number;
  /** Thrown by every request for this parent's lists. */
  failure?: Error;
}

class FakeRevisionsSite {
  readonly parents = new Map<number, Parent>();
  /** Every request: route and query. */
  readonly requests: { route: string; query: Query }[] = [];

  client(): CmsClient {
    const client = {
      url: (route: string) => `https://edit.test/cms-json/${route}`,
      get: async (route: string, query: Query = {}) => {
        this.requests.push({ route, query });
        const parent = this.#parent(route);
        return { data: parent.autosaves };
      },
      listPage: async (route: string, query: Query = {}): Promise<ListPage<unknown>> => {
        this.requests.push({ route, query });
        const parent = this.#parent(route);
        const perPage = Number(query['per_page'] ?? 10);
        const page = Number(query['page'] ?? 1);
        const total = parent.declared ?? parent.revisions.length;
        const totalPages = Math.max(1, Math.ceil(total / perPage));
        return {
          items: parent.revisions.slice((page - 1) * perPage, page * perPage),
          page,
          perPage,
          total,
          totalPages,
          hasNext: page < totalPages,
        };
      },
      paginate: (route: string, query: Query, options: { maxItems?: number }) =>
        walkPages(client as unknown as CmsClient, route, query, options),
    };
    return client as unknown as CmsClient;
  }

  /** The parent a `cms/v2/{type}/{id}/…` route names; an unknown one answers 404. */
  #parent(route: string): Parent {
    const id = Number(/\/(\d+)\/(?:autosaves|revisions)$/.exec(route)?.[1]);
    const parent = this.parents.get(id);
    if (parent === undefined) throw httpError(404, route);
    if (parent.failure !== undefined) throw parent.failure;
    return parent;
  }
}

function httpError(status: number, route: string): HttpError {
  return new HttpError({ status, method: 'GET', url: `https://edit.test/cms-json/${route}` });
}

const revision = (id: number, parent: number, text = `text ${id}`) => ({
  id,
  parent,
  author: 1,
  modified_gmt: '2024-04-01T10:00:00',
  content: { raw: text },
});

describe('syncRevisions (the revisions queue of one language × collection)', () => {
  const fixture = useClockedStore();
  let store: Store;
  let site: FakeRevisionsSite;
  let events: PullEvent[];
  let counters: ReturnType<typeof emptyCounters>;
  beforeEach(() => {
    store = fixture.store;
    site = new FakeRevisionsSite();
    events = [];
    counters = emptyCounters();
  });

  /** A cached post; `count` is its `version-history` count (absent: not sent). */
  function cachePost(id: number, count?: number): void {
    const links = count === undefined ? {} : { _links: { 'version-history': [{ count }] } };
    store.items.upsertPage('pl', 'posts', [
      { id, status: 'publish', modified_gmt: '2024-04-01T10:00:00', ...links },
    ]);
  }

  function run(perPage = 100): Promise<void> {
    return syncRevisions({
      client: site.client(),
      store,
      lang: 'pl',
      type: 'posts',
      perPage,
      counters,
      emit: (event) => events.push(event),
    });
  }

  const queued = () => store.syncQueue.next('pl', 'revisions', 'posts', 0, 1000);
  const stored = (table: 'revisions' | 'autosaves', parent: number) =>
    store[table]
      .list('pl', 'posts', parent)
      .map((row) => row.id)
      .sort((a, b) => a - b);
  const warnings = () =>
    events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));

  it('stores every page of revisions and the autosaves, the autosave in its own table only, then dequeues', async () => {
    cachePost(7, 5);
    site.parents.set(7, {
      autosaves: [revision(90, 7)],
      revisions: [revision(11, 7), revision(12, 7), revision(90, 7), revision(13, 7)],
    });
    store.syncQueue.add('pl', 'revisions', 'posts', [7]);
    await run(2);
    expect(stored('revisions', 7)).toEqual([11, 12, 13]);
    expect(stored('autosaves', 7)).toEqual([90]);
    expect(counters.revisions).toBe(4);
    expect(counters.errors).toBe(0);
    expect(queued()).toEqual([]);
    // Both lists read in edit context, revisions by the page size given.
    const lists = site.requests.filter((request) => request.route.endsWith('/revisions'));
    expect(lists.map((request) => request.query['page'])).toEqual([1, 2]);
    for (const request of site.requests) expect(request.query['context']).toBe('edit');
    expect(lists.every((request) => request.query['per_page'] === 2)).toBe(true);
    expect(site.requests.map((request) => request.route)).toContain('cms/v2/posts/7/autosaves');
  });

  it('counts a second pull’s new and changed autosaves and revisions, and not the unchanged ones', async () => {
    cachePost(7, 4);
    site.parents.set(7, {
      autosaves: [revision(90, 7), revision(91, 7)],
      revisions: [revision(11, 7), revision(12, 7)],
    });
    store.syncQueue.add('pl', 'revisions', 'posts', [7]);
    await run();
    expect(counters.revisions).toBe(4);
    site.parents.set(7, {
      autosaves: [revision(90, 7, 'changed'), revision(91, 7), revision(92, 7)],
      revisions: [revision(11, 7, 'changed'), revision(12, 7), revision(13, 7)],
    });
    store.syncQueue.add('pl', 'revisions', 'posts', [7]);
    counters = emptyCounters();
    await run();
    // Autosaves: 90 updated, 92 created; revisions: 11 updated, 13 created; 91 and 12 the same.
    expect(counters.revisions).toBe(4);
    expect(stored('autosaves', 7)).toEqual([90, 91, 92]);
    expect(stored('revisions', 7)).toEqual([11, 12, 13]);
    expect(JSON.parse(store.autosaves.get('pl', 90)!.json).content.raw).toBe('changed');
    expect(JSON.parse(store.revisions.get('pl', 11)!.json).content.raw).toBe('changed');
  });

  it('keeps a parent queued, with nothing stored, when its fetch fails (HTTP, network, body), and goes on with the others', async () => {
    const failures = [
      httpError(500, 'cms/v2/posts/2/revisions'),
      new NetworkError({ method: 'GET', url: 'https://edit.test/x', reason: 'reset' }),
      new BodyError({ method: 'GET', url: 'https://edit.test/x', reason: 'not-json', detail: 'x' }),
    ];
    for (const id of [1, 2, 3, 4]) cachePost(id, 1);
    site.parents.set(1, { autosaves: [], revisions: [revision(101, 1)] });
    failures.forEach((failure, n) =>
      site.parents.set(n + 2, { autosaves: [], revisions: [], failure }),
    );
    store.syncQueue.add('pl', 'revisions', 'posts', [1, 2, 3, 4]);
    await run();
    expect(queued()).toEqual([2, 3, 4]);
    expect(stored('revisions', 1)).toEqual([101]);
    expect(counters.errors).toBe(3);
    const lines = warnings();
    expect(lines).toHaveLength(3);
    for (const id of [2, 3, 4]) {
      expect(lines).toContainEqual(
        expect.stringMatching(
          new RegExp(`^revisions of posts ${id} not fetched \\(the next pull retries\\): `),
        ),
      );
    }
  });

  it('keeps a parent queued when a crash stops its fetch, and the next pull stores its revisions', async () => {
    cachePost(5, 2);
    site.parents.set(5, { autosaves: [], revisions: [], failure: new Error('killed') });
    store.syncQueue.add('pl', 'revisions', 'posts', [5]);
    await expect(run()).rejects.toThrow('killed');
    expect(queued()).toEqual([5]);
    site.parents.set(5, { autosaves: [], revisions: [revision(51, 5), revision(52, 5)] });
    await run();
    expect(stored('revisions', 5)).toEqual([51, 52]);
    expect(queued()).toEqual([]);
  });

  it('dequeues a parent the site answers 404 or 410 for, without counting an error', async () => {
    cachePost(8, 1);
    cachePost(9, 1);
    site.parents.set(9, { autosaves: [], revisions: [], failure: httpError(410, 'x') });
    store.syncQueue.add('pl', 'revisions', 'posts', [8, 9]);
    await run();
    expect(queued()).toEqual([]);
    expect(counters.errors).toBe(0);
    expect(warnings()).toEqual([]);
  });

  it('asks nothing for a parent whose count is 0 or that is not cached, and dequeues both; asks when no count is sent', async () => {
    cachePost(1, 0);
    cachePost(2);
    site.parents.set(1, { autosaves: [], revisions: [revision(11, 1)] });
    site.parents.set(2, { autosaves: [], revisions: [revision(21, 2)] });
    site.parents.set(3, { autosaves: [], revisions: [revision(31, 3)] });
    store.syncQueue.add('pl', 'revisions', 'posts', [1, 2, 3]);
    await run();
    expect(queued()).toEqual([]);
    expect(stored('revisions', 1)).toEqual([]);
    expect(stored('revisions', 2)).toEqual([21]);
    expect(new Set(site.requests.map((request) => request.route))).toEqual(
      new Set(['cms/v2/posts/2/autosaves', 'cms/v2/posts/2/revisions']),
    );
  });

  it('skips bad records with a warning each and stores the good ones', async () => {
    cachePost(4, 9);
    const deep: Record<string, unknown> = { id: 48, parent: 4 };
    let level = deep;
    for (let n = 0; n < 120; n += 1) {
      const next = {};
      level['nest'] = next;
      level = next;
    }
    site.parents.set(4, {
      autosaves: { code: 'not a list' },
      revisions: [
        revision(41, 4),
        { id: 0 },
        { id: -3 },
        { id: 1.5 },
        { id: '42' },
        null,
        deep,
        revision(43, 4),
      ],
    });
    store.syncQueue.add('pl', 'revisions', 'posts', [4]);
    await run();
    expect(stored('revisions', 4)).toEqual([41, 43]);
    expect(stored('autosaves', 4)).toEqual([]);
    expect(counters.skipped).toBe(7);
    expect(counters.revisions).toBe(2);
    expect(queued()).toEqual([]);
    const lines = warnings();
    expect(lines[0]).toBe('posts 4: skipped a bad autosave record (not a list)');
    expect(
      lines.filter(
        (line) => line === 'posts 4: skipped a bad revision record (no positive integer id)',
      ),
    ).toHaveLength(5);
    expect(lines).toContain(
      'posts 4: skipped a bad revision record (id 48: nested deeper than 100 levels)',
    );
  });

  it(`stops the pull on a parent declaring more than ${MAX_REVISIONS} revisions, leaving it queued`, async () => {
    cachePost(6, 3);
    site.parents.set(6, {
      autosaves: [],
      revisions: [revision(61, 6)],
      declared: MAX_REVISIONS + 1,
    });
    store.syncQueue.add('pl', 'revisions', 'posts', [6]);
    await expect(run()).rejects.toBeInstanceOf(SiteError);
    expect(queued()).toEqual([6]);
    expect(stored('revisions', 6)).toEqual([]);
  });

  it('reports progress per chunk of 24 parents', async () => {
    const ids = Array.from({ length: 30 }, (_, n) => n + 1);
    for (const id of ids) cachePost(id, 0);
    store.syncQueue.add('pl', 'revisions', 'posts', ids);
    await run();
    const done = events.flatMap((event) =>
      event.type === 'progress' && event.phase === 'revisions' ? [event.done] : [],
    );
    expect(done).toEqual([0, 24, 30]);
    expect(queued()).toEqual([]);
  });
});
