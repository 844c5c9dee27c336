import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CmsClient } from '../../../src/client/index.js';
import { AccessError, AuthError, HttpError, SiteError } from '../../../src/errors.js';
import { checkAccess } from '../../../src/sync/access-check.js';
import { useSite } from '../../helpers/mirror-fixture.js';
import {
  listAnswer,
  restError,
  startScriptedSite,
  type ScriptedAnswer,
} from '../../helpers/sync/access-check-server.js';
import type { TestServer } from '../../helpers/test-server.js';

const names = { user: 'SITE_USER', password: 'SITE_PASS' };

/**
 * The check a pull with credentials makes before storing anything: run with the real client
 * against the reference site (whose users have the roles deployed servers have) and against a
 * scripted site for refusals the reference does not make. What the site holds and answers is
 * the oracle: its records, its request log, its refusals.
 */
describe('checkAccess against the reference site', () => {
  const fixture = useSite({ languages: ['pl'] });
  let clients: CmsClient[];
  beforeEach(() => {
    clients = [];
  });
  afterEach(async () => {
    await Promise.all(clients.map((client) => client.close()));
  });

  function client(auth: { user: string; password: string } | undefined): CmsClient {
    const made = new CmsClient({
      site: fixture.site.url,
      lang: 'pl',
      requestsPerSecond: 0,
      retries: 0,
      ...(auth === undefined ? {} : { auth }),
    });
    clients.push(made);
    return made;
  }

  it('anonymous: asks nothing and knows no totals', async () => {
    const { site } = fixture;
    site.control.clearLog();
    const totals = await checkAccess(client(undefined), { names, backup: true });
    expect(totals.size).toBe(0);
    expect(site.requests).toEqual([]);
  });

  it('an editor: one edit-mode request per collection, and the totals of every status', async () => {
    const { site } = fixture;
    site.control.clearLog();
    const totals = await checkAccess(client(site.credentials), { names, backup: true });
    expect(new Set(totals.keys())).toEqual(new Set(['posts', 'pages', 'media']));
    // The credentials check is the posts total: no request of its own.
    expect(totals.get('posts')).toBe(site.control.listItems('pl', 'posts').length);
    expect(totals.get('pages')).toBe(site.control.listItems('pl', 'pages').length);
    expect(totals.get('media')).toBe(site.control.listItems('pl', 'media').length);
    const asked = site.requests.map(
      (r) => `${r.path} ${r.query['context']} ${r.query['per_page']}`,
    );
    expect(asked.sort()).toEqual([
      '/cms/v2/media edit 1',
      '/cms/v2/pages edit 1',
      '/cms/v2/posts edit 1',
    ]);
    // Posts and pages are asked for with every status a backup holds (drafts and trash too).
    for (const path of ['/cms/v2/posts', '/cms/v2/pages']) {
      const asked = site.requests.find((r) => r.path === path)!;
      expect(String(asked.query['status[]'] ?? asked.query['status'])).toMatch(/draft/);
      expect(String(asked.query['status[]'] ?? asked.query['status'])).toMatch(/trash/);
    }
  });

  it('a subscriber: refused on the first collection, the advice names the way out', async () => {
    const { site } = fixture;
    const error = await checkAccess(client(site.roleCredentials.subscriber), {
      names,
      backup: false,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccessError);
    const access = error as AccessError;
    expect(access.message).toMatch(/accepted the credentials in SITE_USER\/SITE_PASS/);
    expect(access.message).toMatch(/403/);
    expect(access.message).toMatch(
      /, or pull without SITE_USER\/SITE_PASS \(published content only\)$/,
    );
    expect(access.refused).toMatch(/^GET http:\/\/127\.0\.0\.1:\d+\/pl\/cms-json\/cms\/v2\/posts/);
    expect(access.cause).toBeInstanceOf(AccessError);
    expect(access.exitCode).toBe(2);
  });

  it('an author asked for a backup: unpublished pages are refused, named with the 400 and the way out', async () => {
    const { site } = fixture;
    site.control.clearLog();
    const error = await checkAccess(client(site.roleCredentials.author), {
      names,
      backup: true,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AccessError);
    const access = error as AccessError;
    expect(access.refused).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/pl\/cms-json\/cms\/v2\/pages\?/,
    );
    expect(access.message).toContain(
      'the site accepted the credentials in SITE_USER/SITE_PASS, but that user may not list pages that are not published (draft, pending, private, future, trash) (GET ',
    );
    expect(access.message).toContain(
      ' answered 400 rest_invalid_param rest_forbidden_status); use another user whose role may edit posts, pages and media (an editor or administrator), or pull without --backup and without SITE_USER/SITE_PASS (published content only)',
    );
    expect(access.message.endsWith('(published content only)')).toBe(true);
    expect(access.cause).toBeInstanceOf(HttpError);
    expect((access.cause as HttpError).status).toBe(400);
  });

  it('a wrong password: the credentials error, as the client words it', async () => {
    const { site } = fixture;
    const error = await checkAccess(client({ user: site.credentials.user, password: 'nope' }), {
      names,
      backup: true,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).message).toMatch(/refused the credentials in SITE_USER\/SITE_PASS/);
    expect((error as AuthError).message).not.toMatch(/or pull without/);
  });
});

describe('checkAccess against a scripted site', () => {
  let server: TestServer | undefined;
  let made: CmsClient | undefined;
  afterEach(async () => {
    await made?.close();
    await server?.close();
    server = undefined;
    made = undefined;
  });

  async function check(
    answers: Record<string, ScriptedAnswer | ((url: URL) => ScriptedAnswer)>,
    backup = false,
  ): Promise<ReadonlyMap<string, number | undefined>> {
    server = await startScriptedSite({ posts: listAnswer(3), ...answers });
    made = new CmsClient({
      site: server.url,
      lang: 'pl',
      requestsPerSecond: 0,
      retries: 0,
      auth: { user: 'u', password: 'p' },
    });
    return checkAccess(made, { names, backup });
  }

  async function refusal(
    answers: Record<string, ScriptedAnswer | ((url: URL) => ScriptedAnswer)>,
    backup = false,
  ): Promise<unknown> {
    return check(answers, backup).catch((e: unknown) => e);
  }

  it('returns what each collection totals (undefined when the site sends no total)', async () => {
    const totals = await check({
      pages: listAnswer(0),
      media: { status: 200, body: [] },
    });
    expect([...totals.entries()].sort()).toEqual([
      ['media', undefined],
      ['pages', 0],
      ['posts', 3],
    ]);
    // Three requests: the posts total is the credentials check.
    expect(server?.requests).toHaveLength(3);
  });

  /** A status refusal of posts as deployed servers send it (`data.status` 401 or 403). */
  const statusRefused = (status: number): ScriptedAnswer =>
    restError(400, 'rest_invalid_param', {
      status: { code: 'rest_forbidden_status', data: { status } },
    });

  it('a wrong password answered as anonymous (posts statuses refused): asks the plain check, and says the credentials were refused', async () => {
    const error = await refusal({
      posts: (url) =>
        url.searchParams.has('status[]') || url.searchParams.has('status')
          ? statusRefused(401)
          : restError(401, 'rest_forbidden_context'),
      pages: statusRefused(401),
      media: listAnswer(2),
    });
    expect(error).toBeInstanceOf(AuthError);
    expect((error as AuthError).message).toMatch(/refused the credentials in SITE_USER\/SITE_PASS/);
    // The total, then the plain `context=edit` check that told the two apart.
    const posts = server!.requests.filter((r) => r.url.startsWith('/pl/cms-json/cms/v2/posts'));
    expect(posts).toHaveLength(2);
    expect(posts[1]!.url).not.toMatch(/status/);
  });

  it('posts statuses refused to a user whose credentials hold: names the refused posts listing', async () => {
    const error = await refusal(
      {
        posts: (url) =>
          url.searchParams.has('status[]') || url.searchParams.has('status')
            ? statusRefused(403)
            : listAnswer(3),
        pages: listAnswer(1),
        media: listAnswer(2),
      },
      true,
    );
    expect(error).toBeInstanceOf(AccessError);
    expect((error as AccessError).message).toContain(
      'but that user may not list posts that are not published',
    );
    expect((error as AccessError).refused).toMatch(/\/cms\/v2\/posts\?.*status/);
  });

  it('names a 403 on a later collection as edit-mode reading refused, with the server code', async () => {
    const error = await refusal({
      pages: listAnswer(1),
      media: restError(403, 'rest_forbidden_context'),
    });
    expect(error).toBeInstanceOf(AccessError);
    const message = (error as AccessError).message;
    expect(message).toContain('but that user may not read media with context=edit (GET ');
    expect(message).toContain(' answered 403 rest_forbidden_context); use another user');
    expect(message).toMatch(/, or pull without SITE_USER\/SITE_PASS \(published content only\)$/);
    expect((error as AccessError).refused).toMatch(
      /^GET http:\/\/127\.0\.0\.1:\d+\/pl\/cms-json\/cms\/v2\/media\?/,
    );
  });

  it('names a 401 without a server code as such', async () => {
    const error = await refusal({ pages: { status: 401, body: {} }, media: listAnswer(2) });
    expect(error).toBeInstanceOf(AccessError);
    expect((error as AccessError).message).toContain('may not read pages with context=edit');
    expect((error as AccessError).message).toMatch(/ answered 401\); use another user/);
  });

  it('takes a 400 as refused only when a refused parameter says rest_forbidden_status', async () => {
    const forbidden = await refusal(
      {
        pages: restError(400, 'rest_invalid_param', {
          orderby: { code: 'rest_not_in_enum' },
          status: { code: 'rest_forbidden_status' },
        }),
        media: listAnswer(2),
      },
      true,
    );
    expect(forbidden).toBeInstanceOf(AccessError);
    expect((forbidden as AccessError).message).toMatch(/without --backup and without/);
    for (const pages of [
      restError(400, 'rest_invalid_param', { orderby: { code: 'rest_not_in_enum' } }),
      restError(400, 'rest_invalid_param', { status: null }),
      restError(400, 'rest_invalid_param'),
      { status: 400, body: { code: 'rest_invalid_param', message: 'no data' } },
      restError(400, 'rest_other_code', { status: { code: 'rest_forbidden_status' } }),
      restError(404, 'rest_invalid_param', { status: { code: 'rest_forbidden_status' } }),
      restError(500, 'internal_error'),
    ]) {
      const error = await refusal({ pages, media: listAnswer(2) });
      expect(error).toBeInstanceOf(HttpError);
      expect(error).not.toBeInstanceOf(AccessError);
      expect((error as HttpError).url).toMatch(/\/cms\/v2\/pages\?/);
      await made?.close();
      await server?.close();
      made = undefined;
      server = undefined;
    }
  });

  it('lets an answer that is not a list through as the site error it is, naming the URL', async () => {
    const error = await refusal({ pages: listAnswer(1), media: { status: 200, body: {} } });
    expect(error).toBeInstanceOf(SiteError);
    expect((error as SiteError).message).toMatch(
      /\/cms\/v2\/media\?.* answered something other than a list/,
    );
  });

  it('lets a failure of the credentials check itself through unchanged', async () => {
    const error = await refusal({ posts: restError(500, 'internal_error') });
    expect(error).toBeInstanceOf(HttpError);
    expect((error as HttpError).status).toBe(500);
    expect((error as HttpError).url).toMatch(/\/cms\/v2\/posts\?/);
  });
});
