import { beforeEach, describe, expect, it } from 'vitest';
import {
  parseSiteIndex,
  type BatchRequest,
  type BatchValidation,
  type CmsClient,
} from '../../../src/client/index.js';
import { HttpError } from '../../../src/errors.js';
import { sendChunk } from '../../../src/push/send-chunk.js';
import type { SiteSession } from '../../../src/push/site-session.js';

/**
 * Push batching (issue 11): a chunk of writes goes through `POST batch/v1` in one call when the
 * site's index allows every request's route and method in a batch (`allow_batch: {v1: true}`,
 * cms-rest-interface.md), else each request goes on its own and the answers come back in the
 * batch's shape, in order. A batch with a create must not be repeated by the client's retries.
 * The site index is parsed from an index body as a server sends it; the client is a recorder.
 */

const batchable = { allow_batch: { v1: true } };

/** Posts: create, update and trash in a batch. Pages: update only, never in a batch. Media: only DELETE in a batch. */
const index = parseSiteIndex('https://edit.test/pl/cms-json/', {
  namespaces: ['cms/v2'],
  routes: {
    '/batch/v1': { methods: ['POST'], endpoints: [{ methods: ['POST'], args: {} }] },
    '/cms/v2/posts': {
      methods: ['GET', 'POST'],
      endpoints: [
        { methods: ['GET'], args: {} },
        { methods: ['POST'], args: {}, ...batchable },
      ],
    },
    '/cms/v2/posts/(?P<id>[\\d]+)': {
      methods: ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'],
      endpoints: [
        { methods: ['GET'], args: {} },
        { methods: ['POST', 'PUT', 'PATCH'], args: {}, ...batchable },
        { methods: ['DELETE'], args: {}, ...batchable },
      ],
    },
    '/cms/v2/pages/(?P<id>[\\d]+)': {
      methods: ['GET', 'POST', 'DELETE'],
      endpoints: [
        { methods: ['GET'], args: {} },
        { methods: ['POST', 'DELETE'], args: {} },
      ],
    },
    '/cms/v2/media/(?P<id>[\\d]+)': {
      methods: ['GET', 'POST', 'DELETE'],
      endpoints: [
        { methods: ['GET', 'POST'], args: {} },
        { methods: ['DELETE'], args: {}, ...batchable },
      ],
    },
  },
});

interface BatchCall {
  requests: readonly BatchRequest[];
  validation: BatchValidation;
  options: { idempotent?: boolean } | undefined;
}

interface OneCall {
  method: string;
  path: string;
  options: Record<string, unknown>;
}

class RecordingClient {
  readonly batches: BatchCall[] = [];
  readonly singles: OneCall[] = [];
  /** What a single request to a path answers or throws; default 200 with `{ ok: path }`. */
  readonly answers = new Map<string, { status: number; data: unknown } | Error>();

  session(): SiteSession {
    const client = {
      batch: async (
        requests: readonly BatchRequest[],
        validation: BatchValidation,
        options?: { idempotent?: boolean },
      ) => {
        this.batches.push({ requests, validation, options });
        return {
          failed: null,
          responses: requests.map((request) => ({
            status: 200,
            body: { batched: request.path },
            headers: {},
          })),
        };
      },
      request: async (method: string, path: string, options: Record<string, unknown> = {}) => {
        this.singles.push({ method, path, options });
        const answer = this.answers.get(path) ?? { status: 200, data: { ok: path } };
        if (answer instanceof Error) throw answer;
        return answer;
      },
    };
    return { lang: 'pl', client: client as unknown as CmsClient, index };
  }
}

const chunk = (requests: BatchRequest[]) => ({
  lang: 'pl',
  requests,
  refs: requests.map((_, n) => `edit-${n}`),
});

describe('sendChunk (one chunk of push writes)', () => {
  let site: RecordingClient;
  beforeEach(() => {
    site = new RecordingClient();
  });

  it('sends a chunk whose every route allows batching in one batch call, not repeatable when it creates', async () => {
    const requests: BatchRequest[] = [
      { method: 'POST', path: '/cms/v2/posts', body: { title: 'new' } },
      { method: 'POST', path: '/cms/v2/posts/5', body: { title: 'changed' } },
      { method: 'DELETE', path: '/cms/v2/posts/6' },
    ];
    const sent = await sendChunk(site.session(), chunk(requests), 'require-all-validate');
    expect(sent.batchCalls).toBe(1);
    expect(site.singles).toEqual([]);
    expect(site.batches).toHaveLength(1);
    expect(site.batches[0]!.requests).toEqual(requests);
    expect(site.batches[0]!.validation).toBe('require-all-validate');
    expect(site.batches[0]!.options).toEqual({ idempotent: false });
    expect(sent.result.responses.map((response) => response?.body)).toEqual(
      requests.map((request) => ({ batched: request.path })),
    );
  });

  it('marks a batch of updates and trashes only as repeatable, and passes the validation given', async () => {
    const requests: BatchRequest[] = [
      { path: '/cms/v2/posts/5', body: { title: 'changed' } },
      { method: 'DELETE', path: '/cms/v2/posts/16' },
    ];
    const sent = await sendChunk(site.session(), chunk(requests), 'normal');
    expect(sent.batchCalls).toBe(1);
    expect(site.batches.map((call) => [call.validation, call.options])).toEqual([
      ['normal', { idempotent: true }],
    ]);
  });

  it('reads a request without a method as POST when asking the index', async () => {
    // Media allows only DELETE in a batch: a method-less request (a POST) must go on its own.
    const requests: BatchRequest[] = [{ path: '/cms/v2/media/3', body: { alt_text: 'x' } }];
    const sent = await sendChunk(site.session(), chunk(requests), 'normal');
    expect(sent.batchCalls).toBe(0);
    expect(site.batches).toEqual([]);
    expect(site.singles.map((call) => [call.method, call.path])).toEqual([
      ['POST', '/cms/v2/media/3'],
    ]);
    // DELETE of media is batchable.
    const trash = await sendChunk(
      site.session(),
      chunk([{ method: 'DELETE', path: '/cms/v2/media/3' }]),
      'normal',
    );
    expect(trash.batchCalls).toBe(1);
  });

  it('sends every request of a chunk one by one, in order, when one route does not allow batching', async () => {
    const requests: BatchRequest[] = [
      { method: 'POST', path: '/cms/v2/posts/5', body: { title: 'changed' } },
      { method: 'POST', path: '/cms/v2/pages/7', body: { title: 'page' } },
      { method: 'DELETE', path: '/cms/v2/posts/6' },
    ];
    site.answers.set('/cms/v2/posts/5', { status: 200, data: { id: 5, title: 'changed' } });
    site.answers.set('/cms/v2/pages/7', { status: 201, data: { id: 7 } });
    site.answers.set('/cms/v2/posts/6', { status: 200, data: { deleted: true } });
    const sent = await sendChunk(site.session(), chunk(requests), 'require-all-validate');
    expect(sent.batchCalls).toBe(0);
    expect(site.batches).toEqual([]);
    expect(site.singles).toEqual([
      { method: 'POST', path: '/cms/v2/posts/5', options: { body: { title: 'changed' } } },
      { method: 'POST', path: '/cms/v2/pages/7', options: { body: { title: 'page' } } },
      // A trash carries no body.
      { method: 'DELETE', path: '/cms/v2/posts/6', options: {} },
    ]);
    expect(sent.result).toEqual({
      failed: null,
      responses: [
        { status: 200, body: { id: 5, title: 'changed' }, headers: {} },
        { status: 201, body: { id: 7 }, headers: {} },
        { status: 200, body: { deleted: true }, headers: {} },
      ],
    });
  });

  it('turns an HTTP error of one request into its answer and goes on; any other error stops the chunk', async () => {
    const conflict = { code: 'rest_conflict', message: 'changed meanwhile' };
    site.answers.set(
      '/cms/v2/pages/7',
      new HttpError({ status: 409, method: 'POST', url: 'https://edit.test/x', body: conflict }),
    );
    const requests: BatchRequest[] = [
      { method: 'POST', path: '/cms/v2/pages/7', body: { title: 'page' } },
      { method: 'POST', path: '/cms/v2/pages/8', body: { title: 'other' } },
    ];
    const sent = await sendChunk(site.session(), chunk(requests), 'normal');
    expect(sent.result.responses).toEqual([
      { status: 409, body: conflict, headers: {} },
      { status: 200, body: { ok: '/cms/v2/pages/8' }, headers: {} },
    ]);
    site.answers.set('/cms/v2/pages/8', new Error('connection lost'));
    await expect(sendChunk(site.session(), chunk(requests), 'normal')).rejects.toThrow(
      'connection lost',
    );
  });
});
