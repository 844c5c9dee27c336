import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CmsClient } from '../../../src/client/index.js';
import { AccessError, HttpError, NetworkError, SiteError } from '../../../src/errors.js';
import { MediaFetcher } from '../../../src/sync/media-fetcher.js';
import { emptyCounters, type PullEvent } from '../../../src/sync/pull-summary.js';
import { prepareLanguage, pullLanguage } from '../../../src/sync/pull-language.js';
import { useSite } from '../../helpers/mirror-fixture.js';
import { getJson, type Json } from '../../helpers/reference.js';
import { languageClient, startIndexProxy } from '../../helpers/sync/pull-language-site.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';
import { startTestServer, type TestServer } from '../../helpers/test-server.js';

/**
 * One language of a pull against a small reference site on 127.0.0.1 (real HTTP, a real
 * SQLite cache): what `prepareLanguage` checks before a cache exists, and what `pullLanguage`
 * stores (items of every collection in the context the credentials allow, the site summary
 * and representation, revisions only in backup mode) and reports.
 */

const CREDENTIALS = { user: 'CMS_USER', password: 'CMS_APP_PASSWORD' };
const COLLECTIONS = ['posts', 'pages', 'media'] as const;

describe('prepareLanguage (the index and access, before any cache exists)', () => {
  const fixture = useSite({ languages: ['pl'], posts: 2, pages: 1, media: 1 }, 'all');
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    await Promise.all(closers.splice(0).map((close) => close()));
  });

  function client(
    options: Parameters<typeof languageClient>[2] & { lang?: string } = {},
  ): CmsClient {
    const made = languageClient(fixture.site, options.lang ?? 'pl', options);
    closers.push(() => made.close());
    return made;
  }

  async function proxy(options: Parameters<typeof startIndexProxy>[1]): Promise<TestServer> {
    const server = await startIndexProxy(fixture.site, options);
    closers.push(() => server.close());
    return server;
  }

  const prepare = (on: CmsClient, backup: boolean) =>
    prepareLanguage(on, { backup, credentialNames: CREDENTIALS });

  it('reads the index once and gives every collection its total under the pull filter', async () => {
    const { site } = fixture;
    const index = (await getJson(site, 'pl', '/')).body;
    site.control.clearLog();
    const prepared = await prepare(client(), true);
    expect(prepared.body['name']).toBe(index.name);
    expect(prepared.body['routes']).toEqual(index.routes);
    expect(prepared.index.perPageMax('cms/v2/posts')).toBe(100);
    // With credentials the pull lists every status, so the totals are the site's own counts
    // (the first collection is read by the credentials check, and counted by its crawl).
    for (const type of ['pages', 'media'] as const)
      expect(prepared.totals.get(type), type).toBe(site.control.listItems('pl', type).length);
    expect(site.requests.filter((request) => request.path === '/')).toHaveLength(1);
  });

  it('names the index and its status when the address answers an HTTP error', async () => {
    const server = await proxy({
      answerIndex: { status: 404, contentType: 'text/html', body: '<p>not here</p>' },
    });
    const error = await prepare(client({ siteUrl: server.url }), false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SiteError);
    expect((error as SiteError).message).toBe(
      `${server.url}/pl/cms-json/ is not a cms-json site: it answered 404`,
    );
    expect((error as SiteError).url).toBe(`${server.url}/pl/cms-json/`);
    expect((error as SiteError).cause).toBeInstanceOf(HttpError);
  });

  it('names the index and what is wrong with its body when it is not JSON', async () => {
    const server = await proxy({
      answerIndex: { status: 200, contentType: 'text/html', body: '<html>a blog</html>' },
    });
    const error = await prepare(client({ siteUrl: server.url }), false).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SiteError);
    const { message, cause } = error as SiteError;
    expect(message.startsWith(`${server.url}/pl/cms-json/ is not a cms-json site: `)).toBe(true);
    expect(cause).toBeInstanceOf(Error);
    expect(message).toContain((cause as { detail: string }).detail);
    expect(message.length).toBeGreaterThan(
      `${server.url}/pl/cms-json/ is not a cms-json site: `.length,
    );
  });

  it('passes a connection failure on as it is', async () => {
    const server = await startTestServer(() => undefined);
    const closed = server.url;
    await server.close();
    const error = await prepare(client({ siteUrl: closed, retries: 0 }), false).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(NetworkError);
  });

  it('needs the revisions and autosaves routes of posts and pages in backup mode only', async () => {
    const withoutHistory = (index: Json): Json => {
      const routes: Record<string, unknown> = {};
      for (const [route, value] of Object.entries(index.routes as Record<string, unknown>))
        if (!/\/(revisions|autosaves)/.test(route)) routes[route] = value;
      return { ...index, routes };
    };
    const server = await proxy({ editIndex: withoutHistory });
    const error = await prepare(client({ siteUrl: server.url }), true).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(SiteError);
    const message = (error as SiteError).message;
    expect(message).toMatch(/lacks what cms-mirror needs/);
    for (const type of ['posts', 'pages'])
      for (const list of ['revisions', 'autosaves'])
        expect(message, `${type} ${list}`).toMatch(
          new RegExp(`the route cms/v2/${type}/[^ ;/]+/${list}(;|$)`),
        );
    expect(message).not.toMatch(/media\/[^ ;]+\/(revisions|autosaves)/);
    // Without --backup the same site is fine.
    const prepared = await prepare(client({ siteUrl: server.url }), false);
    expect(prepared.totals.get('pages')).toBe(fixture.site.control.listItems('pl', 'pages').length);
  });

  it('refuses an author in backup mode before any item is read, naming the way out with the variables given', async () => {
    const { site } = fixture;
    site.control.clearLog();
    const names = { user: 'EDITOR_LOGIN', password: 'EDITOR_SECRET' };
    const error = await prepareLanguage(client({ credentials: site.roleCredentials.author }), {
      backup: true,
      credentialNames: names,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccessError);
    const { message } = error as AccessError;
    expect(message).toContain('the site accepted the credentials in EDITOR_LOGIN/EDITOR_SECRET');
    expect(message).toMatch(/may not list pages that are not published/);
    expect(message).toMatch(
      /, or pull without --backup and without EDITOR_LOGIN\/EDITOR_SECRET \(published content only\)$/,
    );
    expect(site.requests.some((request) => request.query['orderby'] !== undefined)).toBe(false);
  });

  it('needs every collection route', async () => {
    const withoutPages = (index: Json): Json => {
      const routes: Record<string, unknown> = {};
      for (const [route, value] of Object.entries(index.routes as Record<string, unknown>))
        if (!route.startsWith('/cms/v2/pages')) routes[route] = value;
      return { ...index, routes };
    };
    const server = await proxy({ editIndex: withoutPages });
    await expect(prepare(client({ siteUrl: server.url }), false)).rejects.toThrow(
      /lacks what cms-mirror needs: the route cms\/v2\/pages$/,
    );
  });
});

describe('pullLanguage (one language into the cache)', () => {
  const fixture = useSite({ languages: ['pl'], posts: 3, pages: 2, media: 1 }, 'all');
  beforeAll(() => {
    // A draft and a private post: only a pull with credentials may store them.
    fixture.site.control.createItems('pl', 'posts', 1, { status: 'draft' });
    fixture.site.control.createItems('pl', 'posts', 1, { status: 'private' });
  });
  const cache = useClockedStore();
  let events: PullEvent[];
  let made: CmsClient[];
  beforeEach(() => {
    events = [];
    made = [];
    fixture.site.control.clearLog();
  });
  afterEach(async () => {
    await Promise.all(made.map((client) => client.close()));
  });

  async function run(options: { auth: boolean; backup: boolean; siteUrl?: string }) {
    const client = languageClient(fixture.site, 'pl', options);
    made.push(client);
    const prepared = await prepareLanguage(client, {
      backup: options.backup,
      credentialNames: CREDENTIALS,
    });
    const counters = emptyCounters();
    await pullLanguage({
      prepared,
      client,
      store: cache.store,
      lang: 'pl',
      backup: options.backup,
      media: new MediaFetcher(cache.store, {}),
      counters,
      emit: (event) => events.push(event),
      fullSweepEvery: 0,
    });
    return counters;
  }

  const cachedIds = (type: (typeof COLLECTIONS)[number]) =>
    [...cache.store.items.iterate('pl', type)].map((row) => row.id).sort((a, b) => a - b);
  const siteIds = (type: (typeof COLLECTIONS)[number], published = false) =>
    fixture.site.control
      .listItems('pl', type)
      .filter((item) => !published || item.status === 'publish' || item.status === 'inherit')
      .map((item) => item.id)
      .sort((a, b) => a - b);
  const siteInfo = () => cache.store.siteInfo.get('pl')?.data as Json;

  it('with credentials: every item of every collection, the seo configuration, revisions in backup', async () => {
    const { site } = fixture;
    const counters = await run({ auth: true, backup: true });
    for (const type of COLLECTIONS) expect(cachedIds(type), type).toEqual(siteIds(type));
    // Drafts are there too: the crawl ran in edit context.
    expect(site.control.listItems('pl', 'posts').some((item) => item.status !== 'publish')).toBe(
      true,
    );
    for (const type of ['posts', 'pages'] as const)
      for (const item of site.control.listItems('pl', type)) {
        for (const kind of ['revision', 'autosave'] as const) {
          const table = kind === 'revision' ? 'revisions' : 'autosaves';
          const stored = cache.store[table].list('pl', type, item.id).map((row) => row.id);
          expect(stored.sort(), `${type} ${item.id} ${table}`).toEqual(
            site.control
              .listRevisions('pl', type, item.id)
              .filter((revision) => revision.kind === kind)
              .map((revision) => revision.id)
              .sort(),
          );
        }
      }
    expect(counters.revisions).toBeGreaterThan(0);
    expect(counters.created).toBe(COLLECTIONS.reduce((n, type) => n + siteIds(type).length, 0));
    const configuration = (
      await getJson(site, 'pl', '/seo/v1/configuration/get_configuration_state', { auth: true })
    ).body;
    expect(siteInfo()).toMatchObject({
      lang: 'pl',
      name: (await getJson(site, 'pl', '/')).body.name,
      seo: { ...configuration.data, source: 'configuration' },
    });
    // One "done" per collection, once its crawl, revisions and assets are through.
    const done = events.filter((event) => event.type === 'progress' && event.phase === 'done');
    expect(done).toHaveLength(COLLECTIONS.length);
    expect(done.map((event) => (event as { collection: string }).collection).sort()).toEqual(
      [...COLLECTIONS].sort(),
    );
    for (const event of done)
      expect(event).toMatchObject({ lang: 'pl', done: 0, total: undefined });
  });

  it('anonymously: published items in view context, the representation from an item, no credentialed request', async () => {
    const { site } = fixture;
    await run({ auth: false, backup: false });
    for (const type of ['posts', 'pages'] as const)
      expect(cachedIds(type), type).toEqual(siteIds(type, true));
    expect(site.requests.some((request) => request.path.startsWith('/seo/v1/'))).toBe(false);
    expect(site.requests.some((request) => request.query['context'] === 'edit')).toBe(false);
    // The representation is the Organization or Person node of the site's schema graph, as a
    // published post sends it.
    const post = (await getJson(site, 'pl', `/cms/v2/posts/${siteIds('posts', true)[0]}`)).body;
    const graph = post.seo_head_json.schema['@graph'] as Json[];
    const node = graph.find((entry) =>
      [entry['@type']].flat().some((kind: string) => kind === 'Organization' || kind === 'Person'),
    );
    expect(node).toBeInstanceOf(Object);
    expect(siteInfo()).toMatchObject({ lang: 'pl', seo: { source: 'schema', schema_node: node } });
  });

  it('keeps the representation of an earlier pull when nothing changed, and a configuration over a schema node', async () => {
    await run({ auth: false, backup: false });
    const first = siteInfo().seo;
    expect(first.source).toBe('schema');
    await run({ auth: false, backup: false });
    expect(siteInfo().seo).toEqual(first);
    await run({ auth: true, backup: false });
    expect(siteInfo().seo.source).toBe('configuration');
    await run({ auth: false, backup: false });
    expect(siteInfo().seo.source).toBe('configuration');
  });

  it('reads revisions in pages of the size the revisions route allows', async () => {
    const { site } = fixture;
    const server = await startIndexProxy(site, { editIndex: perPageMaximum(/\/revisions$/, 2) });
    try {
      await run({ auth: true, backup: true, siteUrl: server.url });
    } finally {
      await server.close();
    }
    const lists = site.requests.filter((request) => request.path.endsWith('/revisions'));
    expect(lists.length).toBeGreaterThan(0);
    expect(new Set(lists.map((request) => request.query['per_page']))).toEqual(new Set(['2']));
    // A post with more revisions than a page holds has them all.
    const post = site.control
      .listItems('pl', 'posts')
      .find(
        (item) =>
          site.control.listRevisions('pl', 'posts', item.id).filter((r) => r.kind === 'revision')
            .length > 2,
      );
    expect(post).toBeInstanceOf(Object);
    expect(cache.store.revisions.list('pl', 'posts', post!.id).length).toBe(
      site.control.listRevisions('pl', 'posts', post!.id).filter((r) => r.kind === 'revision')
        .length,
    );
  });

  it('fetches no revisions without backup, even for parents left queued by an earlier backup pull', async () => {
    const { site } = fixture;
    const posts = siteIds('posts');
    await run({ auth: true, backup: false });
    cache.store.syncQueue.add('pl', 'revisions', 'posts', posts);
    site.control.clearLog();
    await run({ auth: true, backup: false });
    expect(site.requests.some((request) => /\/(revisions|autosaves)$/.test(request.path))).toBe(
      false,
    );
    expect(cache.store.syncQueue.next('pl', 'revisions', 'posts', 0, 100)).toEqual(posts);
    expect(cache.store.revisions.list('pl', 'posts', posts[0]!)).toEqual([]);
  });
});

/** An index edit: `per_page` of GET on the routes matching `route` allows at most `maximum`. */
function perPageMaximum(route: RegExp, maximum: number): (index: Json) => Json {
  return (index) => {
    for (const [key, descriptor] of Object.entries(index.routes as Record<string, Json>)) {
      if (!route.test(key)) continue;
      for (const endpoint of descriptor.endpoints as Json[])
        if ((endpoint.methods as string[]).includes('GET') && endpoint.args?.per_page)
          endpoint.args.per_page.maximum = maximum;
    }
    return index;
  };
}

/**
 * The site representation when items do not all carry it (a server may send an item without
 * its seo head): the pull takes the node from the first item of a batch that has one, and keeps
 * it whatever later batches hold; a pull in which no item passes by keeps the stored one.
 */
describe('pullLanguage: the representation from items that may lack it', () => {
  const fixture = useSite({ languages: ['pl'], posts: 2, pages: 1, media: 1 }, 'all');
  const cache = useClockedStore();

  it('is the node of the first item that has one, kept over a later batch without', async () => {
    const { site } = fixture;
    // 7 published posts read 3 per page: batches of 3, 3 and 1 item.
    const published = site.control.listItems('pl', 'posts').filter((i) => i.status === 'publish');
    site.control.createItems('pl', 'posts', 7 - published.length, { status: 'publish' });
    const server = await startIndexProxy(site, {
      editIndex: perPageMaximum(/^\/cms\/v2\/posts$/, 3),
      // Only the second item of a list of three or more keeps its head.
      editList: (_path, records) =>
        records.map((record: Json, i) =>
          i === 1 && records.length >= 3 ? record : { ...record, seo_head_json: undefined },
        ),
    });
    const client = languageClient(site, 'pl', { auth: false, siteUrl: server.url });
    const pullOnce = async () =>
      pullLanguage({
        prepared: await prepareLanguage(client, { backup: false, credentialNames: CREDENTIALS }),
        client,
        store: cache.store,
        lang: 'pl',
        backup: false,
        media: new MediaFetcher(cache.store, {}),
        counters: emptyCounters(),
        emit: () => undefined,
        fullSweepEvery: 0,
      });
    try {
      await pullOnce();
      const crawled = site.requests.filter(
        (request) => request.path === '/cms/v2/posts' && request.query['per_page'] === '3',
      );
      expect(crawled.length).toBeGreaterThanOrEqual(3);
      const post = (await getJson(site, 'pl', `/cms/v2/posts/${published[0]!.id}`)).body;
      const node = (post.seo_head_json.schema['@graph'] as Json[]).find(
        (entry) => entry['@type'] === 'Organization',
      );
      expect(node).toBeInstanceOf(Object);
      const info = () => cache.store.siteInfo.get('pl')?.data as Json;
      expect(info().seo).toEqual({ source: 'schema', schema_node: node });

      // Nothing published any more: no post or page passes by, the stored node stays.
      for (const type of ['posts', 'pages'] as const)
        for (const item of site.control.listItems('pl', type))
          site.control.updateItem('pl', type, item.id, { status: 'draft' });
      await pullOnce();
      expect([...cache.store.items.iterate('pl', 'posts')]).toEqual([]);
      expect(info().seo).toEqual({ source: 'schema', schema_node: node });
    } finally {
      await client.close();
      await server.close();
    }
  });
});
