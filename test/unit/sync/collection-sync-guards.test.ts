import { describe, expect, it } from 'vitest';
import type { CmsClient, Query } from '../../../src/client/index.js';
import { SiteError } from '../../../src/errors.js';
import { gmt } from '../../helpers/fake-site.js';
import { useCollectionSync } from '../../helpers/sync/collection-sync-fixture.js';

/**
 * What bounds one crawl stream on a server that never lets it finish, and where a stream
 * killed around a tie sweep or a rescan picks up (issue 11, mutation testing of
 * collection-sync.ts). The figures are the documented rules, written out here rather than
 * imported: at most 100 pages of one keyset window or one sweep that do not move the crawl on
 * (crawl-guards.ts), at most 50 sweeps of one second (collection-sync.ts).
 */
describe('CollectionSync: endless walks, endless sweeps, and kills around sweeps and rescans', () => {
  const fixture = useCollectionSync({ perPage: 2 });
  const { sync, warnings } = fixture;
  const isSweep = (query: Query) =>
    query['orderby'] === 'id' && query['modified_before'] !== undefined;

  /** A list route that answers each request through `answer` (query → records), counted. */
  function scriptedClient(answer: (query: Query, n: number) => unknown[]): {
    client: CmsClient;
    queries: Query[];
  } {
    const queries: Query[] = [];
    const client = {
      hasCredentials: false,
      options: { site: 'https://odd.test' },
      get: async (_route: string, query: Query = {}) => {
        queries.push(query);
        const data = answer(query, queries.length);
        return {
          status: 200,
          headers: { date: 'Sat, 01 Jun 2024 12:00:00 GMT' },
          data,
          url: 'https://odd.test/list',
        };
      },
    };
    return { client: client as unknown as CmsClient, queries };
  }

  it('refuses a keyset window whose pages never move the crawl on, after 100 pages, keeping what it stored', async () => {
    // Every page is full of new posts, each page's two dates in falling order (the server
    // ignores orderby): the window never moves, only the page number does.
    const { client, queries } = scriptedClient((query) => {
      const page = Number(query['page']);
      // The test's own bound: a crawl without the guard ends here, on a short page.
      if (page > 150) return [];
      return [0, 1].map((i) => ({
        id: 2 * page - 1 + i,
        modified_gmt: gmt(Date.parse('2024-01-01T00:00:00Z') / 1000 + 10 * page - i),
      }));
    });
    const error = await sync({ client }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(SiteError);
    expect((error as SiteError).message).toContain(
      'https://odd.test/list still answered a full page after 100 pages that did not move the crawl on',
    );
    expect(queries).toHaveLength(100);
    // Pages 1–99 were stored as they came; the 100th was refused.
    expect(fixture.store.items.count('pl', 'posts')).toBe(198);
  });

  it('refuses a sweep of one second that never ends, after 100 pages', async () => {
    const second = fixture.site.now - 50;
    fixture.site.add(2, second);
    let sweepPages = 0;
    fixture.site.beforeRequest = () => {
      // Every page of the sweep finds two more posts of that second (up to the test's bound).
      if (isSweep(fixture.site.requests.at(-1)!) && ++sweepPages <= 150)
        fixture.site.add(2, second);
    };
    const error = await sync().then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(SiteError);
    expect((error as SiteError).message).toContain(
      'still answered a full page after 100 pages that did not move the crawl on',
    );
    expect(fixture.site.requests.filter(isSweep)).toHaveLength(100);
    // The keyset page found the second; the sweep's pages 1–99 were stored (ids 1–198).
    expect(fixture.store.items.count('pl', 'posts')).toBe(198);
  });

  it('gives up on a second edited without pause after 50 sweeps, says so, and moves on', async () => {
    // The budget of list requests grows with the cache: 200 posts cached allow the sweeps.
    fixture.site.add(200, fixture.site.now - 1000, 1);
    await sync();
    const second = fixture.site.now;
    const tie = fixture.site.add(2, second);
    let oldest = tie[0]!.id;
    let sweeps = 0;
    const churn = () => {
      const query = fixture.site.requests.at(-1)!;
      if (!isSweep(query) || query['page'] !== 1 || ++sweeps > 60) return;
      // Someone edits the oldest post of that second and writes a new one into it, for ever.
      fixture.site.now += 1;
      fixture.site.edit(oldest);
      oldest += 1;
      fixture.site.add(1, second);
    };
    fixture.site.beforeRequest = churn;
    fixture.site.requests = [];
    fixture.events.length = 0;
    await sync({
      onEvent: (event) => {
        if (event.type === 'warning') fixture.site.beforeRequest = undefined;
      },
    });
    expect(warnings()).toEqual([
      `posts: the items of ${gmt(second)} kept changing through 50 sweeps; moving on (the next pull reads them again)`,
    ]);
    // 50 sweeps of two pages each (a full one, then an empty one), not one more.
    expect(fixture.site.requests.filter(isSweep)).toHaveLength(100);
    // It moved on: the posts edited out of that second are read at their new dates.
    expect(
      new Map(
        [...fixture.store.items.iterate('pl', 'posts')].map((row) => [
          row.id,
          JSON.parse(row.json),
        ]),
      ),
    ).toEqual(fixture.site.expected());
    expect(fixture.store.syncState.get('pl', 'posts')?.cursor).toBeNull();
  });

  it('resumes a crawl killed just after a tie sweep after that second, without sweeping it again', async () => {
    const second = fixture.site.now - 50;
    fixture.site.add(5, second);
    fixture.site.add(4, fixture.site.now - 10, 1);
    fixture.site.beforeRequest = (n) => {
      // The first keyset request after the sweep's last (short) page dies.
      const previous = fixture.site.requests[n - 2];
      if (previous !== undefined && isSweep(previous) && !isSweep(fixture.site.requests[n - 1]!)) {
        throw new Error('killed');
      }
    };
    await expect(sync()).rejects.toThrow('killed');
    fixture.site.beforeRequest = undefined;
    expect(fixture.store.items.count('pl', 'posts')).toBe(5);
    fixture.site.requests = [];
    const counters = await sync();
    expect(fixture.site.requests.filter(isSweep)).toEqual([]);
    expect(fixture.site.requests[0]).toMatchObject({ orderby: 'modified' });
    expect(counters).toMatchObject({ created: 4, updated: 0, deleted: 0 });
  });

  it('resumes a pull killed as its rescan began with the rescan, not with a crawl from the watermark', async () => {
    fixture.site.add(20, fixture.site.now - 100, 1);
    await sync({ perPage: 10 });
    // Listed late with an old date: the counts disagree after the probe, so the pull rescans.
    fixture.site.add(1, fixture.site.now - 5000);
    fixture.site.beforeRequest = (n) => {
      const query = fixture.site.requests[n - 1]!;
      if (query['orderby'] === 'modified' && query['modified_after'] === undefined) {
        throw new Error('killed');
      }
    };
    fixture.events.length = 0;
    await expect(sync({ perPage: 10 })).rejects.toThrow('killed');
    expect(warnings()).toEqual([
      'posts: the site counts 21 items (0 of them unlisted at the last full listing), the cache 20 after the crawl: rescanning from the beginning',
    ]);
    fixture.site.beforeRequest = undefined;
    fixture.site.requests = [];
    fixture.events.length = 0;
    const counters = await sync({ perPage: 10 });
    // From the beginning, and no second count-probe-rescan round.
    expect(fixture.site.requests[0]).toMatchObject({ orderby: 'modified', page: 1 });
    expect(fixture.site.requests[0]!['modified_after']).toBeUndefined();
    expect(warnings()).toEqual([]);
    expect(counters.created).toBe(1);
    expect(fixture.store.items.count('pl', 'posts')).toBe(21);
  });

  it('shows the count of its window from the first page of a crawl resumed in the middle of a page walk', async () => {
    // Five records without a usable date fill the first page: the crawl walks on to page 2.
    for (const item of fixture.site.add(5, fixture.site.now - 100, 1)) {
      fixture.site.replacements.set(item.id, { id: item.id, modified_gmt: 'yesterday' });
    }
    fixture.site.add(10, fixture.site.now - 50, 1);
    await expect(
      sync({ perPage: 5, client: fixture.site.client({ failAfter: 1 }) }),
    ).rejects.toThrow('killed');
    expect(fixture.store.syncState.get('pl', 'posts')?.cursor).toMatchObject({
      after: null,
      page: 2,
    });
    fixture.events.length = 0;
    await sync({ perPage: 5 });
    const crawl = fixture.events.flatMap((event) =>
      event.type === 'progress' && event.phase === 'crawl' ? [event] : [],
    );
    // Before the first page nothing is known; after it, the 15 posts the site counts.
    expect(crawl[0]).toMatchObject({ done: 0, total: undefined });
    expect(crawl[1]).toMatchObject({ done: 5, total: 15 });
    expect(crawl.slice(1).map((event) => event.total)).toEqual(crawl.slice(1).map(() => 15));
  });

  it('names the collection and language when it stops a stream whose pages bring nothing usable', async () => {
    // Full pages of records without a date: nothing moves the window, nothing counts as an item.
    const { client, queries } = scriptedClient((query) =>
      Number(query['page']) > 50
        ? []
        : [0, 1].map((i) => ({ id: 2 * Number(query['page']) - 1 + i })),
    );
    const error = await sync({ client }).then(
      () => undefined,
      (failure: unknown) => failure,
    );
    expect(error).toBeInstanceOf(SiteError);
    expect((error as SiteError).message).toMatch(
      /^cms\/v2\/posts: stopped after 10 list requests for the 0 posts in pl seen /,
    );
    expect(queries).toHaveLength(10);
  });
});
