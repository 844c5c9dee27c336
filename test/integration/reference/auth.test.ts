import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReferenceSite } from '../../../src/reference/index.js';
import { callApi, getJson, startReference } from '../../helpers/reference.js';
import type { ReferenceSite } from '../../helpers/reference.js';

let site: ReferenceSite;
beforeAll(async () => {
  site = await startReference();
});
afterAll(() => site.close());

const APP_PASSWORD = /^[A-Za-z0-9]{4}( [A-Za-z0-9]{4}){5}$/;

describe('application passwords', () => {
  it('look like real ones, derive from the seed and differ per user', async () => {
    expect(site.credentials.password).toMatch(APP_PASSWORD);
    expect(site.otherCredentials.password).toMatch(APP_PASSWORD);
    expect(site.credentials.user).not.toBe(site.otherCredentials.user);
    expect(site.credentials.password).not.toBe(site.otherCredentials.password);
    const same = await startReferenceSite({ posts: 0, pages: 0, media: 0 });
    const other = await startReferenceSite({ seed: 'another', posts: 0, pages: 0, media: 0 });
    try {
      expect(same.credentials).toEqual(site.credentials);
      expect(other.credentials.password).not.toBe(site.credentials.password);
    } finally {
      await Promise.all([same.close(), other.close()]);
    }
  });

  it('accept the password with or without spaces, for both users', async () => {
    const compact = {
      user: site.credentials.user,
      password: site.credentials.password.replace(/ /g, ''),
    };
    for (const auth of [true, 'other', compact] as const) {
      const response = await getJson(site, 'pl', '/cms/v2/posts', {
        query: { context: 'edit', per_page: 1 },
        auth,
      });
      expect(response.status).toBe(200);
    }
  });

  it('treat wrong credentials as anonymous on public routes and never say which part is wrong', async () => {
    const wrongPassword = {
      user: site.credentials.user,
      password: 'AAAA BBBB CCCC DDDD EEEE FFFF',
    };
    const wrongUser = { user: 'nobody', password: site.credentials.password };
    const crossed = { user: site.credentials.user, password: site.otherCredentials.password };
    const anonymous = await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 100 } });
    for (const auth of [wrongPassword, wrongUser, crossed]) {
      const list = await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 100 }, auth });
      expect(list.status).toBe(200);
      expect(list.text).toBe(anonymous.text);
      const edit = await getJson(site, 'pl', '/cms/v2/posts', { query: { context: 'edit' }, auth });
      expect(edit.status).toBe(401);
      expect(edit.body).toEqual({
        code: 'rest_forbidden_context',
        message: 'Sorry, you are not allowed to edit posts in this post type.',
        data: { status: 401 },
      });
    }
    const malformed = await getJson(site, 'pl', '/cms/v2/posts', {
      query: { per_page: 1 },
      headers: { authorization: 'Basic !!!' },
    });
    expect(malformed.status).toBe(200);
  });

  it('protect revisions, autosaves, writes, the oEmbed proxy and seo routes with the usual 401s', async () => {
    const [post] = (await getJson(site, 'es', '/cms/v2/posts', { query: { per_page: 1 } })).body;
    const cases: [string, string, string][] = [
      ['GET', `/cms/v2/posts/${post.id}/revisions`, 'rest_cannot_read'],
      ['GET', `/cms/v2/posts/${post.id}/autosaves`, 'rest_cannot_read'],
      ['POST', '/cms/v2/posts', 'rest_cannot_create'],
      ['POST', `/cms/v2/posts/${post.id}`, 'rest_cannot_edit'],
      ['DELETE', `/cms/v2/posts/${post.id}`, 'rest_cannot_delete'],
      ['POST', `/cms/v2/posts/${post.id}/autosaves`, 'rest_cannot_edit'],
      ['POST', '/cms/v2/media', 'rest_cannot_create'],
      ['GET', '/seo/v1/statistics', 'rest_forbidden'],
      ['GET', '/seo/v1/configuration/get_configuration_state', 'rest_forbidden'],
    ];
    for (const [method, path, code] of cases) {
      const response = await callApi(site, 'es', path, {
        method,
        body: method === 'GET' ? undefined : { title: 'x' },
      });
      expect(response.status, `${method} ${path}`).toBe(401);
      expect(response.body.code, `${method} ${path}`).toBe(code);
    }
    const proxy = await getJson(site, 'es', '/oembed/1.0/proxy', {
      query: { url: 'https://www.youtube.com/watch?v=abcdefghijk' },
    });
    expect(proxy.status).toBe(401);
    expect(proxy.body.code).toBe('rest_forbidden');
    const stored = site.control.getItem('es', 'posts', post.id);
    expect(stored?.title).not.toBe('x');
  });

  it('logs every request with its language, path, query, status and whether it was authenticated', async () => {
    site.control.clearLog();
    await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 2 }, auth: true });
    await getJson(site, 'es', '/cms/v2/pages', { query: { context: 'edit' } });
    await fetch(`${site.url}/pl/cms-content/uploads/none.png`);
    expect(site.requests).toEqual([
      {
        method: 'GET',
        path: '/cms/v2/posts',
        lang: 'pl',
        query: { per_page: '2' },
        status: 200,
        authenticated: true,
      },
      {
        method: 'GET',
        path: '/cms/v2/pages',
        lang: 'es',
        query: { context: 'edit' },
        status: 401,
        authenticated: false,
      },
      {
        method: 'GET',
        path: '/pl/cms-content/uploads/none.png',
        lang: 'pl',
        query: {},
        status: 404,
        authenticated: false,
      },
    ]);
  });
});
