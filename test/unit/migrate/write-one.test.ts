import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/errors.js';
import { writeOne } from '../../../src/migrate/write-one.js';
import type { SiteSession } from '../../../src/push/site-session.js';

/** One create outside a batch, answered as a batch sub-response is (what migration records). */
describe('writeOne', () => {
  function session(answer: () => unknown) {
    const calls: { method: string; route: string; options: unknown }[] = [];
    const client = {
      request: async (method: string, route: string, options: unknown) => {
        calls.push({ method, route, options });
        return { status: 201, headers: {}, data: answer(), url: '' };
      },
    };
    return { calls, session: { lang: 'pl', client, index: {} } as unknown as SiteSession };
  }

  it('sends one POST with the body and says whether it may be repeated; answers the created item', async () => {
    const { calls, session: s } = session(() => ({ id: 77, slug: 'a' }));
    const outcome = await writeOne(s, 'cms/v2/posts', { title: 'A' }, '12', false);
    expect(outcome).toEqual({ ref: '12', ok: true, status: 201, item: { id: 77, slug: 'a' } });
    expect(calls).toEqual([
      {
        method: 'POST',
        route: 'cms/v2/posts',
        options: { body: { title: 'A' }, idempotent: false },
      },
    ]);
    await writeOne(s, 'cms/v2/posts', {}, '13', true);
    expect(calls[1]!.options).toEqual({ body: {}, idempotent: true });
  });

  it("answers the site's refusal with its code and message, as a failed item (not an error)", async () => {
    const { session: s } = session(() => {
      throw new HttpError({
        status: 400,
        method: 'POST',
        url: 'https://target.test/cms/v2/posts',
        serverCode: 'rest_invalid_param',
        serverMessage: 'Invalid parameter(s): status',
      });
    });
    expect(await writeOne(s, 'cms/v2/posts', {}, '5', false)).toEqual({
      ref: '5',
      ok: false,
      status: 400,
      code: 'rest_invalid_param',
      message: 'Invalid parameter(s): status',
      notRun: false,
    });
  });

  it('names the HTTP status when the site sent no error body', async () => {
    const error = new HttpError({ status: 502, method: 'POST', url: 'https://target.test/x' });
    const { session: s } = session(() => {
      throw error;
    });
    expect(await writeOne(s, 'cms/v2/pages', {}, '6', false)).toEqual({
      ref: '6',
      ok: false,
      status: 502,
      code: 'http_502',
      message: error.message,
      notRun: false,
    });
    expect(error.message).toContain('502');
  });

  it('lets any other failure (a lost connection) end the run', async () => {
    const { session: s } = session(() => {
      throw new TypeError('fetch failed');
    });
    await expect(writeOne(s, 'cms/v2/posts', {}, '7', false)).rejects.toThrow('fetch failed');
  });
});
