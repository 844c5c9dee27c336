import { describe, expect, it } from 'vitest';
import { HttpError } from '../../../src/errors.js';
import {
  fetchSeoConfiguration,
  indexSummary,
  representationFromItem,
  siteInfoDocument,
} from '../../../src/sync/site-info.js';
import { useSite } from '../../helpers/mirror-fixture.js';
import { getJson } from '../../helpers/reference.js';
import { answeringClient, refusingClient } from '../../helpers/sync/site-info-clients.js';
import { useSiteClients } from '../../helpers/sync/site-clients.js';

/**
 * What `site_info` stores: the index summary the build needs, and the site representation
 * (from the seo configuration with credentials, else from an item's schema graph). The
 * configuration is read from an in-process reference site over HTTP; the site's answers are
 * the oracle.
 */
describe('fetchSeoConfiguration against the reference site', () => {
  const fixture = useSite({ posts: 0, pages: 0, media: 0, languages: ['pl'] });
  const client = useSiteClients(fixture);

  it('with credentials: the configuration state as the site sends it, marked as such', async () => {
    const { site } = fixture;
    const sent = await getJson(site, 'pl', '/seo/v1/configuration/get_configuration_state', {
      auth: true,
    });
    expect(sent.status).toBe(200);
    const seo = await fetchSeoConfiguration(client(true));
    expect(seo).toEqual({ ...sent.body.data, source: 'configuration' });
    expect(Object.keys(seo!).sort()).toEqual([...Object.keys(sent.body.data), 'source'].sort());
  });

  it('anonymously: the site refuses the route, and nothing is known (no error)', async () => {
    const { site } = fixture;
    const refused = await getJson(site, 'pl', '/seo/v1/configuration/get_configuration_state');
    expect(refused.status).toBeGreaterThanOrEqual(400);
    expect(refused.status).toBeLessThan(500);
    expect(await fetchSeoConfiguration(client(false))).toBeUndefined();
  });

  it('a site failing with 500 is an error, not a missing configuration', async () => {
    fixture.site.control.setFaults({ error: 1 });
    await expect(fetchSeoConfiguration(client(true))).rejects.toMatchObject({ status: 500 });
  });
});

describe('fetchSeoConfiguration: what counts as "no configuration"', () => {
  it('is undefined for every client error (400 to 499): a site without the route or refusing it', async () => {
    for (const status of [400, 401, 403, 404, 499]) {
      expect(await fetchSeoConfiguration(refusingClient(status))).toBeUndefined();
    }
  });

  it('rethrows server errors (500 and up), redirects left unfollowed and other errors', async () => {
    for (const status of [500, 503, 399]) {
      const error = await fetchSeoConfiguration(refusingClient(status)).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(HttpError);
      expect((error as HttpError).status).toBe(status);
    }
    const other = new Error('socket closed');
    await expect(fetchSeoConfiguration(refusingClient(other))).rejects.toBe(other);
  });

  it('is undefined for an answer without an object under data', async () => {
    for (const body of [null, {}, { data: null }, { data: 'yes' }, { data: 3 }]) {
      expect(await fetchSeoConfiguration(answeringClient(body))).toBeUndefined();
    }
    expect(await fetchSeoConfiguration(answeringClient({ data: { a: 1 } }))).toEqual({
      a: 1,
      source: 'configuration',
    });
    // A `source` sent by the site does not override the mark.
    expect(
      await fetchSeoConfiguration(answeringClient({ data: { source: 'schema', b: 2 } })),
    ).toEqual({ source: 'configuration', b: 2 });
  });
});

describe('indexSummary of the reference site index', () => {
  const fixture = useSite({ posts: 0, pages: 0, media: 0, languages: ['pl'] });

  it('keeps exactly the summary fields the site sends, with their values', async () => {
    const index = await getJson(fixture.site, 'pl', '/');
    expect(index.status).toBe(200);
    const fields = [
      'name',
      'description',
      'url',
      'home',
      'gmt_offset',
      'timezone_string',
      'page_for_posts',
      'page_on_front',
      'show_on_front',
      'site_logo',
      'site_icon',
      'site_icon_url',
    ];
    const sent = fields.filter((field) => field in index.body);
    expect(sent.length).toBeGreaterThan(6);
    const summary = indexSummary(index.body);
    expect(Object.keys(summary).sort()).toEqual([...sent].sort());
    for (const field of sent) expect(summary[field]).toEqual(index.body[field]);
  });

  it('leaves out fields the index does not send (no key with undefined), keeps null and 0', () => {
    const summary = indexSummary({ name: 'S', site_logo: null, page_on_front: 0, other: 1 });
    expect(Object.keys(summary).sort()).toEqual(['name', 'page_on_front', 'site_logo']);
    expect(summary).toEqual({ name: 'S', site_logo: null, page_on_front: 0 });
  });
});

describe('representationFromItem', () => {
  const org = { '@type': 'Organization', name: 'Firma' };

  it('is undefined when the head, the schema or the graph is missing or of the wrong kind', () => {
    for (const item of [
      {},
      { seo_head_json: 'x' },
      { seo_head_json: {} },
      { seo_head_json: { schema: null } },
      { seo_head_json: { schema: 'x' } },
      { seo_head_json: { schema: {} } },
      { seo_head_json: { schema: { '@graph': { 0: org } } } },
      { seo_head_json: { schema: { '@graph': [] } } },
    ]) {
      expect(representationFromItem(item)).toBeUndefined();
    }
  });

  it('skips nodes that are not objects and nodes of other types', () => {
    const person = { '@type': 'Person', name: 'Ana' };
    expect(
      representationFromItem({
        seo_head_json: {
          schema: { '@graph': [null, 'Organization', 7, { '@type': ['WebPage'] }, person] },
        },
      }),
    ).toBe(person);
    expect(
      representationFromItem({
        seo_head_json: { schema: { '@graph': [{ '@type': 'WebSite' }, { name: 'x' }] } },
      }),
    ).toBeUndefined();
    // The first matching node wins.
    expect(representationFromItem({ seo_head_json: { schema: { '@graph': [org, person] } } })).toBe(
      org,
    );
  });
});

describe('siteInfoDocument', () => {
  const configuration = { source: 'configuration' as const, social_profiles: { x: 1 } };
  const schema = { source: 'schema' as const, schema_node: { '@type': 'Person' } };
  const newer = { source: 'schema' as const, schema_node: { '@type': 'Organization' } };

  it('puts the language and every summary field next to seo', () => {
    expect(siteInfoDocument('es', { name: 'S', url: 'http://x' }, schema, null)).toStrictEqual({
      lang: 'es',
      name: 'S',
      url: 'http://x',
      seo: schema,
    });
  });

  it('takes a new schema node over an old one, and the old one when there is no new one', () => {
    expect(siteInfoDocument('pl', {}, newer, { seo: schema }).seo).toBe(newer);
    expect(siteInfoDocument('pl', {}, undefined, { seo: schema }).seo).toEqual(schema);
    expect(siteInfoDocument('pl', {}, newer, { seo: configuration }).seo).toEqual(configuration);
    expect(siteInfoDocument('pl', {}, configuration, { seo: schema }).seo).toBe(configuration);
  });

  it('takes a new configuration over an older configuration', () => {
    const older = { source: 'configuration' as const, social_profiles: { x: 0 } };
    expect(siteInfoDocument('pl', {}, configuration, { seo: older }).seo).toBe(configuration);
  });

  it('ignores a previous document or seo that is not an object', () => {
    for (const previous of [null, 'x', 3, { seo: null }, { seo: 'configuration' }, {}]) {
      expect(siteInfoDocument('pl', {}, undefined, previous).seo).toBeNull();
      expect(siteInfoDocument('pl', {}, newer, previous).seo).toBe(newer);
    }
  });
});
