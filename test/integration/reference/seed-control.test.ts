import { afterEach, describe, expect, it } from 'vitest';
import { startReferenceSite } from '../../../src/reference/index.js';
import { getJson, startReference } from '../../helpers/reference.js';
import type { Json, ReferenceSite } from '../../helpers/reference.js';

const sites: ReferenceSite[] = [];
async function start(options: Parameters<typeof startReference>[0] = {}): Promise<ReferenceSite> {
  const site = await startReference(options);
  sites.push(site);
  return site;
}
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.close()));
});

async function everything(site: ReferenceSite, lang: string): Promise<string> {
  const parts: string[] = [];
  for (const collection of ['posts', 'pages', 'media']) {
    const status =
      collection === 'media'
        ? ['inherit']
        : ['publish', 'draft', 'private', 'future', 'pending', 'trash'];
    const { text } = await getJson(site, lang, `/cms/v2/${collection}`, {
      query: { per_page: 100, status, context: 'edit', orderby: 'id' },
      auth: true,
    });
    parts.push(text);
  }
  return parts.join('\n').split(site.url).join('{base}');
}

describe('seed', () => {
  it('gives the same content for the same seed and different content for another seed', async () => {
    const a = await start();
    const b = await start();
    const c = await start({ seed: 'other' });
    expect(await everything(a, 'pl')).toBe(await everything(b, 'pl'));
    expect(await everything(a, 'es')).toBe(await everything(b, 'es'));
    expect(await everything(a, 'pl')).not.toBe(await everything(c, 'pl'));
    expect(await everything(a, 'pl')).not.toBe(
      (await everything(a, 'es')).replaceAll('/es/', '/pl/'),
    );
  });

  it('honours the size knobs and seeds many posts with correct listings', async () => {
    const site = await start({ posts: 20_000, pages: 13, media: 2 });
    const posts = await getJson(site, 'es', '/cms/v2/posts', {
      query: { status: 'any', per_page: 1 },
      auth: true,
    });
    expect(Number(posts.headers.get('x-cms-total'))).toBe(20_000 - 1 - 1); // pl-only post, trashed post
    const pages = await getJson(site, 'pl', '/cms/v2/pages', {
      query: { status: 'any' },
      auth: true,
    });
    expect(Number(pages.headers.get('x-cms-total'))).toBe(13);
    const media = await getJson(site, 'pl', '/cms/v2/media');
    expect(Number(media.headers.get('x-cms-total'))).toBe(2);
    // A deep modified_after walk agrees with the stored records.
    const stored = site.control
      .listItems('es', 'posts')
      .filter((item) => item.status === 'publish');
    const threshold = stored[stored.length - 5000]?.modifiedGmt as number;
    const expected = stored.filter((item) => item.modifiedGmt > threshold).length;
    const local = new Date((threshold - 3 * 3600) * 1000).toISOString().slice(0, 19);
    const walk = await getJson(site, 'es', '/cms/v2/posts', {
      query: { modified_after: local, orderby: 'modified', order: 'asc', per_page: 100 },
    });
    expect(Number(walk.headers.get('x-cms-total'))).toBe(expected);
    const first = walk.body[0].modified_gmt;
    expect(Date.parse(`${first}Z`) / 1000).toBeGreaterThan(threshold);
  });

  it('has posts in every status, sticky and protected ones, and several revisions with an autosave', async () => {
    const site = await start();
    const stored = site.control.listItems('pl', 'posts');
    expect(new Set(stored.map((item) => item.status))).toEqual(
      new Set(['publish', 'draft', 'pending', 'private', 'future', 'trash']),
    );
    expect(stored.filter((item) => item.sticky)).toHaveLength(2);
    expect(stored.filter((item) => item.password !== '')).toHaveLength(1);
    const revisions = await getJson(site, 'pl', `/cms/v2/posts/${stored[1]?.id}/revisions`, {
      auth: true,
    });
    expect(revisions.body.length).toBe(4);
    const autosaves = await getJson(site, 'pl', `/cms/v2/posts/${stored[1]?.id}/autosaves`, {
      auth: true,
    });
    expect(autosaves.body).toHaveLength(1);
  });

  it('serves extra languages with English text and validates options', async () => {
    const site = await start({ languages: ['pl', 'es', 'de'], posts: 3, pages: 1, media: 1 });
    const index = await getJson(site, 'de', '/');
    expect(index.body.gmt_offset).toBe('1');
    expect(index.body.routes['/cms/v2/posts'].endpoints[0].args.per_page.description).toBe(
      'Maximum number of items to be returned in result set.',
    );
    await expect(startReferenceSite({ posts: -1 })).rejects.toMatchObject({ code: 'E_USAGE' });
    await expect(startReferenceSite({ languages: ['pl', 'pl'] })).rejects.toMatchObject({
      code: 'E_USAGE',
    });
    await expect(startReferenceSite({ languages: ['../x'] })).rejects.toMatchObject({
      code: 'E_USAGE',
    });
    await expect(startReferenceSite({ faults: 'error=5' })).rejects.toMatchObject({
      code: 'E_USAGE',
    });
    await expect(startReferenceSite({ port: 70000 })).rejects.toMatchObject({ code: 'E_USAGE' });
  });
});

describe('hostile mode', () => {
  it('returns hostile slugs, links and file names exactly as stored', async () => {
    const site = await start({ hostile: true });
    const posts = (await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 100 } })).body;
    const slugs = posts.map((post: Json) => post.slug);
    for (const slug of [
      '..',
      '../../etc/passwd',
      '/etc/passwd',
      '%2e%2e%2f%2e%2e%2fetc',
      'back\\slash\\..\\..\\windows',
      'привет-мир',
      '中文标题',
      'مرحبا-بالعالم',
    ]) {
      expect(slugs).toContain(slug);
    }
    expect(slugs.some((slug: string) => slug.length > 300)).toBe(true);
    expect(slugs.some((slug: string) => [...slug].some((ch) => ch.charCodeAt(0) < 32))).toBe(true);
    const traversal = posts.find((post: Json) => post.slug === '../../etc/passwd');
    expect(traversal.link).toMatch(/\/pl\/2025\/01\/\.\.\/\.\.\/etc\/passwd\/$/);
    expect(traversal.title.rendered).toContain('<script>');
    expect(traversal.content.rendered).toContain('javascript:alert(1)');
    const pages = (await getJson(site, 'pl', '/cms/v2/pages', { query: { per_page: 100 } })).body;
    expect(pages.some((page: Json) => page.link.includes('/../../'))).toBe(true);
    const media = (await getJson(site, 'pl', '/cms/v2/media', { query: { per_page: 100 } })).body;
    const sources = media.map((item: Json) => item.source_url);
    expect(sources).toContain(`${site.url}/pl/cms-content/uploads/2025/01/../../evil.png`);
    expect(sources).toContain(`${site.url}/pl/cms-content/uploads/2025/01/фото.png`);
    const served = await fetch(`${site.url}/pl/cms-content/uploads/2025/01/фото.png`);
    expect(served.status).toBe(200);
    const normal = await start();
    const plain = (await getJson(normal, 'pl', '/cms/v2/posts', { query: { per_page: 100 } })).body;
    expect(plain.some((post: Json) => post.slug === '..')).toBe(false);
  });
});

describe('control', () => {
  it('forces shared modified timestamps, creates, updates and deletes items behind the API', async () => {
    const site = await start({ posts: 30 });
    const created = site.control.createItems('pl', 'posts', 3, { title: 'Seria' });
    const ids = created.map((item) => item.id);
    site.control.setModified('pl', 'posts', ids, '2030-01-01T00:00:00');
    const shared = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { modified_after: '2029-12-31T23:00:00Z', orderby: 'modified', order: 'asc' },
    });
    expect(shared.body.map((post: Json) => post.id)).toEqual(ids);
    expect(new Set(shared.body.map((post: Json) => post.modified_gmt))).toEqual(
      new Set(['2030-01-01T00:00:00']),
    );
    site.control.setClock(() => new Date('2031-05-05T05:05:05Z'));
    const updated = site.control.updateItem('pl', 'posts', ids[0] as number, {
      title: 'Zmieniony gdzie indziej',
    });
    expect(updated.modifiedGmt).toBe(Date.UTC(2031, 4, 5, 5, 5, 5) / 1000);
    const read = await getJson(site, 'pl', `/cms/v2/posts/${ids[0]}`);
    expect(read.body.title.rendered).toBe('Zmieniony gdzie indziej');
    expect(read.body.modified_gmt).toBe('2031-05-05T05:05:05');
    site.control.deleteItem('pl', 'posts', ids[1] as number);
    expect((await getJson(site, 'pl', `/cms/v2/posts/${ids[1]}`)).status).toBe(404);
    expect(site.control.getItem('pl', 'posts', ids[1] as number)).toBeUndefined();
    const mutated = site.control.getItem('pl', 'posts', ids[2] as number);
    if (mutated) mutated.title = 'changed copy';
    expect(site.control.getItem('pl', 'posts', ids[2] as number)?.title).toBe('Seria');
    const [media] = site.control.createItems('es', 'media', 1);
    const served = await getJson(site, 'es', `/cms/v2/media/${media?.id}`);
    expect((await fetch(served.body.source_url)).headers.get('content-type')).toBe('image/png');
    expect(() => site.control.getItem('xx', 'posts', 1)).toThrow(/xx/);
  });
});

describe('independentIds (each language a separate site)', () => {
  it('numbers each language on its own: one id names unrelated items, translations differ in id', async () => {
    const separate = await startReference({ independentIds: true });
    const shared = await startReference();
    try {
      const ids = (site: typeof separate, lang: string) =>
        [...site.control.listItems(lang, 'posts'), ...site.control.listItems(lang, 'pages')]
          .map((item) => item.id)
          .sort((a, b) => a - b);
      // The default site: a translation has its item's id.
      expect(ids(shared, 'pl').slice(0, 5)).toEqual(ids(shared, 'es').slice(0, 5));
      // Separate sites: the same page (by position) has another id, and ids overlap.
      const plPages = separate.control.listItems('pl', 'pages').map((item) => item.id);
      const esPages = separate.control.listItems('es', 'pages').map((item) => item.id);
      expect(plPages.length).toBeGreaterThan(2);
      expect(plPages.filter((id) => esPages.includes(id))).not.toEqual(plPages);
      const both = ids(separate, 'pl').filter((id) => ids(separate, 'es').includes(id));
      expect(both.length).toBeGreaterThan(20);
      // An id both languages hold names items of unrelated place: not the same type and index.
      const id = both.find((candidate) => {
        const pl = separate.control.getItem('pl', 'posts', candidate);
        const es = separate.control.getItem('es', 'posts', candidate);
        return pl !== undefined && es !== undefined;
      });
      expect(id).toBeDefined();
      const plPost = separate.control.getItem('pl', 'posts', id as number);
      const esPost = separate.control.getItem('es', 'posts', id as number);
      expect(plPost?.dateGmt).toBeDefined();
      expect(plPost?.dateGmt).not.toBe(esPost?.dateGmt);
    } finally {
      await separate.close();
      await shared.close();
    }
  });
});
