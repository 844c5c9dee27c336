import { describe, expect, it } from 'vitest';
import { parseJsonBody } from '../../../src/client/json-body.js';
import { mayNestDeeperThan } from '../../../src/client/json-depth.js';
import {
  hasNextPage,
  integerHeader,
  isPastLastPageCode,
  parseLinkHeader,
} from '../../../src/client/pagination.js';
import { buildApiUrl, encodeQuery } from '../../../src/client/query.js';
import { redactUrl } from '../../../src/client/redact.js';
import { routeTemplate, compileRoute, routeMatches } from '../../../src/client/route-pattern.js';

describe('encodeQuery', () => {
  it('sends arrays as key[]=a&key[]=b, objects as key[sub]=v, and drops undefined/null', () => {
    expect(
      encodeQuery({
        include: [1, 2],
        status: ['publish', 'draft'],
        categories: { terms: [3, 4], operator: 'AND', include_children: true },
        search: 'a&b c,d',
        skip: undefined,
        none: null,
        sticky: false,
      }),
    ).toBe(
      'include[]=1&include[]=2&status[]=publish&status[]=draft&categories[terms][]=3&categories[terms][]=4' +
        '&categories[operator]=AND&categories[include_children]=true&search=a%26b%20c%2Cd&sticky=false',
    );
  });

  it('builds URLs under the API root and refuses a query hidden in the route', () => {
    expect(buildApiUrl('http://h/pl/cms-json/', '/cms/v2/posts', { per_page: 100 })).toBe(
      'http://h/pl/cms-json/cms/v2/posts?per_page=100',
    );
    expect(buildApiUrl('http://h/pl/cms-json/', '')).toBe('http://h/pl/cms-json/');
    expect(() => buildApiUrl('http://h/pl/cms-json/', 'cms/v2/posts?page=2')).toThrow(TypeError);
  });
});

describe('redactUrl', () => {
  it('removes user info and secret query values, keeping the rest', () => {
    expect(redactUrl('http://admin:hunter2@127.0.0.1:8080/pl/cms-json/?a=1')).toBe(
      'http://127.0.0.1:8080/pl/cms-json/?a=1',
    );
    expect(redactUrl('http://h/pl/cms-json/cms/v2/posts/5?password=hunter2&context=view')).toBe(
      'http://h/pl/cms-json/cms/v2/posts/5?password=***&context=view',
    );
    expect(redactUrl('not a url://user:pw@x')).not.toContain('pw');
  });
});

describe('pagination facts', () => {
  it('parses Link headers with several rels and commas inside URLs', () => {
    const links = parseLinkHeader(
      '<http://h/x?page=1&a=1,2>; rel="prev", <http://h/x?page=3>; rel="next"',
    );
    expect(links.get('prev')).toBe('http://h/x?page=1&a=1,2');
    expect(links.get('next')).toBe('http://h/x?page=3');
    expect(parseLinkHeader(undefined).size).toBe(0);
  });

  it('trusts TotalPages, then Link, then the page size', () => {
    const base = { page: 2, perPage: 10, itemCount: 10, totalPages: undefined, links: undefined };
    expect(hasNextPage({ ...base, totalPages: 2 })).toBe(false);
    expect(hasNextPage({ ...base, totalPages: 3 })).toBe(true);
    expect(hasNextPage({ ...base, links: new Map([['prev', 'x']]) })).toBe(false);
    expect(hasNextPage({ ...base, links: new Map([['next', 'x']]) })).toBe(true);
    expect(hasNextPage(base)).toBe(true);
    expect(hasNextPage({ ...base, itemCount: 9 })).toBe(false);
    expect(hasNextPage({ ...base, itemCount: 0, totalPages: 9 })).toBe(false);
  });

  it('reads integer headers strictly and knows the past-the-end codes', () => {
    expect(integerHeader('42')).toBe(42);
    expect(integerHeader('4x')).toBeUndefined();
    expect(integerHeader(undefined)).toBeUndefined();
    expect(isPastLastPageCode('rest_post_invalid_page_number')).toBe(true);
    expect(isPastLastPageCode('rest_revision_invalid_page_number')).toBe(true);
    expect(isPastLastPageCode('rest_invalid_param')).toBe(false);
  });
});

describe('parseJsonBody', () => {
  const json = 'application/json; charset=UTF-8';
  it('parses JSON and strips a BOM', () => {
    expect(parseJsonBody(Buffer.from('\uFEFF{"a":1}'), json)).toEqual({
      ok: true,
      value: { a: 1 },
    });
  });

  it('calls a cut JSON body malformed (retryable), HTML not-json, bad bytes not-utf8', () => {
    expect(parseJsonBody(Buffer.from('[{"id":1'), json)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(parseJsonBody(Buffer.from(''), undefined)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    const cutInsideCharacter = Buffer.from('["zażółć"]').subarray(0, 5);
    expect(parseJsonBody(cutInsideCharacter, json)).toMatchObject({
      ok: false,
      reason: 'malformed',
    });
    expect(parseJsonBody(Buffer.from('<html>hi</html>'), 'text/html')).toMatchObject({
      ok: false,
      reason: 'not-json',
    });
    expect(parseJsonBody(Buffer.from([0x5b, 0x22, 0xff, 0xfe, 0x22, 0x5d]), json)).toMatchObject({
      ok: false,
      reason: 'not-utf8',
    });
  });

  // Lists, objects and both alternating, `depth` levels deep: bare, or each level also holding
  // a string with brackets in it (brackets that are no level).
  const nestings: Record<string, (depth: number) => string> = {
    bare: (depth) => `${'['.repeat(depth)}${']'.repeat(depth)}`,
    lists: (depth) => `${'["[{",'.repeat(depth - 1)}[]${']'.repeat(depth - 1)}`,
    objects: (depth) => `${'{"k{":'.repeat(depth - 1)}{}${'}'.repeat(depth - 1)}`,
    mixed: (depth) => {
      let text = '0';
      for (let level = 0; level < depth; level++)
        text = level % 2 === 0 ? `["]",${text}]` : `{"[":${text}}`;
      return text;
    },
  };

  it('refuses a body nested deeper than 5,000 levels, however it nests, and keeps one 5,000 deep', () => {
    for (const [name, nesting] of Object.entries(nestings)) {
      expect(parseJsonBody(Buffer.from(nesting(5_000)), json).ok, name).toBe(true);
      expect(parseJsonBody(Buffer.from(nesting(5_001)), json), name).toMatchObject({
        ok: false,
        reason: 'too-deep',
      });
    }
  });

  it('keeps a wide body with more brackets than levels allowed, and refuses a deep one inside it', () => {
    const wide = `[${Array.from({ length: 6_000 }, (_, i) => `{"id":${i},"tags":[]}`).join(',')}]`;
    expect(parseJsonBody(Buffer.from(wide), json).ok).toBe(true);
    const deepInside = `[${wide},${nestings['mixed']?.(5_001) ?? ''}]`;
    expect(parseJsonBody(Buffer.from(deepInside), json)).toMatchObject({ reason: 'too-deep' });
  });
});

describe('mayNestDeeperThan', () => {
  /** The oracle: the depth of a parsed value, by recursion (the values here are small). */
  const depthOf = (value: unknown): number =>
    typeof value !== 'object' || value === null
      ? 0
      : 1 + Math.max(0, ...Object.values(value).map(depthOf));

  it('is true of every text whose value nests deeper than the limit', () => {
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return Math.floor((seed / 2147483648) * n);
    };
    const value = (budget: number): unknown => {
      switch (budget <= 0 ? 0 : next(4)) {
        case 0:
          return pickScalar(next(4));
        case 1:
          return Array.from({ length: next(3) }, () => value(budget - 1));
        default:
          return Object.fromEntries(
            Array.from({ length: next(3) }, (_, i) => [`k${i}[{`, value(budget - 1)]),
          );
      }
    };
    const pickScalar = (n: number): unknown => [0, 'a]}', '{[', null][n];
    let deeper = 0;
    for (let i = 0; i < 3_000; i++) {
      const text = JSON.stringify(value(8));
      for (const max of [0, 1, 2, 3, 5]) {
        if (depthOf(JSON.parse(text)) <= max) continue;
        deeper++;
        expect(mayNestDeeperThan(text, max), `${text} (max ${max})`).toBe(true);
      }
    }
    expect(deeper).toBeGreaterThan(1_000);
  });
});

describe('route patterns', () => {
  it('turns PCRE named groups into templates and matches concrete paths', () => {
    expect(routeTemplate('/cms/v2/posts/(?P<parent>[\\d]+)/revisions/(?P<id>[\\d]+)')).toBe(
      'cms/v2/posts/{parent}/revisions/{id}',
    );
    expect(routeTemplate('/seo/v1/import/(?P<plugin>[\\w-]+)/(?P<type>[\\w-]+)')).toBe(
      'seo/v1/import/{plugin}/{type}',
    );
    const pattern = compileRoute('/cms/v2/posts/(?P<id>[\\d]+)');
    expect(routeMatches(pattern, 'cms/v2/posts/12')).toBe(true);
    expect(routeMatches(pattern, '/cms/v2/posts/{id}')).toBe(true);
    expect(routeMatches(pattern, 'cms/v2/posts/abc')).toBe(false);
    expect(routeMatches(pattern, 'cms/v2/posts/12/revisions')).toBe(false);
  });
});
