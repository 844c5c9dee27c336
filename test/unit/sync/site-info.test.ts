import { describe, expect, it } from 'vitest';
import {
  indexSummary,
  representationFromItem,
  siteInfoDocument,
} from '../../../src/sync/site-info.js';

describe('site info', () => {
  it('keeps the index summary fields and drops routes and namespaces', () => {
    expect(
      indexSummary({ name: 'S', url: 'http://x', gmt_offset: '2', routes: {}, namespaces: [] }),
    ).toEqual({ name: 'S', url: 'http://x', gmt_offset: '2' });
  });

  it('finds the Organization or Person node of an item schema graph', () => {
    const org = { '@type': 'Organization', name: 'Firma' };
    expect(
      representationFromItem({
        seo_head_json: { schema: { '@graph': [{ '@type': 'WebPage' }, org] } },
      }),
    ).toEqual(org);
    const person = { '@type': ['Person', 'Organization'], name: 'Ana' };
    expect(representationFromItem({ seo_head_json: { schema: { '@graph': [person] } } })).toEqual(
      person,
    );
    expect(representationFromItem({ seo_head_json: null })).toBeUndefined();
  });

  it('prefers the configuration, keeps an earlier one over a schema node, and keeps the old seo when none is new', () => {
    const configuration = {
      source: 'configuration' as const,
      site_representation: { company_or_person: 'company' },
    };
    const schema = { source: 'schema' as const, schema_node: { '@type': 'Person' } };
    expect(siteInfoDocument('pl', { name: 'S' }, configuration, undefined)).toEqual({
      lang: 'pl',
      name: 'S',
      seo: configuration,
    });
    expect(siteInfoDocument('pl', { name: 'S' }, schema, { seo: configuration }).seo).toEqual(
      configuration,
    );
    expect(siteInfoDocument('pl', { name: 'S' }, undefined, { seo: schema }).seo).toEqual(schema);
    expect(siteInfoDocument('pl', { name: 'S' }, undefined, undefined).seo).toBeNull();
  });
});
