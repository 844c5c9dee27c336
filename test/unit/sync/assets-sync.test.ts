import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CmsItem, ItemType } from '../../../src/store/index.js';
import { syncAssets } from '../../../src/sync/assets-sync.js';
import { MediaFetcher } from '../../../src/sync/media-fetcher.js';
import {
  emptyCounters,
  type PullCounters,
  type PullEvent,
} from '../../../src/sync/pull-summary.js';
import { useSite } from '../../helpers/mirror-fixture.js';
import { getJson } from '../../helpers/reference.js';
import { contentItem, otherScheme } from '../../helpers/sync/assets-sync-items.js';
import { startFileServer } from '../../helpers/sync/media-fetcher-files.js';
import { mirrorCollection } from '../../helpers/sync/verify-cache.js';
import { useSiteClients } from '../../helpers/sync/site-clients.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';
import type { TestServer } from '../../helpers/test-server.js';

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * The assets queue drained with the real client against the reference site: the files of
 * media items and public content, and oEmbed answers for standalone URLs. The site's files
 * (`control.listFiles`), its oEmbed answers read over HTTP and its request log are the oracle.
 */
describe('syncAssets', () => {
  const fixture = useSite({ posts: 2, pages: 1, media: 2, languages: ['pl'] });
  const cache = useClockedStore();
  let servers: TestServer[];
  let counters: PullCounters;
  let events: PullEvent[];
  beforeEach(() => {
    // The oEmbed resolver reads the real clock: keep the cache's clock near it.
    cache.clock = new Date();
    servers = [];
    counters = emptyCounters();
    events = [];
  });
  afterEach(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  const client = useSiteClients(fixture);

  async function run(
    type: ItemType,
    options: { auth?: boolean; maxwidth?: number; allowedOrigins?: string[] } = {},
  ): Promise<void> {
    await syncAssets({
      client: client(options.auth),
      store: cache.store,
      lang: 'pl',
      type,
      media: new MediaFetcher(cache.store, { allowedOrigins: options.allowedOrigins ?? [] }),
      counters,
      emit: (event) => events.push(event),
      ...(options.maxwidth === undefined ? {} : { maxwidth: options.maxwidth }),
    });
  }

  function queued(type: ItemType): number[] {
    return cache.store.syncQueue.next('pl', 'assets', type, 0, 1000);
  }

  function storePosts(items: CmsItem[]): void {
    cache.store.items.upsertPage('pl', 'posts', items);
    cache.store.syncQueue.add(
      'pl',
      'assets',
      'posts',
      items.map((item) => item.id),
    );
  }

  function warnings(): string[] {
    return events.flatMap((event) => (event.type === 'warning' ? [event.message] : []));
  }

  /** The site's own answer of the embed route for `url`. */
  async function ownEmbed(url: string, maxwidth: number): Promise<unknown> {
    const answer = await getJson(fixture.site, 'pl', '/oembed/1.0/embed', {
      query: { url, maxwidth },
    });
    expect(answer.status).toBe(200);
    return answer.body;
  }

  it('stores every file of every queued media item, with its media id, and empties the queue', async () => {
    const { site } = fixture;
    const ids = await mirrorCollection(cache.store, site, 'pl', 'media', 'view');
    cache.store.syncQueue.add('pl', 'assets', 'media', ids);
    await run('media');
    const served = site.control.listFiles('pl');
    expect(served.length).toBe(6);
    const stored = cache.store.media.listFiles({ lang: 'pl' });
    expect(stored.map((file) => file.url).sort()).toEqual(served.map((file) => file.url).sort());
    for (const file of served) {
      expect(cache.store.media.getFile(file.url)).toMatchObject({
        sha256: sha256(file.bytes),
        mediaId: file.owner,
        lang: 'pl',
      });
    }
    expect(queued('media')).toEqual([]);
    expect(counters).toMatchObject({ media_files: 6, errors: 0, embeds: 0 });
    expect(warnings()).toEqual([]);
    expect(events).toEqual([
      {
        type: 'progress',
        lang: 'pl',
        collection: 'media',
        phase: 'assets',
        done: 0,
        total: undefined,
      },
      {
        type: 'progress',
        lang: 'pl',
        collection: 'media',
        phase: 'assets',
        done: 2,
        total: undefined,
      },
    ]);
  });

  it('checks the declared size of a media item original only, and fetches its other-scheme spelling through the site', async () => {
    const { site } = fixture;
    await mirrorCollection(cache.store, site, 'pl', 'media', 'view');
    const [item] = cache.store.items.listIds('pl', 'media');
    const record = JSON.parse(cache.store.items.get('pl', 'media', item!.id)!.json) as {
      source_url: string;
      media_details: { filesize: number; sizes: Record<string, { source_url: string }> };
    };
    const original = record.source_url;
    record.source_url = otherScheme(original);
    record.media_details.filesize = 7;
    cache.store.items.upsertPage('pl', 'media', [record as unknown as CmsItem]);
    cache.store.syncQueue.add('pl', 'assets', 'media', [item!.id]);
    site.control.clearLog();
    await run('media');
    const bytes = site.control.listFiles('pl').find((file) => file.url === original)!.bytes;
    expect(warnings()).toEqual([
      `media file ${original} has ${bytes.length} bytes where the site declares 7`,
    ]);
    expect(cache.store.media.getFile(original)!.sha256).toBe(sha256(bytes));
    expect(cache.store.media.getFile(otherScheme(original))).toBeUndefined();
    const sizes = new Set(Object.values(record.media_details.sizes).map((size) => size.source_url));
    sizes.add(original);
    expect(site.requests.map((r) => `${site.url}${r.path}`).sort()).toEqual([...sizes].sort());
  });

  it('fetches the files shown or linked by public content only, each once, and dequeues every item', async () => {
    const { site } = fixture;
    const [a, b, c, d] = site.control.listFiles('pl');
    const relativeB = new URL(b!.url).pathname;
    storePosts([
      contentItem(
        9001,
        `<p><img src="${a!.url}" srcset="${otherScheme(a!.url)} 800w, ${relativeB} 300w"></p>` +
          `<p><a href="${otherScheme(a!.url)}">download</a></p>`,
        { link: `${site.url}/pl/post-9001/` },
      ),
      contentItem(9002, `<p><img src="${c!.url}"></p>`, { status: 'draft' }),
      contentItem(9003, `<p><img src="${c!.url}"></p>`, { protected: true }),
      contentItem(9004, `<p><img src="${d!.url}"></p>`),
      contentItem(9006, `<p><img src="${new URL(d!.url).pathname}"></p>`, { link: null }),
    ]);
    cache.store.items.tombstone('pl', 'posts', [9004]);
    cache.store.syncQueue.add('pl', 'assets', 'posts', [9005]);
    site.control.clearLog();
    await run('posts');
    expect(site.requests.map((r) => `${site.url}${r.path}`).sort()).toEqual(
      [a!.url, b!.url].sort(),
    );
    const stored = cache.store.media.listFiles();
    expect(stored.map((file) => [file.url, file.sha256, file.mediaId]).sort()).toEqual(
      [
        [a!.url, sha256(a!.bytes), null],
        [b!.url, sha256(b!.bytes), null],
      ].sort(),
    );
    expect(queued('posts')).toEqual([]);
    expect(counters).toMatchObject({ media_files: 2, errors: 0 });
  });

  it('keeps an item queued while one of its files fails, and dequeues the others', async () => {
    const { site } = fixture;
    const [a] = site.control.listFiles('pl');
    const cdn = await startFileServer({
      '/broken.png': { status: 500 },
      '/gone.png': { status: 404 },
    });
    servers.push(cdn);
    storePosts([
      contentItem(9010, `<p><img src="${a!.url}"><img src="${cdn.url}/broken.png"></p>`),
      contentItem(9011, `<p><img src="${a!.url}"><img src="${cdn.url}/gone.png"></p>`),
      contentItem(9012, `<p><img src="http://elsewhere.invalid/x.png"></p>`),
    ]);
    await run('posts', { allowedOrigins: [cdn.url] });
    expect(queued('posts')).toEqual([9010]);
    expect(cache.store.media.getFile(a!.url)!.sha256).toBe(sha256(a!.bytes));
    expect(counters).toMatchObject({ media_files: 1, errors: 2, media_refused: 1 });
    expect(warnings()).toHaveLength(2);
  });

  it('resolves a standalone URL of the site through its embed route and caches the answer', async () => {
    const { site } = fixture;
    const [own] = (await getJson(site, 'pl', '/cms/v2/posts')).body as { link: string }[];
    const video = 'https://www.youtube.com/watch?v=aaaaaaaaaaa';
    storePosts([contentItem(9020, `<p>${own!.link}</p>\n<p>${video}</p>`)]);
    site.control.clearLog();
    await run('posts');
    const asked = site.requests.map((r) => [r.path, r.query['url'], r.query['maxwidth']]);
    expect(asked).toEqual([['/oembed/1.0/embed', own!.link, '600']]);
    expect(cache.store.oembed.get(own!.link, 600)!.response).toEqual(
      await ownEmbed(own!.link, 600),
    );
    // Another site's URL needs credentials (the proxy): not asked, not cached.
    expect(cache.store.oembed.get(video, 600)).toBeUndefined();
    expect(counters).toMatchObject({ embeds: 1, errors: 0 });
    expect(queued('posts')).toEqual([]);
  });

  it('with credentials asks the proxy for other sites, at the maxwidth given', async () => {
    const { site } = fixture;
    const [own] = (await getJson(site, 'pl', '/cms/v2/posts')).body as { link: string }[];
    const video = 'https://www.youtube.com/watch?v=bbbbbbbbbbb';
    storePosts([contentItem(9030, `<p>${video}</p><p>${own!.link}</p>`)]);
    site.control.clearLog();
    await run('posts', { auth: true, maxwidth: 480 });
    const asked = site.requests
      .map((r) => `${r.path} ${String(r.query['url'])} ${String(r.query['maxwidth'])}`)
      .sort();
    expect(asked).toEqual([`/oembed/1.0/embed ${own!.link} 480`, `/oembed/1.0/proxy ${video} 480`]);
    const proxied = cache.store.oembed.get(video, 480)!.response as { html?: string };
    expect(proxied.html).toMatch(/youtube/);
    expect(cache.store.oembed.get(own!.link, 480)!.response).toEqual(
      await ownEmbed(own!.link, 480),
    );
    expect(counters.embeds).toBe(2);
  });

  it('caches a URL the site cannot embed as unresolved, and asks again for none that are cached', async () => {
    const { site } = fixture;
    const unknown = `${site.url}/pl/no-such-post/`;
    const kept = `${site.url}/pl/kept-answer/`;
    cache.store.oembed.put(kept, 600, { version: '1.0', type: 'rich', html: '<b>x</b>' }, null);
    storePosts([contentItem(9040, `<p>${unknown}</p><p>${kept}</p>`)]);
    site.control.clearLog();
    await run('posts');
    expect(site.requests.map((r) => [r.path, r.query['url']])).toEqual([
      ['/oembed/1.0/embed', unknown],
    ]);
    const entry = cache.store.oembed.get(unknown, 600);
    expect(entry).toBeDefined();
    expect(entry!.response).toBeNull();
    expect(queued('posts')).toEqual([]);
    expect(warnings()).toEqual([]);
    // Queued again (changed again): both answers are cached, nothing is asked.
    site.control.clearLog();
    cache.store.syncQueue.add('pl', 'assets', 'posts', [9040]);
    await run('posts');
    expect(site.requests).toEqual([]);
    expect(counters).toMatchObject({ embeds: 1, errors: 0 });
  });

  it('caches a URL whose oEmbed parameters the site refuses (400) as unresolved', async () => {
    const { site } = fixture;
    const video = 'https://www.youtube.com/watch?v=ccccccccccc';
    storePosts([contentItem(9045, `<p>${video}</p>`)]);
    site.control.clearLog();
    // The proxy takes only an integer maxwidth: 400 rest_invalid_param.
    await run('posts', { auth: true, maxwidth: 480.5 });
    expect(site.requests.map((r) => [r.path, r.status])).toEqual([['/oembed/1.0/proxy', 400]]);
    const entry = cache.store.oembed.get(video, 480.5);
    expect(entry).toBeDefined();
    expect(entry!.response).toBeNull();
    expect(queued('posts')).toEqual([]);
    expect(counters).toMatchObject({ embeds: 1, errors: 0 });
  });

  it('keeps an item queued when its oEmbed request fails, naming the URL', async () => {
    const { site } = fixture;
    const [own] = (await getJson(site, 'pl', '/cms/v2/posts')).body as { link: string }[];
    storePosts([contentItem(9050, `<p>${own!.link}</p>`), contentItem(9051, '<p>text</p>')]);
    site.control.setFaults({ error: 1 });
    await run('posts');
    site.control.setFaults(undefined);
    expect(queued('posts')).toEqual([9050]);
    expect(cache.store.oembed.get(own!.link, 600)).toBeUndefined();
    expect(counters).toMatchObject({ errors: 1, embeds: 0 });
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatch(
      new RegExp(
        `^oEmbed for ${own!.link.replace(/[.?]/g, '\\$&')} not fetched \\(the next pull retries\\): GET .*answered 500`,
      ),
    );
  });

  it('works through a long queue in chunks of 50, reporting progress after each', async () => {
    const ids = Array.from({ length: 60 }, (_, n) => 20_000 + n);
    cache.store.syncQueue.add('pl', 'assets', 'posts', ids);
    await run('posts');
    expect(events.map((event) => (event.type === 'progress' ? event.done : -1))).toEqual([
      0, 50, 60,
    ]);
    expect(queued('posts')).toEqual([]);
  });
});
