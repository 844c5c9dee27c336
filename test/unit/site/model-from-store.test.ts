import fs from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { modelFromStore } from '../../../src/site/model-from-store.js';
import { identityFromSeo } from '../../../src/site/site-identity.js';
import { type CmsItem } from '../../../src/store/index.js';
import { mediaSitePath } from '../../../src/transform/media-site-paths.js';
import { walkFiles } from '../../helpers/link-check.js';
import { storedBuild } from '../../helpers/site/stored-build.js';
import { storeTransform } from '../../helpers/site/stored-transform.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

const SECRET = 'HIDDEN-IN-STORE-5d1c';
const cache = useTempStore({ prefix: 'cms-build-store-' });

function post(id: number, lang: string, fields: Record<string, unknown> = {}): CmsItem {
  return {
    id,
    status: 'publish',
    slug: `p${id}`,
    link: `http://h/${lang}/2024/01/p${id}/`,
    date_gmt: `2024-01-0${id}T10:00:00`,
    modified_gmt: `2024-01-0${id}T10:00:00`,
    title: { rendered: `Post ${id} ${lang}` },
    content: { rendered: `<p>Body ${id}</p>`, protected: false },
    excerpt: { rendered: `<p>Excerpt ${id}</p>`, protected: false },
    sticky: false,
    featured_media: 0,
    ...fields,
  };
}

function transform(
  lang: string,
  type: 'posts' | 'pages',
  id: number,
  sitePath: string,
  html: string,
): void {
  storeTransform(cache.store, {
    lang,
    type,
    id,
    html,
    excerpt: `Excerpt ${id} & <more>`,
    sitePath,
  });
}

beforeEach(() => {
  const logo = Buffer.from('logo bytes');
  const { sha256 } = cache.store.media.putBlob(logo);
  cache.store.media.setFile({ url: 'http://h/pl/media/logo.png', sha256, lang: 'pl' });
  cache.store.siteInfo.set('pl', {
    lang: 'pl',
    name: 'Strona',
    description: 'Opis',
    home: 'http://h/pl/',
    seo: {
      source: 'configuration',
      site_representation: {
        company_or_person: 'company',
        company_name: 'ACME',
        company_logo: 'http://h/pl/media/logo.png',
      },
      social_profiles: {
        facebook_site: 'https://fb.example/acme',
        twitter_site: 'acme',
        other_social_urls: ['javascript:x', 'https://o.example/'],
      },
    },
  });
  cache.store.items.upsertPage('pl', 'posts', [
    post(1, 'pl', { sticky: true }),
    post(2, 'pl', { status: 'draft', title: { rendered: SECRET } }),
    post(3, 'pl', {
      content: { rendered: `<p>${SECRET}</p>`, protected: true },
      title: { rendered: SECRET },
    }),
    post(4, 'pl'),
  ]);
  cache.store.items.upsertPage('pl', 'pages', [
    { ...post(5, 'pl'), parent: 0, menu_order: 1, link: 'http://h/pl/o-nas/' },
  ]);
  cache.store.items.upsertPage('es', 'posts', [post(1, 'es')]);
  transform('pl', 'posts', 1, '/2024/01/p1/', '<p>Body 1 <a href="../../../o-nas/">o nas</a></p>');
  transform('pl', 'posts', 3, '/2024/01/p3/', `<p>${SECRET}</p>`);
  transform('pl', 'pages', 5, '/o-nas/', '<p>O nas</p>');
  transform('es', 'posts', 1, '/2024/01/p1-es/', '<p>Cuerpo</p>');
});

describe('modelFromStore', () => {
  it('builds the public model of a language from the cache', () => {
    const { model, warnings } = modelFromStore(cache.store, {
      lang: 'pl',
      languages: [{ lang: 'pl' }, { lang: 'es' }],
      translations: 'same-id',
    });
    expect(model.site).toEqual({ name: 'Strona', description: 'Opis', publicUrl: 'http://h/pl/' });
    expect(model.posts.map((entry) => entry.id)).toEqual([1]);
    expect(model.posts[0]).toMatchObject({
      sitePath: '/2024/01/p1/',
      title: 'Post 1 pl',
      sticky: true,
      status: 'publish',
      protected: false,
      excerptHtml: 'Excerpt 1 &amp; &lt;more&gt;',
      alternates: [{ lang: 'es', sitePath: '/2024/01/p1-es/' }],
      dateGmt: '2024-01-01T10:00:00',
    });
    expect(model.pages.map((entry) => [entry.id, entry.sitePath, entry.parentId])).toEqual([
      [5, '/o-nas/', 0],
    ]);
    expect(warnings).toEqual([
      'posts 4 left out: not transformed for its current content (run cms-mirror build, which transforms it first).',
    ]);
    expect(model.languages).toEqual([
      { lang: 'pl', label: 'Polski', homePath: './' },
      { lang: 'es', label: 'Español', homePath: '../es/' },
    ]);
    const logoPath = mediaSitePath('http://h/pl/media/logo.png', model.media[0]!.sha256);
    expect(model.identity).toEqual({
      kind: 'Organization',
      name: 'ACME',
      url: 'http://h/pl/',
      logo: logoPath,
      sameAs: ['https://fb.example/acme', 'https://x.com/acme', 'https://o.example/'],
    });
    expect(model.media.map((file) => file.sitePath)).toEqual([logoPath]);
    expect(model.media[0]!.read().toString()).toBe('logo bytes');
  });

  it('leaves out an item whose content changed after it was transformed', () => {
    cache.store.items.upsertPage('pl', 'posts', [
      post(1, 'pl', { content: { rendered: '<p>New</p>', protected: false } }),
    ]);
    const { model, warnings } = modelFromStore(cache.store, {
      lang: 'pl',
      languages: [{ lang: 'pl' }],
    });
    expect(model.posts).toEqual([]);
    expect(warnings[0]).toMatch(/^posts 1 left out/);
  });

  it('refuses a language that was never pulled', () => {
    expect(() => modelFromStore(cache.store, { lang: 'de', languages: [{ lang: 'de' }] })).toThrow(
      expect.objectContaining({ code: 'E_CONFIG' }),
    );
  });

  it('feeds a build that publishes nothing private', async () => {
    const { model } = modelFromStore(cache.store, {
      lang: 'pl',
      languages: [{ lang: 'pl' }, { lang: 'es' }],
      publicUrl: 'https://static.example/pl',
    });
    const outDir = path.join(cache.temp.dir, 'output', 'pl');
    const report = await storedBuild(cache.store, model, { outDir, search: false });
    const files = walkFiles(outDir);
    expect(files).toContain('2024/01/p1/index.html');
    expect(files).toContain('o-nas/index.html');
    expect(files).toContain(model.media[0]!.sitePath.slice(1));
    for (const file of files)
      expect(fs.readFileSync(path.join(outDir, file)).includes(SECRET), file).toBe(false);
    expect(fs.readFileSync(path.join(outDir, 'sitemap.xml'), 'utf8')).toContain(
      'https://static.example/pl/2024/01/p1/',
    );
    expect(report.pages).toBe(5);
  });
});

describe('identityFromSeo', () => {
  const site = { name: 'Site', url: 'https://s/pl/' };

  it('describes a person with the site name (the person record is not exposed)', () => {
    expect(
      identityFromSeo(
        {
          source: 'configuration',
          site_representation: {
            company_or_person: 'person',
            person_logo: 'https://s/me.png',
            company_name: 'Ignored',
          },
        },
        site,
      ),
    ).toEqual({
      kind: 'Person',
      name: 'Site',
      url: 'https://s/pl/',
      logo: 'https://s/me.png',
      sameAs: [],
    });
  });

  it('reads the Organization or Person node an item head carried', () => {
    expect(
      identityFromSeo(
        {
          source: 'schema',
          schema_node: {
            '@type': ['Organization'],
            name: 'Org',
            url: 'https://org/',
            logo: { url: 'https://org/l.png' },
            sameAs: ['https://a/', 'ftp://b/'],
          },
        },
        site,
      ),
    ).toEqual({
      kind: 'Organization',
      name: 'Org',
      url: 'https://org/',
      logo: 'https://org/l.png',
      sameAs: ['https://a/'],
    });
  });

  it('gives null when nothing is known', () => {
    expect(identityFromSeo(null, site)).toBeNull();
    expect(
      identityFromSeo({ source: 'schema', schema_node: { '@type': 'WebSite' } }, site),
    ).toBeNull();
    expect(identityFromSeo({ source: 'configuration' }, site)).toBeNull();
  });
});

describe('modelFromStore: HTML not held by the model', () => {
  it('reads an entry’s HTML from the cache at each use, keeping none of it', () => {
    const { model } = modelFromStore(cache.store, { lang: 'pl', languages: [{ lang: 'pl' }] });
    const entry = model.posts.find((candidate) => candidate.id === 1);
    if (!entry) throw new Error('post 1 is missing from the model');
    expect(entry.html).toContain('Body 1');
    // What the model would show is what the cache holds now, not a copy of an earlier read:
    // a model that kept every page's HTML it read would grow with the site.
    transform('pl', 'posts', 1, '/2024/01/p1/', '<p>Second body</p>');
    expect(entry.html).toBe('<p>Second body</p>');
  });
});
