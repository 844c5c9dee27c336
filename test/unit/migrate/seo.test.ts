import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/errors.js';
import type { MigrateContext } from '../../../src/migrate/recovery.js';
import { copySeoSettings } from '../../../src/migrate/seo.js';
import type { SourceSeo } from '../../../src/migrate/source.js';
import { openSiteSession, type SiteSession } from '../../../src/push/site-session.js';
import { getJson, startReference, type ReferenceSite } from '../../helpers/reference.js';

/**
 * The seo/v1 settings a migration copies after the content, and the indexing it runs: first
 * against a reference target on 127.0.0.1 (what its settings are afterwards, logo ids and
 * URLs pointing at the migrated media), then against a scripted target for how the indexing
 * routes are walked and how failures are reported (never fatal).
 */
const ROUTES = [
  'indexing/prepare',
  'indexing/posts',
  'indexing/terms',
  'indexing/post-type-archives',
  'indexing/general',
  'indexing/indexables-complete',
  'indexing/complete',
];

function context(media: [number, number][] = [], urls: [string, string][] = []): MigrateContext {
  return {
    ids: { posts: new Map(), pages: new Map(), media: new Map(media) },
    authors: new Map(),
    urls: new Map(urls),
    sourceHome: 'https://source.test/pl/',
    targetHome: 'https://target.test/pl/',
    sourceUrl: 'https://source.test',
    targetUrl: 'https://target.test',
  };
}

describe('copySeoSettings against a reference target', () => {
  let target: ReferenceSite;
  let session: SiteSession;
  beforeAll(async () => {
    target = await startReference({ posts: 40, pages: 0, media: 1, languages: ['pl'], seed: 't' });
    session = await openSiteSession({
      site: target.url,
      lang: 'pl',
      credentials: target.credentials,
      http: { requestsPerSecond: 0, retries: 0 },
    });
  });
  afterAll(async () => {
    await session.client.close();
    await target.close();
  });

  it('copies the representation and social profiles (logos remapped), then indexes everything', async () => {
    const logo = target.control.listItems('pl', 'media')[0]!;
    const before = (
      await getJson(target, 'pl', '/seo/v1/configuration/get_configuration_state', {
        auth: true,
      })
    ).body.data;
    const targetLogoUrl = `${target.url}/pl/uploads/logo-2.png`;
    const seo: SourceSeo = {
      siteRepresentation: {
        company_or_person: 'company',
        company_name: 'Acme Source',
        company_logo: 'https://source.test/pl/uploads/logo.png',
        company_logo_id: 7,
        // A logo that was not migrated: left out, not pointed at a wrong item.
        person_logo_id: 8,
        person_logo: '',
        description: null,
        not_a_setting: 'ignored',
      },
      socialProfiles: {
        facebook_site: 'https://facebook.test/acme',
        twitter_site: 'acme_source',
        other_social_urls: ['https://video.test/acme'],
        not_a_profile: 'ignored',
      },
    };
    const warnings: string[] = [];
    const report = await copySeoSettings(
      session,
      seo,
      context([[7, logo.id]], [['https://source.test/pl/uploads/logo.png', targetLogoUrl]]),
      warnings,
    );

    const after = (
      await getJson(target, 'pl', '/seo/v1/configuration/get_configuration_state', {
        auth: true,
      })
    ).body.data;
    expect(after.site_representation).toEqual({
      ...before.site_representation,
      company_or_person: 'company',
      company_name: 'Acme Source',
      company_logo: targetLogoUrl,
      company_logo_id: logo.id,
      person_logo: '',
    });
    expect(after.social_profiles).toEqual({
      facebook_site: 'https://facebook.test/acme',
      twitter_site: 'acme_source',
      other_social_urls: ['https://video.test/acme'],
    });
    const published = target.control
      .listItems('pl', 'posts')
      .filter((item) => item.status === 'publish').length;
    expect(published).toBeGreaterThan(25); // more than one indexing chunk
    expect(report.siteRepresentation).toBe('ok (200)');
    expect(report.socialProfiles).toBe('ok (200)');
    expect(report.indexing.map((step) => step.route)).toEqual(ROUTES);
    expect(report.indexing.find((step) => step.route === 'indexing/posts')).toEqual({
      route: 'indexing/posts',
      calls: 2,
      objects: published,
      result: 'ok (200)',
    });
    expect(warnings).toEqual([]);
    const calls = report.indexing.reduce((sum, step) => sum + step.calls, 0);
    expect(report.requests).toBe(2 + calls);
    expect(
      target.requests.filter((entry) => entry.method === 'POST' && entry.path.startsWith('/seo/'))
        .length,
    ).toBe(report.requests);
  });

  it('reports a refused setting as failed, with the reason, and goes on', async () => {
    const report = await copySeoSettings(
      session,
      {
        siteRepresentation: { company_or_person: 'nobody' },
        socialProfiles: { facebook_site: 'not a url' },
      },
      context(),
      [],
    );
    expect(report.siteRepresentation).toMatch(/^failed: .*company_or_person/);
    expect(report.socialProfiles).toMatch(/^failed: .*Could not save some fields/);
    expect(report.indexing).toHaveLength(ROUTES.length);
  });
});

/** A target answering each seo/v1 POST from a script, recording what was asked. */
function scripted(
  answer: (route: string, call: number) => unknown,
  namespaces: string[] = ['cms/v2', 'seo/v1'],
) {
  const calls: { method: string; route: string; options: unknown }[] = [];
  const counts = new Map<string, number>();
  const client = {
    request: async (method: string, route: string, options: unknown) => {
      calls.push({ method, route, options });
      const n = (counts.get(route) ?? 0) + 1;
      counts.set(route, n);
      return { status: 201, headers: {}, data: answer(route, n), url: '' };
    },
  };
  const session = { lang: 'pl', client, index: { namespaces } } as unknown as SiteSession;
  return { calls, session };
}

const refused = (route: string) =>
  new HttpError({
    status: 500,
    method: 'POST',
    url: `https://target.test/pl/cms-json/${route}`,
    serverCode: 'internal_error',
    serverMessage: 'indexing broke',
  });

describe('copySeoSettings: how the target is asked', () => {
  it('skips everything on a target without seo/v1', async () => {
    const { calls, session } = scripted(() => ({}), ['cms/v2']);
    const report = await copySeoSettings(
      session,
      { siteRepresentation: {}, socialProfiles: {} },
      context(),
      [],
    );
    expect(report).toEqual({
      siteRepresentation: 'skipped: the target has no seo/v1',
      socialProfiles: 'skipped: the target has no seo/v1',
      indexing: [],
      requests: 0,
    });
    expect(calls).toEqual([]);
  });

  it('copies nothing the source cache lacks; runs each indexing route once it answers no next_url', async () => {
    const { calls, session } = scripted(() => ({ objects: [] }));
    const report = await copySeoSettings(
      session,
      { siteRepresentation: undefined, socialProfiles: undefined },
      context(),
      [],
    );
    expect(report.siteRepresentation).toBe('not in the source cache');
    expect(report.socialProfiles).toBe('not in the source cache');
    expect(calls.map((call) => call.route)).toEqual(ROUTES.map((route) => `seo/v1/${route}`));
    for (const call of calls) {
      expect(call.method).toBe('POST');
      expect(call.options).toEqual({ body: {}, idempotent: true });
    }
    expect(report.indexing).toEqual(
      ROUTES.map((route) => ({ route, calls: 1, objects: 0, result: 'ok (201)' })),
    );
    expect(report.requests).toBe(ROUTES.length);
  });

  it('repeats a route while it hands back next_url, counting the objects of every answer', async () => {
    const { session } = scripted((route, call) =>
      route === 'seo/v1/indexing/terms'
        ? { objects: call === 3 ? [1] : [1, 2], next_url: call < 3 ? 'more' : false }
        : { objects: 'not a list', next_url: '' },
    );
    const report = await copySeoSettings(
      session,
      { siteRepresentation: undefined, socialProfiles: undefined },
      context(),
      [],
    );
    expect(report.indexing.find((step) => step.route === 'indexing/terms')).toEqual({
      route: 'indexing/terms',
      calls: 3,
      objects: 5,
      result: 'ok (201)',
    });
    expect(report.indexing.filter((step) => step.calls === 1)).toHaveLength(ROUTES.length - 1);
    expect(report.requests).toBe(ROUTES.length + 2);
  });

  it('stops a route that never ends after 10000 calls', async () => {
    const { session } = scripted((route) =>
      route === 'seo/v1/indexing/general' ? { next_url: 'again' } : undefined,
    );
    const report = await copySeoSettings(
      session,
      { siteRepresentation: undefined, socialProfiles: undefined },
      context(),
      [],
    );
    expect(report.indexing.find((step) => step.route === 'indexing/general')!.calls).toBe(10_000);
    expect(report.indexing.at(-1)).toMatchObject({ route: 'indexing/complete', calls: 1 });
  });

  it('warns of a failed indexing route, stops repeating it, and runs the next ones', async () => {
    const { session } = scripted((route) => {
      if (route === 'seo/v1/indexing/posts') throw refused(route);
      return { next_url: false };
    });
    const warnings: string[] = [];
    const report = await copySeoSettings(
      session,
      { siteRepresentation: undefined, socialProfiles: undefined },
      context(),
      warnings,
    );
    const failed = report.indexing.find((step) => step.route === 'indexing/posts')!;
    expect(failed.calls).toBe(1);
    expect(failed.result).toMatch(/^failed: .*indexing broke/);
    expect(failed.result).toBe(`failed: ${refused('seo/v1/indexing/posts').message}`);
    expect(warnings).toEqual([`seo/v1/indexing/posts: ${failed.result}`]);
    expect(report.indexing).toHaveLength(ROUTES.length);
    expect(report.indexing.at(-1)!.result).toBe('ok (201)');
  });

  it('sends only the settings it knows, empty logos as empty, and not-migrated logo ids not at all', async () => {
    const { calls, session } = scripted(() => ({}));
    await copySeoSettings(
      session,
      {
        siteRepresentation: {
          company_or_person: 'person',
          company_name: undefined,
          company_logo: '',
          company_logo_id: 3,
          person_logo: 'https://source.test/pl/uploads/me.png',
          person_logo_id: 4,
          description: 'About',
          extra: 1,
        },
        socialProfiles: { twitter_site: 'me', extra: 2 },
      },
      context([[4, 40]], [['https://source.test/pl/uploads/me.png', 'https://target.test/me.png']]),
      [],
    );
    expect(calls[0]).toEqual({
      method: 'POST',
      route: 'seo/v1/configuration/site_representation',
      options: {
        body: {
          company_or_person: 'person',
          company_logo: '',
          person_logo: 'https://target.test/me.png',
          person_logo_id: 40,
          description: 'About',
        },
        idempotent: true,
      },
    });
    expect(calls[1]).toEqual({
      method: 'POST',
      route: 'seo/v1/configuration/social_profiles',
      options: { body: { twitter_site: 'me' }, idempotent: true },
    });
  });

  it('remaps only logos: other settings, and values of an unexpected type, are sent as the source has them', async () => {
    const { calls, session } = scripted(() => ({}));
    const about = 'https://source.test/pl/about/';
    await copySeoSettings(
      session,
      {
        siteRepresentation: {
          company_or_person: 'company',
          // A number where a name is expected, a logo id as text, a logo address as a number.
          company_name: 3,
          company_logo_id: '4',
          company_logo: 0,
          // Text a person wrote, even when it is an address the migration maps.
          description: about,
        },
        socialProfiles: undefined,
      },
      context(
        [
          [3, 30],
          [4, 40],
        ],
        [[about, 'https://target.test/about/']],
      ),
      [],
    );
    expect(calls[0]!.options).toEqual({
      body: {
        company_or_person: 'company',
        company_name: 3,
        company_logo_id: '4',
        company_logo: 0,
        description: about,
      },
      idempotent: true,
    });
  });

  it('lets a failure that is not the site answering (a lost connection) end the run', async () => {
    const { session } = scripted(() => {
      throw new TypeError('fetch failed');
    });
    await expect(
      copySeoSettings(
        session,
        { siteRepresentation: {}, socialProfiles: undefined },
        context(),
        [],
      ),
    ).rejects.toThrow('fetch failed');
  });
});
