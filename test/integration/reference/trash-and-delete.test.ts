import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, getJson, startReference } from '../../helpers/reference.js';
import type { ApiResponse, Json, ReferenceSite } from '../../helpers/reference.js';

/**
 * Trash, untrash, deletion for good and revisions, as deployed servers answer them
 * (observed-behaviour.md, Items): what a restore of deleted content meets on a real site.
 */
let site: ReferenceSite;
beforeEach(async () => {
  site = await startReference();
});
afterEach(() => site.close());

const write = (path: string, body: Json, lang = 'pl'): Promise<ApiResponse> =>
  callApi(site, lang, path, { method: 'POST', auth: true, body });
const remove = (path: string, force = false): Promise<ApiResponse> =>
  callApi(site, 'pl', path, { method: 'DELETE', auth: true, query: force ? { force } : {} });
const edit = async (path: string): Promise<Json> =>
  (await getJson(site, 'pl', path, { auth: true, query: { context: 'edit' } })).body;

function publicPosts(): number[] {
  return site.control
    .listItems('pl', 'posts')
    .filter((item) => item.status === 'publish' && item.password === '' && !item.sticky)
    .map((item) => item.id);
}

describe('trash and untrash', () => {
  it('trashing appends __trashed to the slug; a status update brings the old slug back', async () => {
    const [first] = publicPosts() as [number];
    const { slug } = await edit(`/cms/v2/posts/${first}`);
    const trashed = await remove(`/cms/v2/posts/${first}`);
    expect([trashed.status, trashed.body.status, trashed.body.slug]).toEqual([
      200,
      'trash',
      `${slug}__trashed`,
    ]);
    expect((await edit(`/cms/v2/posts/${first}`)).slug).toBe(`${slug}__trashed`);
    const back = await write(`/cms/v2/posts/${first}`, { status: 'publish' });
    expect([back.status, back.body.id, back.body.status, back.body.slug]).toEqual([
      200,
      first,
      'publish',
      slug,
    ]);
    expect((await getJson(site, 'pl', `/cms/v2/posts/${first}`)).body.slug).toBe(slug);
  });

  it('the trashed slug is free meanwhile; untrashing then gets a unique one', async () => {
    const [post] = publicPosts() as [number];
    const { slug } = await edit(`/cms/v2/posts/${post}`);
    await remove(`/cms/v2/posts/${post}`);
    const taker = await write('/cms/v2/posts', { title: 'Nowy', slug, status: 'publish' });
    expect(taker.body.slug).toBe(slug);
    const back = await write(`/cms/v2/posts/${post}`, { status: 'publish' });
    expect(back.body.slug).toBe(`${slug}-2`);
  });

  it('a post dated in the future comes back as future', async () => {
    const [post] = publicPosts() as [number];
    const dated = await write(`/cms/v2/posts/${post}`, { date_gmt: '2099-01-01T00:00:00' });
    expect(dated.body.status).toBe('future');
    const { slug } = dated.body;
    await remove(`/cms/v2/posts/${post}`);
    const back = await write(`/cms/v2/posts/${post}`, { status: 'publish' });
    expect([back.body.status, back.body.slug]).toEqual(['future', slug]);
  });

  it('seeded trash has __trashed slugs too, and comes back without the suffix', async () => {
    const seeded = site.control.listItems('pl', 'posts').find((item) => item.status === 'trash');
    expect(seeded).toBeDefined();
    const trashed = await edit(`/cms/v2/posts/${seeded!.id}`);
    expect(trashed.slug).toMatch(/^[a-z0-9-]+__trashed$/);
    const again = await remove(`/cms/v2/posts/${seeded!.id}`);
    expect(again.body.code).toBe('rest_already_trashed');
    const back = await write(`/cms/v2/posts/${seeded!.id}`, { status: 'draft' });
    expect(back.body.slug).toBe(trashed.slug.replace(/__trashed$/, ''));
  });
});

describe('deleting for good', () => {
  it("a deleted page's children and a deleted post's media move up one level, modified unchanged", async () => {
    const pages = site.control.listItems('pl', 'pages');
    const parent = pages.find((page) => pages.some((child) => child.parent === page.id))!;
    const children = pages.filter((page) => page.parent === parent.id);
    expect(children.length).toBeGreaterThan(0);
    const before = await Promise.all(children.map((c) => edit(`/cms/v2/pages/${c.id}`)));
    expect((await remove(`/cms/v2/pages/${parent.id}`, true)).body.deleted).toBe(true);
    for (const child of before) {
      const now = await edit(`/cms/v2/pages/${child.id}`);
      expect([now.parent, now.modified_gmt]).toEqual([parent.parent, child.modified_gmt]);
    }

    const media = site.control.listItems('pl', 'media').find((item) => item.parent !== 0)!;
    const attached = await edit(`/cms/v2/media/${media.id}`);
    expect(attached.post).toBe(media.parent);
    expect((await remove(`/cms/v2/posts/${media.parent}`, true)).body.deleted).toBe(true);
    const loose = await edit(`/cms/v2/media/${media.id}`);
    expect([loose.post, loose.modified_gmt]).toEqual([null, attached.modified_gmt]);
  });

  it('a media item deleted for good is nobody’s featured image any more, and its files are gone', async () => {
    const posts = site.control.listItems('pl', 'posts');
    const image = posts.find((post) => post.featuredMedia !== 0)!.featuredMedia;
    const featuring = posts.filter((post) => post.featuredMedia === image);
    expect(featuring.length).toBeGreaterThan(1);
    const before = await Promise.all(featuring.map((p) => edit(`/cms/v2/posts/${p.id}`)));
    const media = await edit(`/cms/v2/media/${image}`);
    expect((await remove(`/cms/v2/media/${image}`, true)).body.deleted).toBe(true);
    expect((await fetch(media.source_url)).status).toBe(404);
    expect((await getJson(site, 'pl', `/cms/v2/media/${image}`, { auth: true })).status).toBe(404);
    for (const post of before) {
      const now = await edit(`/cms/v2/posts/${post.id}`);
      expect([now.featured_media, now.modified_gmt]).toEqual([0, post.modified_gmt]);
    }
  });
});

describe('revisions cannot be deleted', () => {
  async function aRevision(target: ReferenceSite): Promise<{ post: number; path: string }> {
    const [post] = (
      await getJson(target, 'pl', '/cms/v2/posts', { query: { per_page: 1, orderby: 'id' } })
    ).body;
    const list = await getJson(target, 'pl', `/cms/v2/posts/${post.id}/revisions`, { auth: true });
    expect(list.body.length).toBeGreaterThan(0);
    return { post: post.id, path: `/cms/v2/posts/${post.id}/revisions/${list.body[0].id}` };
  }

  it('answers 403 rest_cannot_delete whatever force says, and keeps the revision', async () => {
    const { post, path } = await aRevision(site);
    const count = site.control.listRevisions('pl', 'posts', post).length;
    for (const force of [false, true]) {
      const refused = await remove(path, force);
      expect([refused.status, refused.body.code]).toEqual([403, 'rest_cannot_delete']);
    }
    expect(site.control.listRevisions('pl', 'posts', post)).toHaveLength(count);
    expect((await getJson(site, 'pl', path, { auth: true })).status).toBe(200);
  });

  it('deletes them with force on a site started with deletableRevisions', async () => {
    const open = await startReference({ deletableRevisions: true });
    try {
      const { post, path } = await aRevision(open);
      const count = open.control.listRevisions('pl', 'posts', post).length;
      const soft = await callApi(open, 'pl', path, { method: 'DELETE', auth: true });
      expect([soft.status, soft.body.code]).toEqual([501, 'rest_trash_not_supported']);
      const hard = await callApi(open, 'pl', path, {
        method: 'DELETE',
        auth: true,
        query: { force: true },
      });
      expect(hard.body.deleted).toBe(true);
      expect(open.control.listRevisions('pl', 'posts', post)).toHaveLength(count - 1);
    } finally {
      await open.close();
    }
  });
});
