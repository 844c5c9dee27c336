import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, getJson, startReference } from '../../helpers/reference.js';
import type { Json, ReferenceSite } from '../../helpers/reference.js';

let site: ReferenceSite;
beforeEach(async () => {
  site = await startReference();
});
afterEach(() => site.close());

describe('oEmbed', () => {
  it('embeds the site’s own published content as rich HTML, sized by maxwidth', async () => {
    const [post] = (await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 1 } })).body;
    const response = await getJson(site, 'pl', '/oembed/1.0/embed', { query: { url: post.link } });
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({
      version: '1.0',
      type: 'rich',
      title: post.title.rendered,
      width: 600,
      height: 338,
    });
    expect(response.body.html).toContain(`<a href="${post.link}">`);
    const narrow = await getJson(site, 'pl', '/oembed/1.0/embed', {
      query: { url: post.link, maxwidth: 100 },
    });
    expect(narrow.body.width).toBe(200);
    const byId = await getJson(site, 'pl', '/oembed/1.0/embed', {
      query: { url: `${site.url}/pl/?p=${post.id}` },
    });
    expect(byId.body.title).toBe(post.title.rendered);
    const xml = await fetch(
      `${site.url}/pl/cms-json/oembed/1.0/embed?format=xml&url=${encodeURIComponent(post.link)}`,
    );
    expect(xml.headers.get('content-type')).toContain('text/xml');
    expect(await xml.text()).toMatch(/^<\?xml version="1.0"\?>\n<oembed><version>1.0<\/version>/);
  });

  it('answers 404 oembed_invalid_url for unknown, unpublished and external URLs, and requires url', async () => {
    const drafts = (
      await getJson(site, 'pl', '/cms/v2/posts', { query: { status: 'draft' }, auth: true })
    ).body;
    for (const url of [
      `${site.url}/pl/2020/01/nothing/`,
      drafts[0].link,
      'https://www.youtube.com/watch?v=abcdefghijk',
      'not a url',
    ]) {
      const response = await getJson(site, 'pl', '/oembed/1.0/embed', { query: { url } });
      expect(response.status, url).toBe(404);
      expect(response.body).toEqual({
        code: 'oembed_invalid_url',
        message: 'Not Found',
        data: { status: 404 },
      });
    }
    const missing = await getJson(site, 'pl', '/oembed/1.0/embed');
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({
      code: 'rest_missing_callback_param',
      message: 'Missing parameter(s): url',
      data: { status: 400, params: ['url'] },
    });
  });

  it('proxies well-known providers locally for editors and 404s the rest', async () => {
    const youtube = await getJson(site, 'es', '/oembed/1.0/proxy', {
      query: { url: 'https://www.youtube.com/watch?v=dQw4w9WgXcQ', maxwidth: 320 },
      auth: true,
    });
    expect(youtube.status).toBe(200);
    expect(youtube.body).toMatchObject({
      type: 'video',
      provider_name: 'YouTube',
      width: 320,
      height: 180,
    });
    expect(youtube.body.html).toContain('https://www.youtube.com/embed/dQw4w9WgXcQ');
    const short = await getJson(site, 'es', '/oembed/1.0/proxy', {
      query: { url: 'https://youtu.be/dQw4w9WgXcQ', maxheight: 90 },
      auth: true,
    });
    expect(short.body.height).toBe(90);
    const vimeo = await getJson(site, 'es', '/oembed/1.0/proxy', {
      query: { url: 'https://vimeo.com/76979871' },
      auth: true,
    });
    expect(vimeo.body.provider_name).toBe('Vimeo');
    const x = await getJson(site, 'es', '/oembed/1.0/proxy', {
      query: { url: 'https://x.com/someone/status/123456' },
      auth: true,
    });
    expect(x.body).toMatchObject({ type: 'rich', cache_age: '3153600000' });
    expect(x.body.html).toContain('<script');
    const [page] = (await getJson(site, 'es', '/cms/v2/pages', { query: { per_page: 1 } })).body;
    const own = await getJson(site, 'es', '/oembed/1.0/proxy', {
      query: { url: page.link },
      auth: true,
    });
    expect(own.body.type).toBe('rich');
    const unknown = await getJson(site, 'es', '/oembed/1.0/proxy', {
      query: { url: 'https://example.org/video/1' },
      auth: true,
    });
    expect(unknown.status).toBe(404);
    expect(unknown.body.code).toBe('oembed_invalid_url');
    const badFormat = await getJson(site, 'es', '/oembed/1.0/proxy', {
      query: { url: page.link, format: 'yaml' },
      auth: true,
    });
    expect(badFormat.body.data.details.format.code).toBe('rest_not_in_enum');
  });

  it('leaves the embeddable URLs of content unresolved (the client resolves them)', async () => {
    const posts = (await getJson(site, 'es', '/cms/v2/posts', { query: { per_page: 30 } })).body;
    const html = posts.map((post: Json) => post.content.rendered).join('\n');
    const urls = [...html.matchAll(/(?:<p>|__wrapper">\n)(https:\/\/[^<\n]+)/g)].map(
      (m) => m[1] as string,
    );
    expect(urls.length).toBeGreaterThan(3);
    for (const url of urls) {
      const response = await getJson(site, 'es', '/oembed/1.0/proxy', {
        query: { url },
        auth: true,
      });
      expect(response.status, url).toBe(200);
    }
  });
});

describe('seo/v1', () => {
  const seo = (method: string, path: string, body?: Json, lang = 'pl'): Promise<Json> =>
    callApi(site, lang, `/seo/v1${path}`, { method, auth: true, body });

  it('returns and saves the configuration state', async () => {
    const initial = await seo('GET', '/configuration/get_configuration_state');
    expect(initial.status).toBe(200);
    expect(initial.body.success).toBe(true);
    expect(initial.body.data.finishedSteps).toEqual([]);
    expect(initial.body.data.site_representation).toMatchObject({
      company_or_person: 'company',
      company_name: expect.any(String),
    });
    expect(initial.body.data.site_representation.company_logo_id).toBeGreaterThan(0);
    expect(initial.body.data.social_profiles.facebook_site).toMatch(/^https:\/\//);
    const esState = await seo('GET', '/configuration/get_configuration_state', undefined, 'es');
    expect(esState.body.data.site_representation.company_or_person).toBe('person');
    expect(
      (await seo('POST', '/configuration/save_configuration_state', { finishedSteps: ['a', 'b'] }))
        .body.success,
    ).toBe(true);
    expect((await seo('POST', '/configuration/save_configuration_state', {})).body.code).toBe(
      'rest_missing_callback_param',
    );
    expect(
      (await seo('POST', '/configuration/save_configuration_state', { finishedSteps: 'x' })).status,
    ).toBe(200);
    expect(
      (await seo('POST', '/configuration/enable_tracking', { tracking: 'yes' })).body.code,
    ).toBe('rest_invalid_param');
    expect(
      (await seo('POST', '/configuration/enable_tracking', { tracking: true })).body.success,
    ).toBe(true);
    await seo('POST', '/configuration/save_configuration_state', { finishedSteps: ['a', 'b'] });
    const saved = await seo('GET', '/configuration/get_configuration_state');
    expect(saved.body.data.finishedSteps).toEqual(['a', 'b']);
    expect(
      (await seo('GET', '/configuration/get_configuration_state', undefined, 'es')).body.data
        .finishedSteps,
    ).toEqual([]);
  });

  it('changes the site representation and social profiles, reflected in seo_head_json', async () => {
    const changed = await seo('POST', '/configuration/site_representation', {
      company_or_person: 'person',
      company_or_person_user_id: 2,
      description: 'Nowy opis',
    });
    expect(changed.body.success).toBe(true);
    const social = await seo('POST', '/configuration/social_profiles', {
      facebook_site: 'https://www.facebook.com/nowy',
      twitter_site: '@nowy_profil',
      other_social_urls: ['https://mastodon.example/@nowy'],
    });
    expect(social.body.success).toBe(true);
    const [post] = (await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 1 } })).body;
    const person = post.seo_head_json.schema['@graph'][2];
    expect(person['@type']).toEqual(['Person', 'Organization']);
    expect(person.name).toBe('Second Editor');
    expect(person.description).toBe('Nowy opis');
    expect(person.sameAs).toEqual([
      'https://www.facebook.com/nowy',
      'https://x.com/nowy_profil',
      'https://mastodon.example/@nowy',
    ]);
    const state = (await seo('GET', '/configuration/get_configuration_state')).body.data;
    expect(state.social_profiles.twitter_site).toBe('nowy_profil');
    const invalid = await seo('POST', '/configuration/social_profiles', {
      facebook_site: 'not a url',
      other_social_urls: ['ftp://x'],
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.data.failures).toEqual(['facebook_site', 'other_social_urls[0]']);
    expect(
      (await seo('GET', '/configuration/get_configuration_state')).body.data.social_profiles
        .facebook_site,
    ).toBe('https://www.facebook.com/nowy');
    expect(
      (await seo('POST', '/configuration/site_representation', { company_name: 'x' })).body.code,
    ).toBe('rest_missing_callback_param');
    expect(
      (await seo('POST', '/configuration/site_representation', { company_or_person: 'robot' })).body
        .code,
    ).toBe('rest_invalid_param');
    expect(
      (
        await seo('POST', '/configuration/site_representation', {
          company_or_person: 'company',
          company_logo_id: 999999,
        })
      ).status,
    ).toBe(400);
  });

  it('indexes content in chunks with progress, and an edit un-indexes an item', async () => {
    await seo('POST', '/indexing/prepare');
    let calls = 0;
    let objects = 0;
    let next: string | false = '';
    while (next !== false) {
      const response = await seo('POST', '/indexing/posts');
      expect(response.status).toBe(200);
      objects += response.body.objects.length;
      next = response.body.next_url;
      if (next !== false) expect(next).toBe(`${site.url}/pl/cms-json/seo/v1/indexing/posts`);
      calls++;
      expect(calls).toBeLessThan(10);
    }
    const stats = (await seo('GET', '/statistics')).body;
    expect(stats.indexing.indexed).toBe(objects);
    expect(stats.indexing.total).toBe(objects);
    expect(calls).toBe(Math.ceil(objects / 25));
    const [post] = (await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 1 } })).body;
    await callApi(site, 'pl', `/cms/v2/posts/${post.id}`, {
      method: 'POST',
      auth: true,
      body: { title: 'Zmiana' },
    });
    const after = await seo('POST', '/indexing/posts');
    expect(after.body.objects.map((object: Json) => object.object_id)).toEqual([post.id]);
    expect(after.body.next_url).toBe(false);
    for (const path of [
      '/indexing/terms',
      '/indexing/post-type-archives',
      '/indexing/general',
      '/link-indexing/posts',
      '/link-indexing/terms',
    ]) {
      expect((await seo('POST', path)).status, path).toBe(200);
    }
    expect((await seo('POST', '/indexing/general')).body.objects).toEqual([]);
    expect((await seo('POST', '/indexing/indexables-complete')).body.success).toBe(true);
    expect((await seo('POST', '/indexing/complete')).body.complete).toBe(true);
  });

  it('computes statistics from the content', async () => {
    const stats = (await seo('GET', '/statistics', undefined, 'es')).body;
    const published = (await getJson(site, 'es', '/cms/v2/posts')).headers.get('x-cms-total');
    expect(stats.totals.posts.publish).toBe(Number(published));
    expect(stats.totals.media).toBe(6);
    expect(stats.statistics.map((entry: Json) => entry.seo_rank)).toEqual(['good', 'ok', 'bad']);
    expect(stats.totals.internal_links).toBeGreaterThan(0);
    await callApi(site, 'es', '/cms/v2/posts', {
      method: 'POST',
      auth: true,
      body: { title: 'Más', status: 'publish' },
    });
    const after = (await seo('GET', '/statistics', undefined, 'es')).body;
    expect(after.totals.posts.publish).toBe(Number(published) + 1);
  });

  it('answers the remaining routes plausibly and validates their parameters', async () => {
    const [media] = (
      await getJson(site, 'pl', '/cms/v2/media', { query: { per_page: 1, media_type: 'image' } })
    ).body;
    const size = await seo('GET', `/file_size?url=${encodeURIComponent(media.source_url)}`);
    expect(size.body).toEqual({ type: 'success', size_in_bytes: media.media_details.filesize });
    expect((await seo('GET', '/file_size?url=https://elsewhere.invalid/x.png')).status).toBe(404);
    expect((await seo('GET', '/file_size')).body.code).toBe('rest_missing_callback_param');
    expect((await seo('POST', '/alerts/dismiss', { key: 'welcome' })).body.dismissed).toEqual([
      'welcome',
    ]);
    expect((await seo('GET', '/configuration/check_capability?user_id=2')).body.capable).toBe(true);
    expect((await seo('GET', '/configuration/check_capability?user_id=9')).body.capable).toBe(
      false,
    );
    expect(
      (await seo('POST', '/integrations/set_active', { active: false, integration: 'semrush' }))
        .body.integrations,
    ).toEqual({ semrush: false });
    expect((await seo('POST', '/integrations/set_active', { active: true })).body.code).toBe(
      'rest_missing_callback_param',
    );
    expect((await seo('GET', '/meta/search')).body.meta.robots.index).toBe('noindex');
    expect(
      (await seo('POST', '/workouts', { workouts: { cornerstone: { finishedSteps: [1] } } })).body
        .success,
    ).toBe(true);
    expect((await seo('GET', '/workouts')).body.workouts).toEqual({
      cornerstone: { finishedSteps: [1] },
    });
    expect((await seo('POST', '/import/aioseo/posts')).body).toEqual({
      objects: [],
      next_url: false,
    });
    expect((await seo('POST', '/import/other/posts')).status).toBe(404);
    expect((await seo('POST', '/import/bad!/posts')).body.code).toBe('rest_no_route');
    expect((await seo('GET', '/indexing/posts')).body.code).toBe('rest_no_route');
  });
});
