import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startReference } from '../../helpers/reference.js';
import type { Json, ReferenceSite } from '../../helpers/reference.js';

/**
 * What deployed servers answer to readers who may not read everything (observed-behaviour.md:
 * Collections, Auth): totals that count unreadable items, weak roles, and the revision count
 * every item carries.
 */
describe('media attached to unpublished items (attachmentsFollowParent)', () => {
  let site: ReferenceSite;
  let plain: ReferenceSite;
  beforeAll(async () => {
    site = await startReference({ attachmentsFollowParent: true });
    plain = await startReference();
  });
  afterAll(async () => {
    await Promise.all([site.close(), plain.close()]);
  });

  /** Media whose parent post or page is not published, from the site's own records. */
  function hiddenMedia(target: ReferenceSite): number[] {
    const parents = new Map(
      [...target.control.listItems('pl', 'posts'), ...target.control.listItems('pl', 'pages')].map(
        (item) => [item.id, item.status],
      ),
    );
    return target.control
      .listItems('pl', 'media')
      .filter((item) => item.parent !== 0 && parents.get(item.parent) !== 'publish')
      .map((item) => item.id);
  }

  it('are counted in X-CMS-Total but left out of an anonymous list, and 401 to read', async () => {
    const all = site.control.listItems('pl', 'media').map((item) => item.id);
    const hidden = hiddenMedia(site);
    expect(hidden.length).toBeGreaterThan(0);
    const list = await getJson(site, 'pl', '/cms/v2/media', { query: { per_page: 100 } });
    expect(list.status).toBe(200);
    expect(list.headers.get('x-cms-total')).toBe(String(all.length));
    const listed = (list.body as Json[]).map((item) => item.id as number).sort((a, b) => a - b);
    expect(listed).toEqual(all.filter((id) => !hidden.includes(id)).sort((a, b) => a - b));
    const read = await getJson(site, 'pl', `/cms/v2/media/${hidden[0]}`);
    expect(read.status).toBe(401);
    expect(read.body.code).toBe('rest_forbidden');
    const admin = await getJson(site, 'pl', '/cms/v2/media', {
      query: { per_page: 100 },
      auth: true,
    });
    expect((admin.body as Json[]).length).toBe(all.length);
  });

  it('are listed to everyone without the option', async () => {
    expect(hiddenMedia(plain).length).toBeGreaterThan(0);
    const list = await getJson(plain, 'pl', '/cms/v2/media', { query: { per_page: 100 } });
    expect((list.body as Json[]).length).toBe(Number(list.headers.get('x-cms-total')));
  });
});

describe('users with weak roles', () => {
  let site: ReferenceSite;
  beforeAll(async () => {
    site = await startReference();
  });
  afterAll(() => site.close());

  const ALL_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

  it('a subscriber: valid credentials, 403 rest_forbidden_context on context=edit', async () => {
    const auth = site.roleCredentials.subscriber;
    const edit = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { context: 'edit', per_page: 1 },
      auth,
    });
    expect(edit.status).toBe(403);
    expect(edit.body.code).toBe('rest_forbidden_context');
    const wrong = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { context: 'edit', per_page: 1 },
      auth: { user: auth.user, password: 'wrong password' },
    });
    expect(wrong.status).toBe(401);
    const view = await getJson(site, 'pl', '/cms/v2/posts', { auth });
    expect(view.status).toBe(200);
  });

  it('an author: pages refuse non-public statuses with rest_forbidden_status', async () => {
    const response = await getJson(site, 'pl', '/cms/v2/pages', {
      query: { status: ALL_STATUSES, context: 'edit' },
      auth: site.roleCredentials.author,
    });
    expect(response.status).toBe(400);
    expect(response.body.code).toBe('rest_invalid_param');
    expect(response.body.data.details.status.code).toBe('rest_forbidden_status');
    expect(response.body.data.details.status.data.status).toBe(403);
  });

  it('an author: posts answer 200 with only what the author may read', async () => {
    const posts = site.control.listItems('pl', 'posts');
    const others = posts.filter((item) => item.status !== 'publish' && item.author !== 3);
    expect(others.length).toBeGreaterThan(0);
    const response = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { status: ALL_STATUSES, context: 'edit', per_page: 100 },
      auth: site.roleCredentials.author,
    });
    expect(response.status).toBe(200);
    const listed = new Set((response.body as Json[]).map((item) => item.id as number));
    for (const item of others) expect(listed.has(item.id)).toBe(false);
    const published = posts.filter((item) => item.status === 'publish');
    for (const item of published) expect(listed.has(item.id)).toBe(true);
  });
});

describe('the revision count on items', () => {
  let site: ReferenceSite;
  let bare: ReferenceSite;
  beforeAll(async () => {
    site = await startReference({ posts: 30 });
    bare = await startReference({ posts: 30, versionCounts: false });
  });
  afterAll(async () => {
    await Promise.all([site.close(), bare.close()]);
  });

  async function revisionsListed(target: ReferenceSite, id: number): Promise<Json[]> {
    const response = await getJson(target, 'pl', `/cms/v2/posts/${id}/revisions`, { auth: true });
    expect(response.status).toBe(200);
    return response.body as Json[];
  }

  it('is the length of the revisions list (autosave included), also under _fields=id,_links', async () => {
    const list = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { per_page: 100, _fields: 'id,_links', status: ['publish', 'draft'] },
      auth: true,
    });
    expect(list.status).toBe(200);
    const items = list.body as Json[];
    let withHistory = 0;
    let without = 0;
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['_links', 'id']);
      const revisions = await revisionsListed(site, item.id);
      expect(item._links['version-history'][0].count).toBe(revisions.length);
      if (revisions.length > 0) {
        withHistory += 1;
        expect(item._links['predecessor-version']?.[0]?.id).toEqual(expect.any(Number));
      } else {
        without += 1;
        expect(item._links['predecessor-version']).toBeUndefined();
      }
    }
    expect(withHistory).toBeGreaterThan(0);
    expect(without).toBeGreaterThan(0);
  });

  it('counts the autosave too', async () => {
    const list = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { per_page: 100, context: 'edit', status: ['publish', 'draft', 'pending'] },
      auth: true,
    });
    let checked = 0;
    for (const item of list.body as Json[]) {
      const autosaves = await getJson(site, 'pl', `/cms/v2/posts/${item.id}/autosaves`, {
        auth: true,
      });
      if ((autosaves.body as Json[]).length === 0) continue;
      const revisions = (await revisionsListed(site, item.id)).filter(
        (revision) => !(autosaves.body as Json[]).some((a) => a.id === revision.id),
      );
      expect(item._links['version-history'][0].count).toBe(
        revisions.length + (autosaves.body as Json[]).length,
      );
      checked += 1;
    }
    expect(checked).toBeGreaterThan(0);
  });

  it('is left out by a server that does not send it (versionCounts: false)', async () => {
    const list = await getJson(bare, 'pl', '/cms/v2/posts', { query: { per_page: 100 } });
    for (const item of list.body as Json[]) {
      expect(item._links['version-history'][0].href).toContain('/revisions');
      expect(item._links['version-history'][0]).not.toHaveProperty('count');
    }
  });
});
