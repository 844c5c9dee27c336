import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CmsClient } from '../../../src/client/index.js';
import { MediaFetcher, type FetchRequest } from '../../../src/sync/media-fetcher.js';
import { emptyCounters, type PullCounters } from '../../../src/sync/pull-summary.js';
import { useSite } from '../../helpers/mirror-fixture.js';
import { useClockedStore } from '../../helpers/store/clocked-store.js';
import { startFileServer, type ServedFile } from '../../helpers/sync/media-fetcher-files.js';
import type { TestServer } from '../../helpers/test-server.js';

function sha256(data: Buffer): string {
  return createHash('sha256').update(data).digest('hex');
}

/**
 * Media downloads into the cache with the real client: from the reference site (its
 * `control.listFiles` bytes are the oracle of what must land in the cache) and from a scripted
 * file server on another origin (410, a CDN, headers missing, a redirect).
 */
describe('MediaFetcher', () => {
  const site = useSite({ posts: 0, pages: 0, media: 2, languages: ['pl'] });
  const cache = useClockedStore();
  let clients: CmsClient[];
  let servers: TestServer[];
  let counters: PullCounters;
  let warnings: string[];
  beforeEach(() => {
    clients = [];
    servers = [];
    counters = emptyCounters();
    warnings = [];
  });
  afterEach(async () => {
    await Promise.all(clients.map((client) => client.close()));
    await Promise.all(servers.map((server) => server.close()));
  });

  function client(url = site.site.url): CmsClient {
    const made = new CmsClient({ site: url, lang: 'pl', requestsPerSecond: 0, retries: 0 });
    clients.push(made);
    return made;
  }

  async function files(served: Record<string, ServedFile>): Promise<TestServer> {
    const server = await startFileServer(served);
    servers.push(server);
    return server;
  }

  function fetch(
    fetcher: MediaFetcher,
    request: Omit<FetchRequest, 'lang'>,
    through = client(),
  ): ReturnType<MediaFetcher['fetch']> {
    return fetcher.fetch(through, { lang: 'pl', ...request }, counters, (m) => warnings.push(m));
  }

  it('stores every file the site serves under its sha256, with its type, language and media item', async () => {
    const served = site.site.control.listFiles('pl');
    expect(served.length).toBeGreaterThan(1);
    const fetcher = new MediaFetcher(cache.store);
    const through = client();
    for (const file of served) {
      expect(await fetch(fetcher, { url: file.url, mediaId: file.owner }, through)).toBe('stored');
    }
    for (const file of served) {
      const stored = cache.store.media.getFile(file.url);
      expect(stored).toMatchObject({
        url: file.url,
        sha256: sha256(file.bytes),
        bytes: file.bytes.length,
        lang: 'pl',
        mediaId: file.owner,
      });
      expect(stored!.mimeType).toMatch(/^image\//);
      expect(cache.store.media.getBlob(sha256(file.bytes))!.equals(file.bytes)).toBe(true);
    }
    const total = served.reduce((sum, file) => sum + file.bytes.length, 0);
    expect(counters).toMatchObject({ media_files: served.length, media_bytes: total, errors: 0 });
    expect(warnings).toEqual([]);
  });

  it('asks once for a URL asked for twice at once, and not at all once it is stored', async () => {
    const [file] = site.site.control.listFiles('pl');
    const fetcher = new MediaFetcher(cache.store);
    site.site.control.clearLog();
    const through = client();
    const both = await Promise.all([
      fetch(fetcher, { url: file!.url }, through),
      fetch(fetcher, { url: file!.url }, through),
    ]);
    expect(both).toEqual(['stored', 'stored']);
    expect(await fetch(fetcher, { url: file!.url }, through)).toBe('present');
    // A second fetcher (the next pull) finds it in the cache too.
    expect(await fetch(new MediaFetcher(cache.store), { url: file!.url }, through)).toBe('present');
    expect(site.site.requests).toHaveLength(1);
    expect(counters.media_files).toBe(1);
    expect(cache.store.media.getFile(file!.url)!.mediaId).toBeNull();
  });

  it('retries a failed URL on the next call: a failure is not remembered as the answer', async () => {
    const [file] = site.site.control.listFiles('pl');
    const fetcher = new MediaFetcher(cache.store);
    site.site.control.setFaults({ error: 1 });
    expect(await fetch(fetcher, { url: file!.url })).toBe('failed');
    expect(cache.store.media.getFile(file!.url)).toBeUndefined();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/^media file not fetched \(the next pull retries\): GET /);
    expect(warnings[0]).toContain(`${file!.url} answered 500`);
    expect(counters).toMatchObject({ errors: 1, media_files: 0 });
    site.site.control.setFaults(undefined);
    expect(await fetch(fetcher, { url: file!.url })).toBe('stored');
    expect(cache.store.media.getFile(file!.url)!.sha256).toBe(sha256(file!.bytes));
  });

  it('counts a lost connection and a file over the size limit as failed, stores nothing', async () => {
    const [file] = site.site.control.listFiles('pl');
    site.site.control.setFaults({ reset: 1 });
    expect(await fetch(new MediaFetcher(cache.store), { url: file!.url })).toBe('failed');
    site.site.control.setFaults(undefined);
    const small = new MediaFetcher(cache.store, { maxBytes: file!.bytes.length - 1 });
    expect(await fetch(small, { url: file!.url })).toBe('failed');
    expect(counters).toMatchObject({ errors: 2, media_files: 0, media_refused: 0 });
    expect(warnings).toHaveLength(2);
    for (const warning of warnings) {
      expect(warning).toMatch(/^media file not fetched \(the next pull retries\): GET /);
      expect(warning).toContain(file!.url);
    }
    expect(cache.store.media.getFile(file!.url)).toBeUndefined();
    const exact = new MediaFetcher(cache.store, { maxBytes: file!.bytes.length });
    expect(await fetch(exact, { url: file!.url })).toBe('stored');
  });

  it('reports a file missing on the site (404, 410) as gone, naming the URL', async () => {
    const missing = `${site.site.url}/pl/cms-content/uploads/2020/01/missing.png`;
    expect(await fetch(new MediaFetcher(cache.store), { url: missing })).toBe('gone');
    const cdn = await files({ '/gone.png': { status: 410 } });
    const fetcher = new MediaFetcher(cache.store, { allowedOrigins: [cdn.url] });
    expect(await fetch(fetcher, { url: `${cdn.url}/gone.png` })).toBe('gone');
    expect(warnings).toEqual([
      `media file missing on the site: GET ${missing} answered 404`,
      `media file missing on the site: GET ${cdn.url}/gone.png answered 410`,
    ]);
    expect(counters).toMatchObject({ errors: 2, media_files: 0 });
  });

  it('refuses another origin without a request unless it is allowed', async () => {
    const bytes = Buffer.from('cdn file bytes');
    const cdn = await files({ '/a.bin': { body: bytes } });
    const url = `${cdn.url}/a.bin`;
    expect(await fetch(new MediaFetcher(cache.store), { url })).toBe('refused');
    expect(await fetch(new MediaFetcher(cache.store, { allowedOrigins: [] }), { url })).toBe(
      'refused',
    );
    expect(cdn.requests).toHaveLength(0);
    expect(counters).toMatchObject({ media_refused: 2, errors: 0 });
    expect(warnings).toEqual([]);
    expect(cache.store.media.getFile(url)).toBeUndefined();
    const allowed = new MediaFetcher(cache.store, { allowedOrigins: [cdn.url] });
    expect(await fetch(allowed, { url, mediaId: 9 })).toBe('stored');
    expect(cache.store.media.getFile(url)).toMatchObject({ sha256: sha256(bytes), mediaId: 9 });
    expect(cdn.requests).toHaveLength(1);
  });

  it('stores a file without Content-Type or ETag with neither, and keeps them when sent', async () => {
    const plain = Buffer.from('plain');
    const typed = Buffer.from('typed');
    const own = await files({
      '/plain': { body: plain },
      '/typed': { body: typed, headers: { 'content-type': 'image/webp', etag: '"v1"' } },
    });
    const through = client(own.url);
    const fetcher = new MediaFetcher(cache.store);
    expect(await fetch(fetcher, { url: `${own.url}/plain` }, through)).toBe('stored');
    expect(await fetch(fetcher, { url: `${own.url}/typed` }, through)).toBe('stored');
    expect(cache.store.media.getFile(`${own.url}/plain`)).toMatchObject({
      mimeType: null,
      etag: null,
    });
    expect(cache.store.media.getFile(`${own.url}/typed`)).toMatchObject({
      mimeType: 'image/webp',
      etag: '"v1"',
    });
  });

  it('warns when a file differs from its declared size, naming where the bytes came from', async () => {
    const bytes = Buffer.from('twelve bytes');
    const own = await files({
      '/old.png': { status: 301, headers: { location: '/new.png' } },
      '/new.png': { body: bytes },
    });
    const through = client(own.url);
    const fetcher = new MediaFetcher(cache.store);
    expect(await fetch(fetcher, { url: `${own.url}/old.png`, expectedBytes: 15 }, through)).toBe(
      'stored',
    );
    expect(await fetch(fetcher, { url: `${own.url}/new.png`, expectedBytes: 12 }, through)).toBe(
      'stored',
    );
    expect(warnings).toEqual([
      `media file ${own.url}/new.png has 12 bytes where the site declares 15`,
    ]);
    // Stored under the URL the content asked for.
    expect(cache.store.media.getFile(`${own.url}/old.png`)!.sha256).toBe(sha256(bytes));
    expect(counters).toMatchObject({ media_files: 2, media_bytes: 24, errors: 0 });
  });

  it('lets an error that is not about the download through', async () => {
    const broken = new Error('disk on fire');
    const failing = {
      options: { site: site.site.url },
      download: () => Promise.reject(broken),
    } as unknown as CmsClient;
    await expect(
      fetch(new MediaFetcher(cache.store), { url: `${site.site.url}/x.png` }, failing),
    ).rejects.toBe(broken);
    expect(counters).toMatchObject({ errors: 0, media_refused: 0, media_files: 0 });
  });
});
