/**
 * Small, deterministic site models for the build tests. Non-public items carry
 * `SECRET_MARKER` in every text field, so a test can grep the whole output for it.
 */
import { createHash } from 'node:crypto';
import { relativeSitePath } from '../../src/transform/site-paths.js';
import type { MediaFile, PageEntry, PostEntry, SiteModel } from '../../src/site/site-model.js';

export const SECRET_MARKER = 'TOP-SECRET-MARKER-7f3a';

export interface FixtureOptions {
  lang?: 'pl' | 'es';
  posts?: number;
  /** Give every post a counterpart in the other language at the same path. @default true */
  alternates?: boolean;
}

function pad(value: number): string {
  return String(value).padStart(2, '0');
}

export function png(seed: string): Buffer {
  // Not a real PNG; the build copies bytes and never decodes them.
  return Buffer.from(`\u0089PNG fixture ${seed}`);
}

function mediaFile(name: string): MediaFile {
  const bytes = png(name);
  return {
    sitePath: `/media/${name}`,
    sha256: createHash('sha256').update(bytes).digest('hex'),
    read: () => bytes,
  };
}

export function postPath(index: number): string {
  const month = pad((index % 12) + 1);
  return `/2024/${month}/post-${index}/`;
}

export function makePost(index: number, overrides: Partial<PostEntry> = {}): PostEntry {
  const day = pad((index % 28) + 1);
  const month = pad((index % 12) + 1);
  const date = `2024-${month}-${day}T${pad(index % 24)}:00:00`;
  const sitePath = overrides.sitePath ?? postPath(index);
  // As the transform writes it: relative to the page's canonical path.
  const up = relativeSitePath(sitePath, '/').replace(/^\.\/$/, '');
  return {
    id: 100 + index,
    sitePath,
    title: `Post ${index} & <friends>`,
    html: `<p>Body of post ${index}. <a href="${up}about/">About</a></p><p><img src="${up}media/photo-${index % 3}.png" alt="Photo" width="10" height="10"></p>`,
    excerptHtml: `<p>Excerpt of post ${index} &amp; more</p>`,
    dateGmt: date,
    modifiedGmt: date,
    status: 'publish',
    protected: false,
    alternates: [],
    contentHash: `hash-${index}`,
    sticky: false,
    ...overrides,
  };
}

function makePage(
  id: number,
  sitePath: string,
  title: string,
  parentId: number,
  menuOrder: number,
): PageEntry {
  return {
    id,
    sitePath,
    title,
    html: `<h2 id="intro">Intro</h2><p>${title} content.</p>`,
    excerptHtml: '',
    dateGmt: '2023-01-01T10:00:00',
    modifiedGmt: '2023-01-02T10:00:00',
    status: 'publish',
    protected: false,
    alternates: [],
    contentHash: `page-${id}`,
    parentId,
    menuOrder,
  };
}

export function fixtureModel(options: FixtureOptions = {}): SiteModel {
  const lang = options.lang ?? 'pl';
  const other = lang === 'pl' ? 'es' : 'pl';
  const count = options.posts ?? 25;
  const alternates = options.alternates ?? true;

  const posts: PostEntry[] = [];
  for (let index = 0; index < count; index++) {
    posts.push(
      makePost(index, {
        sticky: index === 3,
        alternates: alternates ? [{ lang: other, sitePath: postPath(index) }] : [],
        featuredImage:
          index === 0
            ? { sitePath: '/media/photo-0.png', width: 10, height: 10, alt: 'Featured' }
            : undefined,
      }),
    );
  }
  // Non-public items: every one must stay out of the output.
  const secret = (index: number, overrides: Partial<PostEntry>): PostEntry =>
    makePost(index, {
      title: `${SECRET_MARKER} title`,
      html: `<p>${SECRET_MARKER} body</p><img src="../../../media/secret.png" alt="">`,
      excerptHtml: `<p>${SECRET_MARKER} excerpt</p>`,
      sitePath: `/secret/${index}/`,
      ...overrides,
    });
  posts.push(
    secret(900, { status: 'draft' }),
    secret(901, { status: 'private' }),
    secret(902, { status: 'pending' }),
    secret(903, { status: 'future' }),
    secret(904, { status: 'trash' }),
    secret(905, { status: 'publish', protected: true }),
  );
  posts.sort((a, b) => (a.dateGmt < b.dateGmt ? 1 : a.dateGmt > b.dateGmt ? -1 : b.id - a.id));

  const pages: PageEntry[] = [
    makePage(10, '/about/', 'About us', 0, 1),
    makePage(11, '/about/team/', 'Our team', 10, 1),
    makePage(12, '/about/team/leaders/', 'Leaders', 11, 1),
    makePage(13, '/contact/', 'Contact', 0, 2),
    {
      ...makePage(14, '/hidden-page/', `${SECRET_MARKER} page`, 0, 3),
      status: 'private',
      html: `<p>${SECRET_MARKER}</p>`,
    },
  ];
  pages[0]!.alternates = [{ lang: other, sitePath: '/about/' }];

  return {
    lang,
    locale: lang === 'pl' ? 'pl-PL' : 'es-ES',
    site: {
      name: lang === 'pl' ? 'Strona testowa' : 'Sitio de prueba',
      description: lang === 'pl' ? 'Opis strony' : 'Descripción',
      publicUrl: `https://example.test/${lang}/`,
    },
    languages: [
      { lang: 'pl', label: 'Polski', homePath: lang === 'pl' ? './' : '../pl/' },
      { lang: 'es', label: 'Español', homePath: lang === 'es' ? './' : '../es/' },
    ],
    identity: {
      kind: 'Organization',
      name: 'Fixture Org',
      url: `https://example.test/${lang}/`,
      logo: '/media/logo.png',
      sameAs: ['https://social.example/fixture', 'javascript:alert(1)'],
    },
    posts,
    pages,
    media: [
      mediaFile('photo-0.png'),
      mediaFile('photo-1.png'),
      mediaFile('photo-2.png'),
      mediaFile('logo.png'),
      mediaFile('secret.png'),
      mediaFile('unused.png'),
    ],
  };
}
