import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATE_FORMAT, getJson, shiftDate, startReference } from '../../helpers/reference.js';
import type { Json, ReferenceSite } from '../../helpers/reference.js';

let site: ReferenceSite;
beforeAll(async () => {
  site = await startReference();
});
afterAll(() => site.close());

async function postsOf(lang: string): Promise<Json[]> {
  const status = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];
  return (
    await getJson(site, lang, '/cms/v2/posts', {
      query: { per_page: 100, status, context: 'edit' },
      auth: true,
    })
  ).body;
}

describe('single items', () => {
  it('reads a published post; unknown ids and other types are 404 rest_post_invalid_id', async () => {
    const [first] = (await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 1 } })).body;
    const one = await getJson(site, 'pl', `/cms/v2/posts/${first.id}`);
    expect(one.status).toBe(200);
    expect(one.body.id).toBe(first.id);
    expect(one.headers.get('allow')).toBe('GET, POST, PUT, PATCH, DELETE');
    const missing = await getJson(site, 'pl', '/cms/v2/posts/999999');
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({
      code: 'rest_post_invalid_id',
      message: 'Invalid post ID.',
      data: { status: 404 },
    });
    const [page] = (await getJson(site, 'pl', '/cms/v2/pages', { query: { per_page: 1 } })).body;
    expect((await getJson(site, 'pl', `/cms/v2/posts/${page.id}`)).status).toBe(404);
    expect((await getJson(site, 'pl', `/cms/v2/pages/${page.id}/`)).status).toBe(200);
  });

  it('hides protected content unless the right password is given', async () => {
    const posts = await postsOf('pl');
    const locked = posts.find((post) => post.password !== '');
    const view = await getJson(site, 'pl', `/cms/v2/posts/${locked.id}`);
    expect(view.body.content).toEqual({ rendered: '', protected: true });
    expect(view.body.excerpt.rendered).toBe('');
    const open = await getJson(site, 'pl', `/cms/v2/posts/${locked.id}`, {
      query: { password: locked.password },
    });
    expect(open.body.content.rendered).toContain('<h2');
    expect(open.body.content.protected).toBe(true);
    const wrong = await getJson(site, 'pl', `/cms/v2/posts/${locked.id}`, {
      query: { password: 'nope' },
    });
    expect(wrong.status).toBe(403);
    expect(wrong.body.code).toBe('rest_post_incorrect_password');
    const listed = (await getJson(site, 'pl', '/cms/v2/posts', { query: { include: locked.id } }))
      .body[0];
    expect(listed.content.rendered).toBe('');
    const edit = await getJson(site, 'pl', `/cms/v2/posts/${locked.id}`, {
      query: { context: 'edit' },
      auth: true,
    });
    expect(edit.body.content.rendered).toContain('<h2');
    expect(edit.body.password).toBe(locked.password);
  });

  it('lets only editors read drafts, private, future and trashed items', async () => {
    const posts = await postsOf('es');
    for (const status of ['draft', 'pending', 'private', 'future', 'trash']) {
      const post = posts.find((candidate) => candidate.status === status);
      expect(post, status).toBeDefined();
      const anonymous = await getJson(site, 'es', `/cms/v2/posts/${post.id}`);
      expect(anonymous.status, status).toBe(401);
      expect(anonymous.body.code).toBe('rest_forbidden');
      const editor = await getJson(site, 'es', `/cms/v2/posts/${post.id}`, { auth: true });
      expect(editor.status, status).toBe(200);
      expect(editor.body.status).toBe(status);
    }
    const draft = posts.find((post) => post.status === 'draft');
    expect(draft.link).toBe(`${site.url}/es/?p=${draft.id}`);
    const forbiddenContext = await getJson(site, 'es', `/cms/v2/posts/${draft.id}`, {
      query: { context: 'edit' },
    });
    expect(forbiddenContext.body.code).toBe('rest_forbidden_context');
  });

  it('writes dates in the site zone and *_gmt in GMT, to the second, for both offset signs', async () => {
    for (const [lang, hours] of [
      ['pl', 2],
      ['es', -3],
    ] as const) {
      const posts = await postsOf(lang);
      expect(posts.length).toBeGreaterThan(20);
      for (const post of posts) {
        for (const field of ['date', 'date_gmt', 'modified', 'modified_gmt'])
          expect(post[field]).toMatch(DATE_FORMAT);
        expect(post.date).toBe(shiftDate(post.date_gmt, hours * 3600));
        expect(post.modified).toBe(shiftDate(post.modified_gmt, hours * 3600));
      }
    }
  });

  it('builds post links from the local date and page links from the parent chain', async () => {
    for (const lang of ['pl', 'es']) {
      const posts = (await getJson(site, lang, '/cms/v2/posts', { query: { per_page: 100 } })).body;
      for (const post of posts) {
        expect(post.link).toBe(
          `${site.url}/${lang}/${post.date.slice(0, 4)}/${post.date.slice(5, 7)}/${post.slug}/`,
        );
      }
    }
    // The post dated 01:30 GMT on 1 December is still November in es (GMT-3).
    const midnight = (lang: string): Promise<Json> =>
      getJson(site, lang, '/cms/v2/posts', {
        query: { after: '2024-11-30T00:00:00Z', before: '2024-12-01T02:00:00Z' },
      }).then((r) => r.body[0]);
    expect((await midnight('pl')).link).toMatch(/\/pl\/2024\/12\//);
    expect((await midnight('es')).link).toMatch(/\/es\/2024\/11\//);
    const pages = (await getJson(site, 'es', '/cms/v2/pages', { query: { per_page: 100 } })).body;
    const byId = new Map(pages.map((page: Json) => [page.id, page]));
    for (const page of pages) {
      if (page.parent === 0) continue;
      const parent = byId.get(page.parent) as Json;
      expect(page.link).toBe(`${parent.link}${page.slug}/`);
    }
  });

  it('pairs translations by id and differs in text and slug; some items exist in one language only', async () => {
    const pl = await postsOf('pl');
    const es = await postsOf('es');
    const esById = new Map(es.map((post) => [post.id, post]));
    let pairs = 0;
    for (const post of pl) {
      const other = esById.get(post.id);
      if (!other) continue;
      pairs++;
      expect(other.type).toBe(post.type);
      expect(other.slug).not.toBe(post.slug);
      expect(other.title.raw).not.toBe(post.title.raw);
    }
    expect(pairs).toBe(pl.length - 1);
    const onlyPl = pl.find((post) => !esById.has(post.id));
    expect((await getJson(site, 'es', `/cms/v2/posts/${onlyPl.id}`, { auth: true })).status).toBe(
      404,
    );
    expect(es.some((post) => !pl.some((candidate) => candidate.id === post.id))).toBe(true);
  });

  it('renders content with headings, images with srcset, internal links and embeddable URLs', async () => {
    const [post] = (
      await getJson(site, 'pl', '/cms/v2/posts', {
        query: { per_page: 1, orderby: 'id', order: 'asc' },
      })
    ).body;
    const html: string = post.content.rendered;
    expect(html).not.toContain('<!-- cms:');
    expect(html).toMatch(/<h2 class="cms-block-heading">/);
    expect(html).toMatch(/<h3 class="cms-block-heading">/);
    const img =
      /<figure class="cms-block-image[^"]*"><img src="([^"]+)" alt="([^"]+)" class="cms-image-(\d+)" width="(\d+)" height="(\d+)" srcset="([^"]+)"/.exec(
        html,
      );
    expect(img).not.toBeNull();
    const [, src, , mediaId, width] = img as unknown as [string, string, string, string, string];
    const media = (await getJson(site, 'pl', `/cms/v2/media/${mediaId}`)).body;
    expect(media.source_url).toBe(src);
    expect(media.media_details.width).toBe(Number(width));
    expect(html).toMatch(
      /<figure class="cms-block-embed [^"]*"><div class="cms-block-embed__wrapper">\nhttps:\/\/www\.youtube\.com\/watch\?v=[\w-]{11}\n<\/div><\/figure>/,
    );
    expect(html).toMatch(/<p>https:\/\/vimeo\.com\/\d+<\/p>/);
    const links = [...html.matchAll(/<a href="([^"]+)">/g)].map((m) => m[1] as string);
    expect(links.length).toBeGreaterThan(0);
    const everything = [
      ...(await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 100 } })).body,
      ...(await getJson(site, 'pl', '/cms/v2/pages', { query: { per_page: 100 } })).body,
    ].map((item: Json) => item.link);
    for (const link of links) expect(everything).toContain(link);
  });

  it('serves media items with every field and real image files at every size', async () => {
    const list = (
      await getJson(site, 'pl', '/cms/v2/media', { query: { media_type: 'image', per_page: 1 } })
    ).body;
    const media = (await getJson(site, 'pl', `/cms/v2/media/${list[0].id}`)).body;
    for (const field of [
      'id',
      'date',
      'date_gmt',
      'guid',
      'modified',
      'modified_gmt',
      'slug',
      'status',
      'type',
      'link',
      'title',
      'author',
      'comment_status',
      'ping_status',
      'template',
      'meta',
      'description',
      'caption',
      'alt_text',
      'media_type',
      'mime_type',
      'media_details',
      'post',
      'source_url',
    ]) {
      expect(media, field).toHaveProperty(field);
    }
    expect(media.status).toBe('inherit');
    expect(media.type).toBe('attachment');
    expect(media.media_type).toBe('image');
    expect(media.alt_text).not.toBe('');
    const details = media.media_details;
    expect(details.file).toMatch(/^\d{4}\/\d{2}\/[^/]+\.png$/);
    const urls = [
      media.source_url,
      ...Object.values<Json>(details.sizes).map((size) => size.source_url),
    ];
    expect(urls.length).toBeGreaterThanOrEqual(3);
    for (const url of new Set(urls)) {
      const response = await fetch(url);
      expect(response.status, url).toBe(200);
      expect(response.headers.get('content-type')).toBe('image/png');
      const bytes = Buffer.from(await response.arrayBuffer());
      expect(bytes.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a');
      const size = Object.values<Json>(details.sizes).find((entry) => entry.source_url === url);
      expect(bytes.readUInt32BE(16)).toBe(size.width);
      expect(bytes.readUInt32BE(20)).toBe(size.height);
      if (url === media.source_url) expect(bytes.length).toBe(details.filesize);
    }
    const head = await fetch(media.source_url, { method: 'HEAD' });
    expect(head.headers.get('content-length')).toBe(String(details.filesize));
    const etag = head.headers.get('etag') as string;
    expect((await fetch(media.source_url, { headers: { 'if-none-match': etag } })).status).toBe(
      304,
    );
    const other = (
      await getJson(site, 'pl', '/cms/v2/media', { query: { media_type: 'image', per_page: 2 } })
    ).body[1];
    const a = Buffer.from(await (await fetch(media.source_url)).arrayBuffer());
    const b = Buffer.from(await (await fetch(other.source_url)).arrayBuffer());
    expect(a.equals(b)).toBe(false);
    expect((await fetch(`${site.url}/pl/cms-content/uploads/2024/01/missing.png`)).status).toBe(
      404,
    );
  });

  it('carries seo_head_json built from the site representation', async () => {
    const [pl] = (await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 1 } })).body;
    const head = pl.seo_head_json;
    expect(head.canonical).toBe(pl.link);
    expect(head.og_locale).toBe('pl_PL');
    expect(head.og_type).toBe('article');
    expect(head.schema['@context']).toBe('https://schema.org');
    const types = head.schema['@graph'].map((node: Json) => node['@type']);
    expect(types).toEqual(['WebPage', 'WebSite', 'Organization']);
    expect(head.schema['@graph'][2].logo.url).toMatch(/\.png$/);
    const [es] = (await getJson(site, 'es', '/cms/v2/pages', { query: { per_page: 1 } })).body;
    expect(es.seo_head_json.og_locale).toBe('es_ES');
    expect(es.seo_head_json.og_type).toBe('website');
    expect(es.seo_head_json.schema['@graph'][2]['@type']).toEqual(['Person', 'Organization']);
    const embed = (
      await getJson(site, 'pl', `/cms/v2/posts/${pl.id}`, { query: { context: 'embed' } })
    ).body;
    expect(embed).not.toHaveProperty('seo_head_json');
  });

  it('applies _fields to items and lists', async () => {
    const { body } = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { per_page: 2, _fields: 'id,title.rendered,modified_gmt' },
    });
    expect(Object.keys(body[0]).sort()).toEqual(['id', 'modified_gmt', 'title']);
    expect(Object.keys(body[0].title)).toEqual(['rendered']);
  });
});
