import { describe, expect, it } from 'vitest';
import { AuthError } from '../../../src/errors.js';
import { openStore } from '../../../src/store/index.js';
import { pull } from '../../../src/sync/index.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { settingsFor } from '../../helpers/mirror-check.js';

/**
 * A pull that finds nothing changed (issue 17: a no-op `run` < 0.4 s) waits for as few
 * answers in a row as it can: the index (alone: a URL that is not a cms-json site gets no
 * other request), then every collection's total (the first one checks the credentials: no
 * request of its own), the seo configuration and, when the cache is there already, one crawl
 * request per collection together; no count after the crawl. A new cache's crawl waits for
 * the checks (a refused password leaves no file). The reference site holds every answer back
 * (an injected latency), so the requests it holds at the same moment show what the client
 * sent together; the log's order shows what came after what. What the probes find stays the
 * same: an edit and a deletion after the no-op are noticed, and nothing a refused pull was
 * answered is stored.
 */
describe('the probes of a pull that finds nothing changed', () => {
  const fixture = useSiteAndCache({ posts: 20 });

  /**
   * Keys (`path#1` for a count, `path crawl` for a crawl page, else `path`) of the requests
   * the site held at once, sampled every 2 ms.
   */
  function sampleInFlight(lang: string): { stop: () => Set<string>[] } {
    const { site } = fixture;
    const groups: Set<string>[] = [];
    const key = (r: (typeof site.requests)[number]): string =>
      `${r.path}${r.query['per_page'] === '1' ? '#1' : r.query['orderby'] === 'modified' ? ' crawl' : ''}`;
    const timer = setInterval(() => {
      const held = site.requests.filter((r) => r.lang === lang && r.status === 0);
      groups.push(new Set(held.map(key)));
    }, 2);
    return {
      stop: () => {
        clearInterval(timer);
        return groups;
      },
    };
  }

  it('asks the index first, then the checks, the seo configuration and the crawl at once, and counts nothing after the crawl', async () => {
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
    // The crawl's first pages went out beside them, all but the posts page, which waits for
    // the credentials check (the posts total).
    const beside = [...checks, seo, '/cms/v2/pages crawl', '/cms/v2/media crawl'];
    expect(groups.some((held) => beside.every((key) => held.has(key)))).toBe(true);
    const credentials = ['/cms/v2/posts#1', '/cms/v2/posts crawl'];
    expect(groups.some((held) => credentials.every((key) => held.has(key)))).toBe(false);
    expect(groups.some((held) => held.has('/cms/v2/posts crawl'))).toBe(true);
    // The index alone: while it was held, nothing else of the language was.
    expect(groups.filter((held) => held.has('/')).every((held) => held.size === 1)).toBe(true);

    for (const lang of ['pl', 'es']) {
      const requests = site.requests.filter((r) => r.lang === lang);
      expect(requests[0]?.path).toBe('/');
      // Each collection is asked for its total once (the credentials check is the posts total),
      // and no count after the crawl: the totals read up front serve.
      const totals = requests.filter((r) => r.query['per_page'] === '1').map((r) => r.path);
      expect(totals.sort()).toEqual(['/cms/v2/media', '/cms/v2/pages', '/cms/v2/posts']);
      // The index, three totals, the seo configuration, three crawls.
      expect(requests).toHaveLength(8);
    }
  });

  it("sends a new cache's crawl only once the checks have answered", async () => {
    const { site, temp } = fixture;
    const settings = settingsFor(site, temp.file);
    site.control.setFaults('latency=60ms');
    const sampler = sampleInFlight('pl');
    try {
      expect((await pull(settings)).total.created).toBeGreaterThan(20);
    } finally {
      site.control.setFaults(undefined);
    }
    const groups = sampler.stop();
    const crawling = (held: Set<string>): boolean => [...held].some((k) => k.endsWith(' crawl'));
    const checking = (held: Set<string>): boolean => [...held].some((k) => k.endsWith('#1'));
    expect(groups.some(crawling)).toBe(true);
    expect(groups.filter(crawling).some(checking)).toBe(false);
  });

  it('stores nothing a refused pull was answered, with the cache there', async () => {
    const { site, temp } = fixture;
    await pull(settingsFor(site, temp.file));
    const [edited] = site.control.listItems('pl', 'posts');
    if (edited === undefined) throw new Error('no posts seeded');
    site.control.updateItem('pl', 'posts', edited.id, { title: 'Edited before a refused pull' });
    const before = openStore(temp.file, { readonly: true });
    const runs = before.runs.list().length;
    before.close();

    site.control.clearLog();
    const refused = await pull(settingsFor(site, temp.file, { auth: 'wrong' })).catch(
      (error: unknown) => error,
    );
    expect(refused).toBeInstanceOf(AuthError);
    // The crawl's first pages were asked beside the checks and their answers left unread;
    // the posts page waits for the credentials check, refused here.
    const crawled = site.requests
      .filter((r) => r.lang === 'pl' && r.query['orderby'] === 'modified')
      .map((r) => r.path);
    expect(crawled.sort()).toEqual(['/cms/v2/media', '/cms/v2/pages']);
    const after = openStore(temp.file, { readonly: true });
    try {
      expect(after.items.get('pl', 'posts', edited.id)?.title).not.toBe(
        'Edited before a refused pull',
      );
      expect(after.runs.list()).toHaveLength(runs);
    } finally {
      after.close();
    }
    // The next pull with the right password stores the edit.
    const next = await pull(settingsFor(site, temp.file));
    expect(next.languages['pl']).toMatchObject({ updated: 1 });
  });

  it('asks both languages at once, and every collection of both languages at once in the crawl', async () => {
    const { site, temp } = fixture;
    const settings = settingsFor(site, temp.file);
    /** What the site held at each moment (sampled every 2 ms) while `work` ran. */
    const heldDuring = async (work: () => Promise<unknown>): Promise<string[][]> => {
      site.control.clearLog();
      site.control.setFaults('latency=60ms');
      const moments: string[][] = [];
      const timer = setInterval(() => {
        const held = site.requests.filter((r) => r.status === 0);
        const crawl = (r: (typeof held)[number]) => r.query['orderby'] === 'modified';
        moments.push(held.map((r) => `${r.lang} ${r.path}${crawl(r) ? ' crawl' : ''}`));
      }, 2);
      try {
        await work();
      } finally {
        clearInterval(timer);
        site.control.setFaults(undefined);
      }
      return moments;
    };

    // A new cache: no crawl goes out before the checks, so the streams' own requests show.
    const first = await heldDuring(() => pull(settings));
    // The crawl's first request of every collection of both languages at one moment: no
    // collection waits for another's crawl, no language for the other's.
    const crawls = ['pl', 'es'].flatMap((lang) =>
      ['posts', 'pages', 'media'].map((type) => `${lang} /cms/v2/${type} crawl`),
    );
    expect(first.some((held) => crawls.every((key) => held.includes(key)))).toBe(true);

    const noOp = await heldDuring(async () => {
      expect((await pull(settings)).total).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    });
    // Neither language waits for the other's index: the site held both at one moment.
    const indexes = ['pl /', 'es /'];
    expect(noOp.some((held) => indexes.every((key) => held.includes(key)))).toBe(true);
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
