import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceSite } from '../../../src/reference/index.js';
import { callUrl, getJson, shiftDate, startReference } from '../../helpers/reference.js';
import type { Json, ReferenceSite } from '../../helpers/reference.js';

let site: ReferenceSite;
beforeAll(async () => {
  site = await startReference({ posts: 60 });
});
afterAll(() => site.close());

const ids = (body: Json): number[] => body.map((item: Json) => item.id);

async function allPosts(
  lang: string,
  extra: Record<string, string | number> = {},
): Promise<Json[]> {
  const { body } = await getJson(site, lang, '/cms/v2/posts', {
    query: { per_page: 100, ...extra },
    auth: true,
  });
  return body;
}

describe('pagination', () => {
  it('defaults to 10 published posts, newest first, with totals and Link headers', async () => {
    const { status, headers, body } = await getJson(site, 'pl', '/cms/v2/posts');
    expect(status).toBe(200);
    expect(body).toHaveLength(10);
    expect(body.every((post: Json) => post.status === 'publish')).toBe(true);
    const dates = body.map((post: Json) => post.date_gmt);
    expect([...dates].sort().reverse()).toEqual(dates);
    const total = Number(headers.get('x-cms-total'));
    const all = (await allPosts('pl', { status: 'publish' })).length;
    expect(total).toBe(all);
    expect(Number(headers.get('x-cms-totalpages'))).toBe(Math.ceil(total / 10));
    expect(headers.get('link')).toBe(`<${site.url}/pl/cms-json/cms/v2/posts?page=2>; rel="next"`);
  });

  it('carries prev and next on middle pages and keeps the query in the links', async () => {
    const { headers } = await getJson(site, 'es', '/cms/v2/posts', {
      query: { per_page: 5, page: 2, orderby: 'id' },
    });
    expect(headers.get('link')).toBe(
      `<${site.url}/es/cms-json/cms/v2/posts?per_page=5&page=1&orderby=id>; rel="prev", ` +
        `<${site.url}/es/cms-json/cms/v2/posts?per_page=5&page=3&orderby=id>; rel="next"`,
    );
    const pages = Number(headers.get('x-cms-totalpages'));
    const last = await getJson(site, 'es', '/cms/v2/posts', {
      query: { per_page: 5, page: pages },
    });
    expect(last.headers.get('link')).toMatch(/rel="prev"$/);
    expect(last.headers.get('link')).not.toContain('rel="next"');
  });

  it('answers HEAD with the same headers and no body', async () => {
    const url = `${site.url}/pl/cms-json/cms/v2/posts?per_page=3`;
    const head = await fetch(url, { method: 'HEAD' });
    const get = await fetch(url);
    expect(head.status).toBe(200);
    expect(head.headers.get('x-cms-total')).toBe(get.headers.get('x-cms-total'));
    expect(head.headers.get('x-cms-totalpages')).toBe(get.headers.get('x-cms-totalpages'));
    expect(head.headers.get('link')).toBe(get.headers.get('link'));
    expect(await head.text()).toBe('');
  });

  it('rejects a page past the last, and out-of-range or mistyped page and per_page', async () => {
    const { headers } = await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 100 } });
    const past = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { per_page: 100, page: Number(headers.get('x-cms-totalpages')) + 1 },
    });
    expect(past.status).toBe(400);
    expect(past.body.code).toBe('rest_post_invalid_page_number');
    const cases: [Record<string, string | number>, string, string][] = [
      [{ per_page: 101 }, 'per_page', 'rest_out_of_bounds'],
      [{ per_page: 0 }, 'per_page', 'rest_out_of_bounds'],
      [{ page: 0 }, 'page', 'rest_out_of_bounds'],
      [{ per_page: 'many' }, 'per_page', 'rest_invalid_type'],
      [{ page: '1.5' }, 'page', 'rest_invalid_type'],
      [{ offset: 'x' }, 'offset', 'rest_invalid_type'],
      [{ after: 'yesterday' }, 'after', 'rest_invalid_date'],
      [{ modified_after: '2024-13-01T00:00:00' }, 'modified_after', 'rest_invalid_date'],
      [{ orderby: 'random' }, 'orderby', 'rest_not_in_enum'],
      [{ order: 'up' }, 'order', 'rest_not_in_enum'],
      [{ sticky: 'maybe' }, 'sticky', 'rest_invalid_type'],
      [{ include: 'a,b' }, 'include', 'rest_invalid_type'],
      [{ format: 'video,video' }, 'format', 'rest_duplicate_items'],
    ];
    for (const [query, param, code] of cases) {
      const response = await getJson(site, 'pl', '/cms/v2/posts', { query });
      expect(response.status, JSON.stringify(query)).toBe(400);
      expect(response.body.code).toBe('rest_invalid_param');
      expect(response.body.message).toBe(`Invalid parameter(s): ${param}`);
      expect(response.body.data.details[param].code, JSON.stringify(query)).toBe(code);
      expect(response.body.data.params[param]).toEqual(expect.any(String));
    }
    const observed = await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 101 } });
    expect(observed.body).toEqual({
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): per_page',
      data: {
        status: 400,
        params: { per_page: 'per_page must be between 1 (inclusive) and 100 (inclusive)' },
        details: {
          per_page: {
            code: 'rest_out_of_bounds',
            message: 'per_page must be between 1 (inclusive) and 100 (inclusive)',
            data: null,
          },
        },
      },
    });
  });

  it('coerces query strings and skips with offset', async () => {
    const all = ids(await allPosts('pl', { orderby: 'id', order: 'asc' }));
    const offset = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { offset: 3, per_page: '4', orderby: 'id', order: 'asc' },
      auth: true,
    });
    expect(ids(offset.body)).toEqual(all.slice(3, 7));
  });
});

describe('status filtering and permissions', () => {
  it('refuses other statuses to anonymous readers with rest_forbidden_status', async () => {
    const response = await getJson(site, 'pl', '/cms/v2/posts', { query: { status: 'draft' } });
    expect(response.status).toBe(400);
    expect(response.body.data.details.status).toEqual({
      code: 'rest_forbidden_status',
      message: 'Status is forbidden.',
      data: { status: 401 },
    });
  });

  it('lets editors list drafts, several statuses and any', async () => {
    const drafts = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { status: 'draft' },
      auth: true,
    });
    expect(drafts.status).toBe(200);
    expect(drafts.body.length).toBeGreaterThan(0);
    expect(drafts.body.every((post: Json) => post.status === 'draft')).toBe(true);
    const several = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { status: ['draft', 'private'], per_page: 100 },
      auth: true,
    });
    expect(new Set(several.body.map((post: Json) => post.status))).toEqual(
      new Set(['draft', 'private']),
    );
    const any = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { status: 'any', per_page: 100 },
      auth: true,
    });
    const statuses = new Set(any.body.map((post: Json) => post.status));
    for (const status of ['publish', 'draft', 'pending', 'private', 'future'])
      expect(statuses).toContain(status);
    expect(statuses).not.toContain('trash');
    const trash = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { status: 'trash' },
      auth: true,
    });
    expect(trash.body.length).toBe(1);
  });

  it('decides fields by context and needs credentials for edit', async () => {
    const view = (await getJson(site, 'es', '/cms/v2/posts', { query: { per_page: 1 } })).body[0];
    expect(view.title).toEqual({ rendered: expect.any(String) });
    expect(view.content).toHaveProperty('rendered');
    expect(view.content).not.toHaveProperty('raw');
    expect(view).not.toHaveProperty('password');
    expect(view).toHaveProperty('seo_head_json');
    const embed = (
      await getJson(site, 'es', '/cms/v2/posts', { query: { per_page: 1, context: 'embed' } })
    ).body[0];
    expect(Object.keys(embed).sort()).toEqual([
      '_links',
      'author',
      'date',
      'excerpt',
      'featured_media',
      'id',
      'link',
      'slug',
      'title',
      'type',
    ]);
    const anonymous = await getJson(site, 'es', '/cms/v2/posts', { query: { context: 'edit' } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body.code).toBe('rest_forbidden_context');
    const edit = (
      await getJson(site, 'es', '/cms/v2/posts', {
        query: { per_page: 1, context: 'edit' },
        auth: true,
      })
    ).body[0];
    expect(edit.title.raw).toEqual(expect.any(String));
    expect(edit.content.raw).toContain('<!-- cms:');
    expect(edit.content.block_version).toBe(1);
    expect(edit).toHaveProperty('password');
    expect(edit).toHaveProperty('permalink_template');
  });
});

describe('filters', () => {
  it('searches words, columns and exact phrases', async () => {
    const { body } = await getJson(site, 'pl', '/cms/v2/posts', { query: { search: 'pierogi' } });
    expect(body.length).toBeGreaterThan(0);
    expect(body[0].title.rendered.toLowerCase()).toContain('pierogi');
    const none = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { search: 'pierogi', search_columns: 'post_excerpt' },
    });
    expect(none.body).toEqual([]);
    const exact = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { search: 'na pierogi', search_semantics: 'exact' },
    });
    expect(exact.body.map((post: Json) => post.title.rendered)).toEqual([
      'Przepis na pierogi ruskie',
    ]);
    const words = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { search: 'pierogi przepis' },
    });
    expect(words.body.length).toBe(1);
    const relevance = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { search: 'pierogi', orderby: 'relevance' },
    });
    expect(relevance.body[0].title.rendered).toBe('Przepis na pierogi ruskie');
    const noSearch = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { orderby: 'relevance' },
    });
    expect(noSearch.body.code).toBe('rest_no_search_term_defined');
  });

  it('filters by include, exclude, slug and author and orders by include', async () => {
    const all = await allPosts('es', { status: 'publish' });
    const [a, b, c] = all as [Json, Json, Json];
    const include = await getJson(site, 'es', '/cms/v2/posts', {
      query: { include: `${c.id},${a.id}`, orderby: 'include' },
    });
    expect(ids(include.body)).toEqual([c.id, a.id]);
    const bracketed = await getJson(site, 'es', '/cms/v2/posts', {
      query: { include: [a.id, b.id] },
    });
    expect(ids(bracketed.body).sort()).toEqual([a.id, b.id].sort());
    const exclude = await getJson(site, 'es', '/cms/v2/posts', {
      query: { exclude: a.id, per_page: 100 },
    });
    expect(ids(exclude.body)).not.toContain(a.id);
    expect(exclude.body.length).toBe(all.length - 1);
    const slug = await getJson(site, 'es', '/cms/v2/posts', {
      query: { slug: `${b.slug},${a.slug}`, orderby: 'include_slugs' },
    });
    expect(ids(slug.body)).toEqual([b.id, a.id]);
    const byAuthor = await getJson(site, 'es', '/cms/v2/posts', {
      query: { author: 2, per_page: 100 },
    });
    expect(byAuthor.body.length).toBeGreaterThan(0);
    expect(byAuthor.body.every((post: Json) => post.author === 2)).toBe(true);
    const notAuthor = await getJson(site, 'es', '/cms/v2/posts', {
      query: { author_exclude: 2, per_page: 100 },
    });
    expect(notAuthor.body.length + byAuthor.body.length).toBe(all.length);
    const missing = await getJson(site, 'es', '/cms/v2/posts', { query: { orderby: 'include' } });
    expect(missing.body.code).toBe('rest_orderby_include_missing_include');
  });

  it('orders by title, slug, id, author and modified in both directions', async () => {
    for (const orderby of ['title', 'slug', 'id', 'modified', 'date', 'author']) {
      const asc = ids(
        (
          await getJson(site, 'pl', '/cms/v2/posts', {
            query: { orderby, order: 'asc', per_page: 100 },
          })
        ).body,
      );
      const desc = ids(
        (
          await getJson(site, 'pl', '/cms/v2/posts', {
            query: { orderby, order: 'desc', per_page: 100 },
          })
        ).body,
      );
      expect(asc.length).toBeGreaterThan(20);
      if (orderby !== 'author') expect(desc, orderby).toEqual([...asc].reverse());
    }
    const titles = (
      await getJson(site, 'pl', '/cms/v2/posts', {
        query: { orderby: 'title', order: 'asc', per_page: 100 },
      })
    ).body.map((post: Json) => post.title.rendered.toLowerCase());
    expect(titles).toEqual([...titles].sort());
    const modified = (
      await getJson(site, 'pl', '/cms/v2/posts', {
        query: { orderby: 'modified', order: 'asc', per_page: 100 },
      })
    ).body.map((post: Json) => post.modified_gmt);
    expect(modified).toEqual([...modified].sort());
  });

  it('compares after/before and modified_after/modified_before strictly in site-local time, honouring offsets', async () => {
    for (const lang of ['pl', 'es']) {
      const posts = await allPosts(lang, { status: 'publish', orderby: 'modified', order: 'asc' });
      const pivot = posts[Math.floor(posts.length / 2)] as Json;
      const after = (query: Record<string, string>): Promise<number[]> =>
        getJson(site, lang, '/cms/v2/posts', {
          query: { per_page: 100, orderby: 'modified', order: 'asc', ...query },
        }).then((r) => ids(r.body));
      const expected = posts
        .filter((post) => post.modified_gmt > pivot.modified_gmt)
        .map((post) => post.id);
      expect(await after({ modified_after: pivot.modified })).toEqual(expected);
      expect(await after({ modified_after: `${pivot.modified_gmt}Z` })).toEqual(expected);
      expect(
        await after({ modified_after: `${shiftDate(pivot.modified_gmt, 3600)}+01:00` }),
      ).toEqual(expected);
      const inclusive = await after({ modified_after: shiftDate(pivot.modified, -1) });
      expect(inclusive[0]).toBe(pivot.id);
      const before = await after({ modified_before: pivot.modified });
      expect(before).toEqual(
        posts.filter((post) => post.modified_gmt < pivot.modified_gmt).map((post) => post.id),
      );
      const byDate = await getJson(site, lang, '/cms/v2/posts', {
        query: { after: pivot.date, per_page: 100 },
      });
      expect(byDate.body.every((post: Json) => post.date_gmt > pivot.date_gmt)).toBe(true);
      expect(byDate.body.length).toBe(
        posts.filter((post) => post.date_gmt > pivot.date_gmt).length,
      );
      const window = await getJson(site, lang, '/cms/v2/posts', {
        query: { after: shiftDate(pivot.date, -1), before: shiftDate(pivot.date, 1) },
      });
      expect(ids(window.body)).toEqual([pivot.id]);
    }
  });

  it('filters by categories and tags in array and object forms', async () => {
    const all = await allPosts('pl', { status: 'publish' });
    const has = (post: Json, field: string, terms: number[]): boolean =>
      terms.some((t) => post[field].includes(t));
    const check = async (
      query: Record<string, string>,
      predicate: (post: Json) => boolean,
    ): Promise<void> => {
      const search = new URLSearchParams({ per_page: '100', ...query });
      const { body, status } = await callUrl(
        site,
        `${site.url}/pl/cms-json/cms/v2/posts?${search}`,
      );
      expect(status, search.toString()).toBe(200);
      expect(ids(body).sort(), search.toString()).toEqual(
        all
          .filter(predicate)
          .map((p) => p.id)
          .sort(),
      );
    };
    await check({ categories: '2' }, (p) => has(p, 'categories', [2]));
    await check({ categories: '4,6' }, (p) => has(p, 'categories', [4, 6]));
    await check({ 'categories[terms]': '2', 'categories[include_children]': 'true' }, (p) =>
      has(p, 'categories', [2, 3, 7]),
    );
    await check({ 'categories[terms][]': '2', 'categories[operator]': 'AND' }, (p) =>
      has(p, 'categories', [2]),
    );
    await check(
      { 'categories[terms]': '2,3', 'categories[operator]': 'AND' },
      (p) => p.categories.includes(2) && p.categories.includes(3),
    );
    await check({ categories_exclude: '4' }, (p) => !has(p, 'categories', [4]));
    await check(
      { 'categories_exclude[terms]': '4', 'categories_exclude[include_children]': '1' },
      (p) => !has(p, 'categories', [4, 5]),
    );
    await check({ tags: '11,13' }, (p) => has(p, 'tags', [11, 13]));
    await check({ tags_exclude: '10' }, (p) => !has(p, 'tags', [10]));
    await check(
      { categories: '6', tags: '10' },
      (p) => has(p, 'categories', [6]) && has(p, 'tags', [10]),
    );
    await check(
      { categories: '6', tags: '10', tax_relation: 'OR' },
      (p) => has(p, 'categories', [6]) || has(p, 'tags', [10]),
    );
    const extra = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { 'categories[operator]': 'AND', 'categories[extra]': '1' },
    });
    expect(extra.status).toBe(400);
    expect(extra.body.data.params).toHaveProperty('categories');
    const badOperator = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { 'tags[operator]': 'XOR' },
    });
    expect(badOperator.status).toBe(400);
  });

  it('filters sticky posts, puts them first without ignore_sticky, and filters formats', async () => {
    const sticky = await getJson(site, 'pl', '/cms/v2/posts', { query: { sticky: true } });
    expect(sticky.body.length).toBe(2);
    expect(sticky.body.every((post: Json) => post.sticky)).toBe(true);
    const notSticky = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { sticky: false, per_page: 100 },
    });
    expect(notSticky.body.some((post: Json) => post.sticky)).toBe(false);
    const first = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { ignore_sticky: false, order: 'asc' },
    });
    expect(first.body.slice(0, 2).every((post: Json) => post.sticky)).toBe(true);
    const formats = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { format: 'video,gallery' },
    });
    expect(formats.body.map((post: Json) => post.format).sort()).toEqual(['gallery', 'video']);
  });

  it('filters pages by parent, parent_exclude and menu_order and orders by menu_order', async () => {
    const top = await getJson(site, 'pl', '/cms/v2/pages', {
      query: { parent: 0, orderby: 'menu_order', order: 'asc' },
    });
    expect(top.body.length).toBeGreaterThan(2);
    expect(top.body.every((page: Json) => page.parent === 0)).toBe(true);
    const orders = top.body.map((page: Json) => page.menu_order);
    expect(orders).toEqual([...orders].sort((x: number, y: number) => x - y));
    const about = top.body.find((page: Json) => page.slug === 'o-nas');
    const children = await getJson(site, 'pl', '/cms/v2/pages', { query: { parent: about.id } });
    expect(children.body.map((page: Json) => page.slug).sort()).toEqual(['historia', 'zespol']);
    expect(children.body.every((page: Json) => page.link.startsWith(`${site.url}/pl/o-nas/`))).toBe(
      true,
    );
    const notTop = await getJson(site, 'pl', '/cms/v2/pages', { query: { parent_exclude: 0 } });
    expect(notTop.body.every((page: Json) => page.parent !== 0)).toBe(true);
    const third = await getJson(site, 'pl', '/cms/v2/pages', { query: { menu_order: 3 } });
    expect(third.body.map((page: Json) => page.menu_order)).toEqual([3]);
    const noMenuOrder = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { orderby: 'menu_order' },
    });
    expect(noMenuOrder.body.data.details.orderby.code).toBe('rest_not_in_enum');
  });

  it('filters media by media_type, mime_type, parent and status', async () => {
    const all = await getJson(site, 'es', '/cms/v2/media', { query: { per_page: 100 } });
    expect(all.body.length).toBe(6);
    expect(all.body.every((media: Json) => media.status === 'inherit')).toBe(true);
    const images = await getJson(site, 'es', '/cms/v2/media', { query: { media_type: 'image' } });
    expect(images.body.length).toBe(5);
    const pdf = await getJson(site, 'es', '/cms/v2/media', {
      query: { mime_type: 'application/pdf' },
    });
    expect(pdf.body.map((media: Json) => media.mime_type)).toEqual(['application/pdf']);
    expect(pdf.body[0].media_type).toBe('file');
    const application = await getJson(site, 'es', '/cms/v2/media', {
      query: { media_type: 'application' },
    });
    expect(ids(application.body)).toEqual(ids(pdf.body));
    const attached = all.body.find((media: Json) => media.post !== null);
    const byParent = await getJson(site, 'es', '/cms/v2/media', {
      query: { parent: attached.post },
    });
    expect(ids(byParent.body)).toContain(attached.id);
    const privateMedia = await getJson(site, 'es', '/cms/v2/media', {
      query: { status: 'private' },
    });
    expect(privateMedia.body.data.details.status.code).toBe('rest_forbidden_status');
    const wrongStatus = await getJson(site, 'es', '/cms/v2/media', {
      query: { status: 'publish' },
      auth: true,
    });
    expect(wrongStatus.body.data.details.status.code).toBe('rest_not_in_enum');
  });
});

describe('modified_after reads a value without offset as site-local time', () => {
  it('shifts by +2 h under pl and by -3 h under es', async () => {
    const own = await startReferenceSite({ posts: 0, pages: 0, media: 0 });
    try {
      const t = Date.UTC(2024, 5, 1, 12, 0, 0) / 1000;
      for (const lang of ['pl', 'es']) {
        own.control.createItems(lang, 'posts', 1, { dateGmt: t, modifiedGmt: t, title: 'A' });
        own.control.createItems(lang, 'posts', 1, {
          dateGmt: t + 3600,
          modifiedGmt: t + 3600,
          title: 'B',
        });
      }
      const titles = async (lang: string, value: string): Promise<string[]> => {
        const { body } = await getJson(own, lang, '/cms/v2/posts', {
          query: { modified_after: value, orderby: 'modified', order: 'asc' },
        });
        return body.map((post: Json) => post.title.rendered);
      };
      // 12:00 read as local: pl (GMT+2) means 10:00 GMT, es (GMT-3) means 15:00 GMT.
      expect(await titles('pl', '2024-06-01T12:00:00')).toEqual(['A', 'B']);
      expect(await titles('es', '2024-06-01T12:00:00')).toEqual([]);
      expect(await titles('pl', '2024-06-01T14:00:00')).toEqual(['B']);
      expect(await titles('es', '2024-06-01T09:00:00')).toEqual(['B']);
      expect(await titles('es', '2024-06-01T12:00:00Z')).toEqual(['B']);
      expect(await titles('pl', '2024-06-01T11:59:59Z')).toEqual(['A', 'B']);
      const [a] = (
        await getJson(own, 'es', '/cms/v2/posts', {
          query: { search: 'A', search_columns: 'post_title' },
        })
      ).body;
      expect(a.date).toBe('2024-06-01T09:00:00');
      expect(a.date_gmt).toBe('2024-06-01T12:00:00');
      const [b] = (
        await getJson(own, 'pl', '/cms/v2/posts', {
          query: { search: 'B', search_columns: 'post_title' },
        })
      ).body;
      expect(b.modified).toBe('2024-06-01T15:00:00');
      expect(b.modified_gmt).toBe('2024-06-01T13:00:00');
    } finally {
      await own.close();
    }
  });
});
