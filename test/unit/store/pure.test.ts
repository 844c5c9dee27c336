import { describe, expect, it } from 'vitest';
import {
  canonicalJson,
  contentHash,
  deriveItemColumns,
  plainText,
} from '../../../src/store/index.js';

describe('canonicalJson', () => {
  it('sorts keys at every depth and keeps array order', () => {
    expect(canonicalJson({ b: 1, a: { d: [3, 1, { z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[3,1,{"y":2,"z":1}]},"b":1}',
    );
  });

  it('drops undefined like JSON.stringify and escapes strings the same way', () => {
    expect(canonicalJson({ a: undefined, b: 'quote " \u2028 ż' })).toBe(
      JSON.stringify({ b: 'quote " \u2028 ż' }),
    );
    expect(canonicalJson([undefined])).toBe('[null]');
  });

  it('gives one hash for both key orders and another for other content', () => {
    expect(contentHash({ a: 1, b: 2 })).toBe(contentHash({ b: 2, a: 1 }));
    expect(contentHash({ a: 1, b: 2 })).not.toBe(contentHash({ a: 1, b: 3 }));
    expect(contentHash({ a: [1, 2] })).not.toBe(contentHash({ a: [2, 1] }));
    expect(contentHash({})).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('plainText', () => {
  it('drops tags, decodes entities and collapses white space', () => {
    expect(
      plainText('  <b>Caf&eacute;</b>\n&#8220;quoted&#x201D; &amp;&nbsp;more &unknown; '),
    ).toBe('Café “quoted” & more &unknown;');
    expect(plainText('&#0; &#x110000; &#xD800;')).toBe('\ufffd \ufffd \ufffd');
  });
});

describe('deriveItemColumns', () => {
  it('turns wrongly typed fields into nulls', () => {
    expect(
      deriveItemColumns('pages', {
        id: 1,
        parent: '3',
        menu_order: 1.5,
        sticky: 'yes',
        link: 5,
        title: { rendered: 7 },
      }),
    ).toMatchObject({ parent: null, menuOrder: null, sticky: null, link: null, title: null });
  });
});
