import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { StoreError } from '../../../src/errors.js';
import { sourceSiteOf } from '../../../src/migrate/source.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

/**
 * What a migration takes from the source cache about the source site: its address and
 * language home (to rewrite links) and its seo/v1 settings (to copy), from `site_info` as a
 * pull stores it, or, in a cache without it, from the items' own links.
 */
describe('sourceSiteOf (the source site, from its cache)', () => {
  let temp: TempCache;
  let store: Store;
  beforeEach(() => {
    temp = tempCache();
    store = openStore(temp.file);
  });
  afterEach(() => {
    store.close();
    temp.cleanup();
  });

  const put = (lang: string, type: 'posts' | 'pages' | 'media', id: number, link: unknown) =>
    store.items.upsertPage(
      lang,
      type,
      [{ id, slug: `item-${id}`, status: 'publish', ...(link === undefined ? {} : { link }) }],
      { context: 'edit' },
    );

  const representation = { company_or_person: 'company', company_name: 'Acme' };
  const social = { facebook_site: 'https://fb.test/acme', other_social_urls: ['https://x.test'] };

  it('takes the address (without trailing slashes), the home and the seo settings from site_info', () => {
    store.siteInfo.set('pl', {
      url: 'https://source.test//',
      home: 'https://source.test/start-pl/',
      name: 'Source',
      description: null,
      seo: { site_representation: representation, social_profiles: social },
    });
    // Item links are only a fallback: site_info wins.
    put('pl', 'posts', 1, 'https://elsewhere.test/blog/pl/item-1/');
    expect(sourceSiteOf(store, 'pl')).toEqual({
      url: 'https://source.test',
      home: 'https://source.test/start-pl/',
      seo: { siteRepresentation: representation, socialProfiles: social },
    });
  });

  it('finds the address one level down, and the settings up to three levels down', () => {
    const deep = { facebook_site: 'https://fb.test/deep' };
    store.siteInfo.set('pl', {
      // Skipped on the way: a text, a list, an empty address, an address that is no text.
      name: 'Site',
      list: ['https://wrong.test'],
      empty: { url: '' },
      numbered: { url: 5, home: 7 },
      index: { name: 'x', url: 'https://nested.test' },
      site: { home: 'https://nested.test/start/' },
      seo: { data: { state: deep } },
      other: { a: { b: { c: { company_or_person: 'person' } } } },
    });
    expect(sourceSiteOf(store, 'pl')).toEqual({
      url: 'https://nested.test',
      home: 'https://nested.test/start/',
      // `deep` is three levels under the document; the representation is four (too deep).
      seo: { siteRepresentation: undefined, socialProfiles: deep },
    });
  });

  it('prefers the social profiles object that has other_social_urls', () => {
    const facebookOnly = { facebook_site: 'https://fb.test/first' };
    store.siteInfo.set('pl', {
      url: 'https://source.test',
      home: 'https://source.test/pl/',
      a: facebookOnly,
      b: social,
    });
    expect(sourceSiteOf(store, 'pl').seo.socialProfiles).toEqual(social);
  });

  it('reads no settings from a list or a string', () => {
    store.siteInfo.set('pl', {
      url: 'https://source.test',
      home: 'https://source.test/pl/',
      list: [representation],
      text: 'company_or_person',
    });
    expect(sourceSiteOf(store, 'pl').seo).toEqual({
      siteRepresentation: undefined,
      socialProfiles: undefined,
    });
  });

  it('gives the language home under the address when site_info has no home and no item a link', () => {
    store.siteInfo.set('pl', { url: 'https://source.test/', home: '' });
    expect(sourceSiteOf(store, 'pl')).toMatchObject({
      url: 'https://source.test',
      home: 'https://source.test/pl/',
    });
  });

  it('takes the home from the items when site_info has only the address', () => {
    store.siteInfo.set('pl', { url: 'https://source.test' });
    put('pl', 'posts', 1, 'https://elsewhere.test/blog/pl/item-1/');
    expect(sourceSiteOf(store, 'pl')).toMatchObject({
      url: 'https://source.test',
      home: 'https://elsewhere.test/blog/pl/',
    });
  });

  it('takes the address from the items when site_info has only the home', () => {
    store.siteInfo.set('pl', { home: 'https://source.test/start/' });
    put('pl', 'pages', 1, 'https://source.test/sub/pl/item-1/');
    expect(sourceSiteOf(store, 'pl')).toMatchObject({
      url: 'https://source.test/sub',
      home: 'https://source.test/start/',
    });
  });

  it('takes the address and home from the first item with a link in a cache without site_info', () => {
    put('en', 'posts', 1, 'https://other-lang.test/en/item-1/');
    put('pl', 'posts', 2, null);
    put('pl', 'pages', 3, 'https://source.test/sub/dir/pl/item-3/');
    put('pl', 'media', 4, 'https://media.test/pl/item-4/');
    expect(sourceSiteOf(store, 'pl')).toEqual({
      url: 'https://source.test/sub/dir',
      home: 'https://source.test/sub/dir/pl/',
      seo: { siteRepresentation: undefined, socialProfiles: undefined },
    });
  });

  it('takes the origin when an item link has no language segment', () => {
    put('pl', 'posts', 1, 'https://source.test/item-1/');
    expect(sourceSiteOf(store, 'pl')).toMatchObject({
      url: 'https://source.test',
      home: 'https://source.test/pl/',
    });
  });

  it('refuses a cache that knows no address for the language, naming the file and language', () => {
    put('en', 'posts', 1, 'https://source.test/en/item-1/');
    store.siteInfo.set('pl', { name: 'no address', url: '' });
    const attempt = () => sourceSiteOf(store, 'pl');
    expect(attempt).toThrow(StoreError);
    expect(attempt).toThrow(
      `${temp.file} has no site address for "pl" (no site_info and no item links): pull that language into it first`,
    );
  });
});
