import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { callApi, getJson, startReference } from '../../helpers/reference.js';
import type { Json, ReferenceSite } from '../../helpers/reference.js';

let site: ReferenceSite;
beforeEach(async () => {
  site = await startReference();
});
afterEach(() => site.close());

const batch = (body: Json, auth: boolean | 'other' = true): Promise<Json> =>
  callApi(site, 'pl', '/batch/v1', { method: 'POST', auth, body });

async function postCount(): Promise<number> {
  const { headers } = await getJson(site, 'pl', '/cms/v2/posts', {
    query: { status: 'any' },
    auth: true,
  });
  return Number(headers.get('x-cms-total'));
}

describe('POST /batch/v1', () => {
  it('runs requests in order and answers 207 with one sub-response each', async () => {
    const [post] = (await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 1 } })).body;
    const response = await batch({
      requests: [
        { path: '/cms/v2/posts', body: { title: 'Z paczki', status: 'publish' } },
        { method: 'PUT', path: `/cms/v2/posts/${post.id}`, body: { title: 'Zmieniony' } },
        { method: 'DELETE', path: `/cms/v2/posts/${post.id}?force=true` },
        { method: 'PATCH', path: '/cms/v2/pages/999999', body: { title: 'x' } },
      ],
    });
    expect(response.status).toBe(207);
    expect(response.body.failed).toBeNull();
    const [created, updated, deleted, missing] = response.body.responses;
    expect(created.status).toBe(201);
    expect(created.body.title.raw).toBe('Z paczki');
    expect(created.headers.Location).toBe(
      `${site.url}/pl/cms-json/cms/v2/posts/${created.body.id}`,
    );
    expect(created.headers.Allow).toBe('GET, POST');
    expect(updated.status).toBe(200);
    expect(updated.body.title.raw).toBe('Zmieniony');
    expect(deleted.body.deleted).toBe(true);
    expect(missing).toEqual({
      body: { code: 'rest_post_invalid_id', message: 'Invalid post ID.', data: { status: 404 } },
      status: 404,
      headers: [],
    });
    expect(site.control.getItem('pl', 'posts', created.body.id)?.title).toBe('Z paczki');
  });

  it('writes nothing under require-all-validate when one request is invalid', async () => {
    const before = await postCount();
    const response = await batch({
      validation: 'require-all-validate',
      requests: [
        { path: '/cms/v2/posts', body: { title: 'A', status: 'publish' } },
        { path: '/cms/v2/posts', body: { title: 'B', status: 'bogus' } },
        { path: '/cms/v2/nothing', body: {} },
      ],
    });
    expect(response.status).toBe(207);
    expect(response.body.failed).toBe('validation');
    expect(response.body.responses[0]).toBeNull();
    expect(response.body.responses[1]).toMatchObject({
      status: 400,
      headers: [],
      body: { code: 'rest_invalid_param' },
    });
    expect(response.body.responses[1].body.data.details.status.code).toBe('rest_not_in_enum');
    expect(response.body.responses[2].body.code).toBe('rest_no_route');
    expect(await postCount()).toBe(before);
  });

  it('checks only arguments under require-all-validate: a save-time error lets the others land', async () => {
    const [first, second] = (await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 2 } }))
      .body;
    const response = await batch({
      validation: 'require-all-validate',
      requests: [
        { method: 'POST', path: `/cms/v2/posts/${first.id}`, body: { title: 'Zapisany' } },
        { method: 'POST', path: `/cms/v2/posts/${second.id}`, body: { author: 999 } },
      ],
    });
    expect(response.status).toBe(207);
    expect(response.body.failed).toBeNull();
    expect(response.body.responses[0].status).toBe(200);
    expect(response.body.responses[0].body.title.raw).toBe('Zapisany');
    expect(response.body.responses[1]).toMatchObject({
      status: 400,
      body: { code: 'rest_invalid_author', message: 'Invalid author ID.', data: { status: 400 } },
    });
    expect(site.control.getItem('pl', 'posts', first.id)?.title).toBe('Zapisany');
    expect(site.control.getItem('pl', 'posts', second.id)?.author).not.toBe(999);
  });

  it('runs the valid requests in normal mode', async () => {
    const before = await postCount();
    const response = await batch({
      requests: [
        { path: '/cms/v2/posts', body: { title: 'A', status: 'publish' } },
        { path: '/cms/v2/posts', body: { status: 'bogus' } },
      ],
    });
    expect(response.body.failed).toBeNull();
    expect(response.body.responses.map((sub: Json) => sub.status)).toEqual([201, 400]);
    expect(await postCount()).toBe(before + 1);
  });

  it('allows at most 25 requests and only allow_batch routes', async () => {
    const request = { path: '/cms/v2/posts', body: { title: 'x' } };
    const tooMany = await batch({ requests: Array.from({ length: 26 }, () => request) });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.code).toBe('rest_invalid_param');
    expect(tooMany.body.data.details.requests.code).toBe('rest_too_many_items');
    const exactly = await batch({ requests: Array.from({ length: 25 }, () => request) });
    expect(exactly.body.responses).toHaveLength(25);
    const media = await batch({ requests: [{ path: '/cms/v2/media', body: {} }] });
    expect(media.body.responses[0]).toMatchObject({
      status: 400,
      body: { code: 'rest_batch_not_allowed' },
    });
    const get = await batch({ requests: [{ method: 'GET', path: '/cms/v2/posts' }] });
    expect(get.status).toBe(400);
    expect(get.body.data.details.requests.code).toBe('rest_not_in_enum');
    const noPath = await batch({ requests: [{ body: {} }] });
    expect(noPath.body.data.details.requests.code).toBe('rest_property_required');
    const missing = await batch({});
    expect(missing.body.code).toBe('rest_missing_callback_param');
    const badMode = await batch({ validation: 'strict', requests: [request] });
    expect(badMode.body.data.details.validation.code).toBe('rest_not_in_enum');
  });

  it('checks permissions per request', async () => {
    const before = await postCount();
    const response = await batch(
      { requests: [{ path: '/cms/v2/posts', body: { title: 'x' } }] },
      false,
    );
    expect(response.status).toBe(207);
    expect(response.body.responses[0]).toMatchObject({
      status: 401,
      body: { code: 'rest_cannot_create' },
    });
    expect(await postCount()).toBe(before);
  });
});
