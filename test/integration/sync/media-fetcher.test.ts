import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CmsClient } from '../../../src/client/index.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { MediaFetcher } from '../../../src/sync/media-fetcher.js';
import { emptyCounters } from '../../../src/sync/pull-summary.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../../helpers/reference.js';
import type { TempCache } from '../../helpers/temp-cache.js';

describe('MediaFetcher', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  let store: Store;
  let client: CmsClient;
  let source: string;
  const fixture = useSiteAndCache({ posts: 0, pages: 0 });
  beforeEach(() => {
    ({ site, temp } = fixture);
    store = openStore(temp.file);
    client = new CmsClient({ site: site.url, lang: 'pl', requestsPerSecond: 0, retries: 0 });
    const media = site.control
      .listItems('pl', 'media')
      .find((item) => item.media?.mimeType === 'image/png');
    source = `${site.url}/pl/cms-content/uploads/${media!.media!.file}`;
  });
  afterEach(async () => {
    await client.close();
    store.close();
  });

  it('downloads a URL once, even when asked for it concurrently, and stores it under its sha256', async () => {
    const fetcher = new MediaFetcher(store);
    const counters = emptyCounters();
    const warnings: string[] = [];
    const before = site.requests.length;
    const outcomes = await Promise.all([
      fetcher.fetch(client, { url: source, lang: 'pl', mediaId: 3 }, counters, (m) =>
        warnings.push(m),
      ),
      fetcher.fetch(client, { url: source, lang: 'pl', mediaId: 3 }, counters, (m) =>
        warnings.push(m),
      ),
    ]);
    expect(outcomes).toEqual(['stored', 'stored']);
    expect(site.requests.length - before).toBe(1);
    expect(
      await fetcher.fetch(client, { url: source, lang: 'pl' }, counters, () => undefined),
    ).toBe('present');
    expect(site.requests.length - before).toBe(1);
    const file = store.media.getFile(source);
    expect(file).toMatchObject({ lang: 'pl', mediaId: 3, mimeType: 'image/png' });
    expect(counters).toMatchObject({ media_files: 1, media_bytes: file!.bytes, errors: 0 });
    expect(warnings).toEqual([]);
  });

  it('refuses other origins without a request (counted, not fatal) unless allowed', async () => {
    const counters = emptyCounters();
    const foreign = 'http://media.example.invalid/pl/cms-content/uploads/x.png';
    const before = site.requests.length;
    const outcome = await new MediaFetcher(store).fetch(
      client,
      { url: foreign, lang: 'pl' },
      counters,
      () => undefined,
    );
    expect(outcome).toBe('refused');
    expect(counters.media_refused).toBe(1);
    expect(site.requests.length).toBe(before);
    expect(store.media.getFile(foreign)).toBeUndefined();
  });

  it('reports a missing file as gone and a size different from the declared one as a warning', async () => {
    const counters = emptyCounters();
    const warnings: string[] = [];
    const fetcher = new MediaFetcher(store);
    const missing = `${site.url}/pl/cms-content/uploads/2020/01/missing.png`;
    expect(
      await fetcher.fetch(client, { url: missing, lang: 'pl' }, counters, (m) => warnings.push(m)),
    ).toBe('gone');
    expect(counters.errors).toBe(1);
    expect(
      await fetcher.fetch(client, { url: source, lang: 'pl', expectedBytes: 1 }, counters, (m) =>
        warnings.push(m),
      ),
    ).toBe('stored');
    expect(warnings).toHaveLength(2);
    expect(warnings[1]).toMatch(/declares 1/);
  });
});
