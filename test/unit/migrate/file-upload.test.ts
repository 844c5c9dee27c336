import { createHash } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CmsClient } from '../../../src/client/index.js';
import type { CreateRun } from '../../../src/migrate/create-items.js';
import { createFiles } from '../../../src/migrate/file-upload.js';
import type { PlanStep, SourceItem } from '../../../src/migrate/planner.js';
import type { MigrateContext } from '../../../src/migrate/recovery.js';
import { emptyReport } from '../../../src/migrate/report.js';
import { openSiteSession, type SiteSession } from '../../../src/push/site-session.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { siteClient } from '../../helpers/push-site-fixture.js';
import { startReference, type ReferenceSite } from '../../helpers/reference.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

/**
 * Uploading a migration's files, in-process: a source reference site (its media records and
 * files), a real SQLite cache and an empty reference target on 127.0.0.1. What the target
 * ends up holding (the bytes, the fields), what is recorded so a re-run uploads nothing
 * twice, and what is reported when a file cannot be had or is refused.
 */
const sha = (data: Buffer) => createHash('sha256').update(data).digest('hex');
const FAST = { requestsPerSecond: 0, retries: 0 };

describe('createFiles (a migration uploads its media)', () => {
  let source: ReferenceSite;
  let media: Record<string, unknown>[];
  let sourceBytes: Map<string, Buffer>;
  let target: ReferenceSite;
  let temp: TempCache;
  let store: Store;
  let session: SiteSession;
  let lines: string[];

  beforeAll(async () => {
    source = await startReference({ posts: 0, pages: 0, media: 3, languages: ['pl'] });
    const client = siteClient(source.url, 'pl', source.credentials);
    try {
      media = (
        await client.get<Record<string, unknown>[]>('cms/v2/media', {
          context: 'edit',
          per_page: 100,
          orderby: 'id',
          order: 'asc',
        })
      ).data;
    } finally {
      await client.close();
    }
    sourceBytes = new Map(source.control.listFiles('pl').map((file) => [file.url, file.bytes]));
  });
  afterAll(() => source.close());
  beforeEach(async () => {
    target = await startReference({ posts: 0, pages: 0, media: 0, languages: ['pl'], seed: 't' });
    session = await openSiteSession({
      site: target.url,
      lang: 'pl',
      credentials: target.credentials,
      http: FAST,
    });
    temp = tempCache();
    store = openStore(temp.file);
    lines = [];
  });
  afterEach(async () => {
    await session.client.close();
    await target.close();
    store.close();
    temp.cleanup();
  });

  const KEYS = { sourceKey: 'source#pl', targetKey: 'target#pl' };

  function run(items: SourceItem[]): CreateRun {
    const context: MigrateContext = {
      ids: { posts: new Map(), pages: new Map(), media: new Map() },
      authors: new Map(),
      urls: new Map(),
      sourceHome: `${source.url}/pl/`,
      targetHome: `${target.url}/pl/`,
      sourceUrl: source.url,
      targetUrl: target.url,
    };
    return {
      store,
      session,
      byId: new Map(items.map((i) => [`${i.type}:${i.id}`, i])),
      context,
      keys: KEYS,
      maxItems: 25,
      report: emptyReport(),
      onLine: (line) => lines.push(line),
      created: [],
    };
  }
  const asItem = (json: Record<string, unknown>): SourceItem => ({
    type: 'media',
    id: json.id as number,
    json,
  });
  const steps = (items: SourceItem[]): PlanStep[] =>
    items.map((i) => ({
      type: 'media',
      sourceId: i.id,
      slug: String(i.json.slug),
      title: '',
      parentSourceId: 0,
      action: 'create',
      targetId: undefined,
    }));
  /** A source client that must not be used (the file is in the cache). */
  const noSource = (): CmsClient => {
    throw new Error('the source site was asked for a file the cache holds');
  };
  const onTarget = () => target.control.listItems('pl', 'media');
  const targetFiles = () => target.control.listFiles('pl');
  const cache = (json: Record<string, unknown>, bytes: Buffer) => {
    const blob = store.media.putBlob(bytes);
    store.media.setFile({
      url: json.source_url as string,
      sha256: blob.sha256,
      lang: 'pl',
      mediaId: json.id as number,
    });
  };

  it('uploads a file the cache holds (the source is not asked), with its fields, and records it', async () => {
    const json: Record<string, unknown> = {
      ...media[0]!,
      title: { raw: 'Logo of the site' },
      alt_text: 'A blue logo',
      slug: 'logo-of-the-site',
    };
    // The bytes the cache holds (not the source's): the upload must send these.
    const bytes = Buffer.from(sourceBytes.get(json.source_url as string)!);
    cache(json, bytes);
    const r = run([asItem(json)]);
    await createFiles(r, steps([asItem(json)]), noSource);

    const [created] = onTarget();
    expect(created).toBeDefined();
    expect(onTarget()).toHaveLength(1);
    expect(created!.title).toBe('Logo of the site');
    expect(created!.slug).toBe('logo-of-the-site');
    expect(created!.media?.altText).toBe('A blue logo');
    const files = targetFiles().filter((file) => file.owner === created!.id);
    expect(files.map((file) => sha(file.bytes))).toEqual([sha(bytes)]);
    // Uploaded under the source file's own name.
    const sourceName = String(json.source_url).split('/').pop()!;
    expect(files[0]!.url.split('/').pop()).toBe(sourceName);

    expect(store.idMap.get(KEYS.sourceKey, 'media', json.id as number, KEYS.targetKey)).toBe(
      created!.id,
    );
    expect(r.context.ids.media.get(json.id as number)).toBe(created!.id);
    expect(r.context.urls.get(json.source_url as string)).toBe(files[0]!.url);
    expect(r.report.created.media).toBe(1);
    expect(r.report.requests).toBe(1);
    expect(r.report.failed).toEqual([]);
    expect(lines).toEqual([`created media ${String(json.id)} → ${created!.id}`]);
  });

  it('downloads from the source a file the cache lacks, even from another origin than the site', async () => {
    const items = media.slice(0, 2).map(asItem);
    const clients: CmsClient[] = [];
    // The site address differs from the files' origin (files on a CDN): the download must
    // allow the file's own origin.
    const sourceClient = () => {
      const client = new CmsClient({ site: 'http://127.0.0.1:1', lang: 'pl', ...FAST });
      clients.push(client);
      return client;
    };
    const r = run(items);
    try {
      await createFiles(r, steps(items), sourceClient);
    } finally {
      for (const client of clients) await client.close();
    }
    expect(r.report.failed).toEqual([]);
    const uploaded = onTarget().map((item) =>
      sha(targetFiles().find((file) => file.owner === item.id)!.bytes),
    );
    expect(uploaded).toEqual(items.map((i) => sha(sourceBytes.get(i.json.source_url as string)!)));
    expect(r.report.created.media).toBe(2);
    expect(lines).toHaveLength(2);
  });

  it('reports a media item without a file address and goes on with the next', async () => {
    const [first, second] = media;
    const broken = { ...first!, source_url: undefined };
    const numbered: Record<string, unknown> = { ...media[2]!, source_url: 42 };
    cache(second!, sourceBytes.get(second!.source_url as string)!);
    const items = [asItem(broken), asItem(numbered), asItem(second!)];
    const r = run(items);
    await createFiles(r, steps(items), noSource);
    expect(r.report.failed).toEqual([
      {
        type: 'media',
        sourceId: first!.id,
        message: `media ${String(first!.id)} has no source_url`,
      },
      {
        type: 'media',
        sourceId: numbered.id,
        message: `media ${String(numbered.id)} has no source_url`,
      },
    ]);
    expect(onTarget()).toHaveLength(1);
    expect(r.report.created.media).toBe(1);
    expect(r.context.ids.media.has(first!.id as number)).toBe(false);
    expect(store.idMap.list(KEYS.sourceKey, KEYS.targetKey).map((m) => m.sourceId)).toEqual([
      second!.id,
    ]);
  });

  it('reports a file the target refuses, naming why, and records nothing for it', async () => {
    const [first, second] = media;
    // A file name the target does not accept (no known extension).
    const refused = { ...first!, media_details: { file: '2024/01/not-a-picture.exe' } };
    cache(refused, sourceBytes.get(first!.source_url as string)!);
    cache(second!, sourceBytes.get(second!.source_url as string)!);
    const items = [asItem(refused), asItem(second!)];
    const r = run(items);
    await createFiles(r, steps(items), noSource);
    expect(r.report.failed).toHaveLength(1);
    expect(r.report.failed[0]).toMatchObject({ type: 'media', sourceId: first!.id });
    expect(r.report.failed[0]!.message).toContain('not allowed to upload this file type');
    expect(onTarget()).toHaveLength(1);
    expect(r.report.created.media).toBe(1);
    expect(store.idMap.get(KEYS.sourceKey, 'media', first!.id as number, KEYS.targetKey)).toBe(
      undefined,
    );
  });

  it('sends the media type it knows, else a generic one, the file name as an attachment, and never re-sends an upload', async () => {
    // A retried upload whose answer was lost would create the file twice.
    const sent: { contentType: string; disposition: string; idempotent: boolean }[] = [];
    const request = session.client.request.bind(session.client);
    session.client.request = ((method: string, route: string, options: never) => {
      const { rawBody, headers, idempotent } = options as {
        rawBody: { contentType: string };
        headers: Record<string, string>;
        idempotent: boolean;
      };
      sent.push({
        contentType: rawBody.contentType,
        disposition: headers['content-disposition']!,
        idempotent,
      });
      return request(method as 'POST', route, options);
    }) as typeof session.client.request;
    const [first, second] = media;
    const typed = { ...first!, mime_type: 'image/png', media_details: { file: 'a/b/logo.png' } };
    const untyped = { ...second!, mime_type: undefined, media_details: {} };
    cache(typed, sourceBytes.get(first!.source_url as string)!);
    cache(untyped, sourceBytes.get(second!.source_url as string)!);
    const items = [asItem(typed), asItem(untyped)];
    await createFiles(run(items), steps(items), noSource);
    expect(sent).toEqual([
      {
        contentType: 'image/png',
        disposition: 'attachment; filename="logo.png"',
        idempotent: false,
      },
      {
        contentType: 'application/octet-stream',
        disposition: `attachment; filename="${String(second!.source_url).split('/').pop()!}"`,
        idempotent: false,
      },
    ]);
  });

  it('lets a failure that is not the site answering (a lost connection) end the run', async () => {
    const items = [asItem(media[0]!)];
    const lost = (): CmsClient => {
      throw new TypeError('fetch failed');
    };
    await expect(createFiles(run(items), steps(items), lost)).rejects.toThrow('fetch failed');
    expect(onTarget()).toEqual([]);
  });

  it('runs without a progress line callback', async () => {
    cache(media[0]!, sourceBytes.get(media[0]!.source_url as string)!);
    const r = { ...run([asItem(media[0]!)]), onLine: undefined };
    await createFiles(r, steps([asItem(media[0]!)]), noSource);
    expect(r.report.created.media).toBe(1);
  });
});
