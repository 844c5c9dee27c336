import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { pull } from '../../../src/sync/index.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { settingsFor } from '../../helpers/mirror-check.js';

/**
 * A pull that finds nothing changed (issue 17: a no-op `run` < 0.4 s) waits for as few
 * answers in a row as it can: the index (alone: a URL that is not a cms-json site gets no
 * other request), then every collection's total (the first one checks the credentials: no
 * request of its own) and the seo configuration together, then one crawl request per
 * collection, and no count after the crawl. The reference site holds every answer back (an
 * injected latency), so the
 * requests it holds at the same moment show what the client sent together; the log's order
 * shows what came after what. What the probes find stays the same: an edit and a deletion
 * after the no-op are noticed.
 */
describe('the probes of a pull that finds nothing changed', () => {
  const fixture = useSiteAndCache({ posts: 20 });

  /** Keys (`path?per_page=1`, ...) of the requests the site held at once, sampled every 2 ms. */
  function sampleInFlight(lang: string): { stop: () => Set<string>[] } {
    const { site } = fixture;
    const groups: Set<string>[] = [];
    const timer = setInterval(() => {
      const held = site.requests.filter((r) => r.lang === lang && r.status === 0);
      groups.push(new Set(held.map((r) => `${r.path}${r.query['per_page'] === '1' ? '#1' : ''}`)));
    }, 2);
    return {
      stop: () => {
        clearInterval(timer);
        return groups;
      },
    };
  }

  it('asks the index first, then the checks and the seo configuration at once, and counts nothing after the crawl', async () => {
    const { site, temp } = fixture;
    const settings = settingsFor(site, temp.file);
    expect((await pull(settings)).total.created).toBeGreaterThan(20);

    site.control.clearLog();
    site.control.setFaults('latency=60ms');
    const sampler = sampleInFlight('pl');
    const noOp = await pull(settings);
    const groups = sampler.stop();
    site.control.setFaults(undefined);
    expect(noOp.total).toMatchObject({ created: 0, updated: 0, deleted: 0 });

    const checks = ['/cms/v2/posts#1', '/cms/v2/pages#1', '/cms/v2/media#1'];
    const seo = '/seo/v1/configuration/get_configuration_state';
    // One moment at which the site held the checks and the seo request together.
    expect(groups.some((held) => [...checks, seo].every((key) => held.has(key)))).toBe(true);
    // The index alone: while it was held, nothing else of the language was.
    expect(groups.filter((held) => held.has('/')).every((held) => held.size === 1)).toBe(true);

    for (const lang of ['pl', 'es']) {
      const requests = site.requests.filter((r) => r.lang === lang);
      expect(requests[0]?.path).toBe('/');
      const crawl = requests.findIndex((r) => r.query['modified_after'] !== undefined);
      expect(crawl).toBeGreaterThan(0);
      // No count (`per_page=1`) once the crawl has started: the totals read up front serve.
      expect(requests.slice(crawl).filter((r) => r.query['per_page'] === '1')).toEqual([]);
      // Each collection is asked for its total once: the credentials check is the posts total.
      const totals = requests.filter((r) => r.query['per_page'] === '1').map((r) => r.path);
      expect(totals.sort()).toEqual(['/cms/v2/media', '/cms/v2/pages', '/cms/v2/posts']);
      // The index, three totals, the seo configuration, three crawls.
      expect(requests).toHaveLength(8);
    }
  });

  it('asks both languages at once, and every collection of both languages at once in the crawl', async () => {
    const { site, temp } = fixture;
    const settings = settingsFor(site, temp.file);
    await pull(settings);

    site.control.clearLog();
    site.control.setFaults('latency=60ms');
    const moments: string[][] = [];
    const timer = setInterval(() => {
      const held = site.requests.filter((r) => r.status === 0);
      const crawl = (r: (typeof held)[number]) => r.query['modified_after'] !== undefined;
      moments.push(held.map((r) => `${r.lang} ${r.path}${crawl(r) ? ' crawl' : ''}`));
    }, 2);
    try {
      const noOp = await pull(settings);
      expect(noOp.total).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    } finally {
      clearInterval(timer);
      site.control.setFaults(undefined);
    }

    // Neither language waits for the other's index: the site held both at one moment.
    const indexes = ['pl /', 'es /'];
    expect(moments.some((held) => indexes.every((key) => held.includes(key)))).toBe(true);
    // The crawl's first request of every collection of both languages at one moment: no
    // collection waits for another's crawl, no language for the other's.
    const crawls = ['pl', 'es'].flatMap((lang) =>
      ['posts', 'pages', 'media'].map((type) => `${lang} /cms/v2/${type} crawl`),
    );
    expect(moments.some((held) => crawls.every((key) => held.includes(key)))).toBe(true);
  });

  it('still notices an edit and a deletion after a no-op pull', async () => {
    const { site, temp } = fixture;
    const settings = settingsFor(site, temp.file);
    await pull(settings);
    await pull(settings);
    const [edited, deleted] = site.control
      .listItems('pl', 'posts')
      .filter((item) => item.status === 'publish');
    if (edited === undefined || deleted === undefined) throw new Error('too few posts seeded');
    site.control.updateItem('pl', 'posts', edited.id, { title: 'Edited after a no-op' });
    site.control.deleteItem('pl', 'posts', deleted.id);

    const after = await pull(settings);
    expect(after.languages['pl']).toMatchObject({ updated: 1, deleted: 1 });
    expect(after.languages['es']).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    const store = openStore(temp.file, { readonly: true });
    try {
      expect(store.items.get('pl', 'posts', edited.id)?.title).toBe('Edited after a no-op');
      const gone = store.items.get('pl', 'posts', deleted.id);
      expect(gone?.deletedAt).toEqual(expect.any(String));
    } finally {
      store.close();
    }
  });
});
