import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callApi, getJson, startReference } from '../../helpers/reference.js';
import type { Json, ReferenceSite } from '../../helpers/reference.js';

let site: ReferenceSite;
beforeAll(async () => {
  site = await startReference();
});
afterAll(() => site.close());

const SPEC_ROUTES = [
  '/',
  '/batch/v1',
  '/oembed/1.0',
  '/oembed/1.0/embed',
  '/oembed/1.0/proxy',
  '/seo/v1',
  '/seo/v1/file_size',
  '/seo/v1/statistics',
  '/seo/v1/alerts/dismiss',
  '/seo/v1/configuration/site_representation',
  '/seo/v1/configuration/social_profiles',
  '/seo/v1/configuration/check_capability',
  '/seo/v1/configuration/enable_tracking',
  '/seo/v1/configuration/save_configuration_state',
  '/seo/v1/configuration/get_configuration_state',
  '/seo/v1/import/(?P<plugin>[\\w-]+)/(?P<type>[\\w-]+)',
  '/seo/v1/indexing/posts',
  '/seo/v1/indexing/terms',
  '/seo/v1/indexing/post-type-archives',
  '/seo/v1/indexing/general',
  '/seo/v1/indexing/prepare',
  '/seo/v1/indexing/indexables-complete',
  '/seo/v1/indexing/complete',
  '/seo/v1/link-indexing/posts',
  '/seo/v1/link-indexing/terms',
  '/seo/v1/integrations/set_active',
  '/seo/v1/meta/search',
  '/seo/v1/workouts',
  '/cms/v2',
  '/cms/v2/posts',
  '/cms/v2/posts/(?P<id>[\\d]+)',
  '/cms/v2/posts/(?P<parent>[\\d]+)/revisions',
  '/cms/v2/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)',
  '/cms/v2/posts/(?P<id>[\\d]+)/autosaves',
  '/cms/v2/posts/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)',
  '/cms/v2/pages',
  '/cms/v2/pages/(?P<id>[\\d]+)',
  '/cms/v2/pages/(?P<parent>[\\d]+)/revisions',
  '/cms/v2/pages/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)',
  '/cms/v2/pages/(?P<id>[\\d]+)/autosaves',
  '/cms/v2/pages/(?P<parent>[\\d]+)/autosaves/(?P<id>[\\d]+)',
  '/cms/v2/media',
];

describe('site index (GET /)', () => {
  it('has every field of the spec, per language', async () => {
    for (const [lang, offset] of [
      ['pl', '2'],
      ['es', '-3'],
    ] as const) {
      const { status, body } = await getJson(site, lang, '/');
      expect(status).toBe(200);
      expect(body.name).toEqual(expect.any(String));
      expect(body.description).toEqual(expect.any(String));
      expect(body.url).toBe(site.url);
      expect(body.home).toBe(`${site.url}/${lang}/`);
      expect(body.gmt_offset).toBe(offset);
      expect(body.timezone_string).toBe('');
      expect(body.page_for_posts).toEqual(expect.any(Number));
      expect(body.page_on_front).toEqual(expect.any(Number));
      expect(body.show_on_front).toEqual(expect.any(String));
      expect(body.namespaces).toEqual([
        'oembed/1.0',
        'seo/v1',
        'cms/v2',
        'cms-site-health/v1',
        'cms-block-editor/v1',
        'cms-abilities/v1',
      ]);
      expect(body.authentication['application-passwords'].endpoints.authorization).toBe(
        `${site.url}/cms-admin/authorize-application.php`,
      );
      expect(body._links.self[0].href).toBe(`${site.url}/${lang}/cms-json/`);
    }
  });

  it('differs between languages in name and front page settings', async () => {
    const pl = (await getJson(site, 'pl', '/')).body;
    const es = (await getJson(site, 'es', '/')).body;
    expect(pl.name).not.toBe(es.name);
    expect(pl.show_on_front).toBe('page');
    expect(pl.page_on_front).toBeGreaterThan(0);
    const front = await getJson(site, 'pl', `/cms/v2/pages/${pl.page_on_front}`);
    expect(front.body.link).toBe(`${site.url}/pl/`);
    expect(es.show_on_front).toBe('posts');
    expect(es.page_on_front).toBe(0);
  });

  it('answers with and without the trailing slash, and the authorization page exists', async () => {
    const bare = await fetch(`${site.url}/pl/cms-json`);
    expect(bare.status).toBe(200);
    expect(((await bare.json()) as Json).namespaces).toContain('cms/v2');
    const page = await fetch(`${site.url}/cms-admin/authorize-application.php`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
  });

  it('lists every route of the spec with namespace, methods, endpoints and links', async () => {
    const { routes } = (await getJson(site, 'pl', '/')).body;
    for (const path of SPEC_ROUTES) expect(routes, path).toHaveProperty([path]);
    const posts = routes['/cms/v2/posts'];
    expect(posts.namespace).toBe('cms/v2');
    expect(posts.methods).toEqual(['GET', 'POST']);
    expect(posts._links.self[0].href).toBe(`${site.url}/pl/cms-json/cms/v2/posts`);
    expect(routes['/cms/v2/posts/(?P<id>[\\d]+)'].methods).toEqual([
      'GET',
      'POST',
      'PUT',
      'PATCH',
      'DELETE',
    ]);
    expect(routes['/cms/v2/posts/(?P<id>[\\d]+)']._links).toBeUndefined();
    expect(routes['/seo/v1/workouts'].methods).toEqual(['GET', 'POST']);
    expect(routes['/batch/v1'].methods).toEqual(['POST']);
  });

  it('describes arguments with type, default, range, enum, format, items and required', async () => {
    const { routes } = (await getJson(site, 'pl', '/')).body;
    const list = routes['/cms/v2/posts'].endpoints[0].args;
    expect(list.per_page).toMatchObject({
      type: 'integer',
      default: 10,
      minimum: 1,
      maximum: 100,
      required: false,
    });
    expect(list.page).toMatchObject({ type: 'integer', default: 1, minimum: 1 });
    expect(list.context).toMatchObject({
      type: 'string',
      default: 'view',
      enum: ['view', 'embed', 'edit'],
    });
    expect(list.order).toMatchObject({ default: 'desc', enum: ['asc', 'desc'] });
    expect(list.orderby.enum).toEqual([
      'author',
      'date',
      'id',
      'include',
      'modified',
      'parent',
      'relevance',
      'slug',
      'include_slugs',
      'title',
    ]);
    expect(list.modified_after).toMatchObject({ type: 'string', format: 'date-time' });
    expect(list.status).toMatchObject({ type: 'array', default: 'publish' });
    expect(list.status.items.enum).toContain('request-completed');
    expect(list.author).toMatchObject({ type: 'array', items: { type: 'integer' }, default: [] });
    expect(list.categories.type).toEqual(['object', 'array']);
    expect(list.categories.oneOf[1].properties.operator).toMatchObject({
      enum: ['AND', 'OR'],
      default: 'OR',
    });
    expect(list.ignore_sticky).toMatchObject({ type: 'boolean', default: true });
    expect(list.format).toMatchObject({ type: 'array', uniqueItems: true });
    const pages = routes['/cms/v2/pages'].endpoints[0].args;
    expect(pages.orderby.enum).toContain('menu_order');
    expect(pages).toHaveProperty('parent');
    expect(pages).not.toHaveProperty('categories');
    const media = routes['/cms/v2/media'].endpoints[0].args;
    expect(media.status).toMatchObject({
      default: 'inherit',
      items: { enum: ['inherit', 'private', 'trash'] },
    });
    expect(media.media_type.items.enum).toEqual(['image', 'video', 'text', 'application', 'audio']);
    const create = routes['/cms/v2/posts'].endpoints[1].args;
    expect(create.status).toMatchObject({
      type: 'string',
      enum: ['publish', 'future', 'draft', 'pending', 'private'],
    });
    expect(create.title.properties.raw.context).toEqual(['edit']);
    expect(create).not.toHaveProperty('id');
    expect(create).not.toHaveProperty('link');
    const batch = routes['/batch/v1'].endpoints[0].args;
    expect(batch.requests).toMatchObject({ type: 'array', maxItems: 25, required: true });
    expect(batch.validation).toMatchObject({
      enum: ['require-all-validate', 'normal'],
      default: 'normal',
    });
    const proxy = routes['/oembed/1.0/proxy'].endpoints[0].args;
    expect(proxy.url).toMatchObject({ type: 'string', format: 'uri', required: true });
    expect(proxy.maxwidth).toMatchObject({ type: 'integer', default: 600 });
    expect(proxy.discover).toMatchObject({ type: 'boolean', default: true });
    const revisions = routes['/cms/v2/posts/(?P<parent>[\\d]+)/revisions'].endpoints[0].args;
    expect(revisions.per_page).toMatchObject({ minimum: 1, maximum: 100 });
    expect(revisions.per_page).not.toHaveProperty('default');
  });

  it('marks allow_batch exactly on the endpoints the spec names', async () => {
    const { routes } = (await getJson(site, 'es', '/')).body;
    const marked: string[] = [];
    for (const [path, route] of Object.entries<Json>(routes)) {
      for (const endpoint of route.endpoints) {
        if (endpoint.allow_batch !== undefined) {
          expect(endpoint.allow_batch).toEqual({ v1: true });
          marked.push(`${endpoint.methods.join(',')} ${path}`);
        }
      }
    }
    expect(marked.sort()).toEqual(
      [
        'GET /cms/v2/posts',
        'POST /cms/v2/posts',
        'GET /cms/v2/posts/(?P<id>[\\d]+)',
        'POST,PUT,PATCH /cms/v2/posts/(?P<id>[\\d]+)',
        'DELETE /cms/v2/posts/(?P<id>[\\d]+)',
        'GET /cms/v2/pages',
        'POST /cms/v2/pages',
        'GET /cms/v2/pages/(?P<id>[\\d]+)',
        'POST,PUT,PATCH /cms/v2/pages/(?P<id>[\\d]+)',
        'DELETE /cms/v2/pages/(?P<id>[\\d]+)',
      ].sort(),
    );
  });

  it('describes arguments in Polish under pl and in Spanish under es', async () => {
    const pl = (await getJson(site, 'pl', '/')).body.routes;
    const es = (await getJson(site, 'es', '/')).body.routes;
    expect(pl['/cms/v2/posts'].endpoints[0].args.per_page.description).toBe(
      'Maksymalna liczba elementów zwracanych w wyniku.',
    );
    expect(es['/cms/v2/posts'].endpoints[0].args.per_page.description).toBe(
      'Número máximo de elementos que se devolverán en el conjunto de resultados.',
    );
    let compared = 0;
    for (const [path, route] of Object.entries<Json>(pl)) {
      route.endpoints.forEach((endpoint: Json, index: number) => {
        for (const [name, arg] of Object.entries<Json>(endpoint.args)) {
          const other = es[path].endpoints[index].args[name];
          if (arg.description === undefined) continue;
          expect(arg.description, `${path} ${name}`).not.toBe(other.description);
          compared++;
        }
      });
    }
    expect(compared).toBeGreaterThan(200);
  });

  it('validates requests with the same table it publishes (enum, maximum)', async () => {
    const args = (await getJson(site, 'pl', '/')).body.routes['/cms/v2/posts'].endpoints[0].args;
    for (const [name, arg] of Object.entries<Json>(args)) {
      if (arg.type === 'string' && Array.isArray(arg.enum)) {
        const response = await getJson(site, 'pl', '/cms/v2/posts', {
          query: { [name]: 'not-a-value' },
        });
        expect(response.status, name).toBe(400);
        expect(response.body.data.details[name].code, name).toBe('rest_not_in_enum');
      }
      if (typeof arg.maximum === 'number') {
        const response = await getJson(site, 'pl', '/cms/v2/posts', {
          query: { [name]: arg.maximum + 1 },
        });
        expect(response.body.data.details[name].code, name).toBe('rest_out_of_bounds');
      }
    }
  });

  it('serves namespace indexes with only their own routes', async () => {
    const cms = await getJson(site, 'pl', '/cms/v2');
    expect(cms.status).toBe(200);
    expect(cms.body.namespace).toBe('cms/v2');
    const paths = Object.keys(cms.body.routes);
    expect(paths).toContain('/cms/v2/posts');
    expect(paths.every((path) => path.startsWith('/cms/v2'))).toBe(true);
    const seo = await getJson(site, 'es', '/seo/v1');
    expect(Object.keys(seo.body.routes)).toContain('/seo/v1/statistics');
    const oembed = await getJson(site, 'es', '/oembed/1.0');
    expect(Object.keys(oembed.body.routes)).toEqual([
      '/oembed/1.0',
      '/oembed/1.0/embed',
      '/oembed/1.0/proxy',
    ]);
    const health = await getJson(site, 'es', '/cms-site-health/v1');
    expect(health.body.namespace).toBe('cms-site-health/v1');
  });

  it('answers unknown routes, methods and languages with spec-shaped errors', async () => {
    const unknown = await getJson(site, 'pl', '/cms/v2/nothing');
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({
      code: 'rest_no_route',
      message: 'No route was found matching the URL and request method.',
      data: { status: 404 },
    });
    const wrongMethod = await callApi(site, 'pl', '/cms/v2/media', { method: 'DELETE' });
    expect(wrongMethod.status).toBe(404);
    expect(wrongMethod.body.code).toBe('rest_no_route');
    const badId = await getJson(site, 'pl', '/cms/v2/posts/abc');
    expect(badId.body.code).toBe('rest_no_route');
    const options = await callApi(site, 'pl', '/cms/v2/posts', { method: 'OPTIONS' });
    expect(options.body.code).toBe('rest_no_route');
    const otherLanguage = await fetch(`${site.url}/de/cms-json/`);
    expect(otherLanguage.status).toBe(404);
  });
});
