import { describe, expect, it } from 'vitest';
import {
  remainingShortLinks,
  shortLinkEntries,
  shortLinkQuery,
} from '../../../src/transform/short-links.js';
import { createUrlResolver } from '../../../src/transform/url-resolver.js';
import { rewriteUrl } from '../../../src/transform/url-rewrite.js';

describe('short links', () => {
  it('reads ?p= and ?page_id= queries only', () => {
    expect(shortLinkQuery('?p=38')).toEqual({ key: 'p', id: 38 });
    expect(shortLinkQuery('?page_id=12')).toEqual({ key: 'page_id', id: 12 });
    expect(shortLinkQuery('?p=38&x=1')).toBeUndefined();
    expect(shortLinkQuery('?p=0')).toBeUndefined();
    expect(shortLinkQuery('?s=term')).toBeUndefined();
  });

  it('resolve to the built page of a public item; others do not fall back to the home', () => {
    const paths = new Map([
      ['posts:38', '/2024/03/post/'],
      ['pages:12', '/about/'],
      ['pages:7', '/'],
    ]);
    const resolve = createUrlResolver([
      ['http://h/pl/', '/'],
      ...shortLinkEntries(
        [
          { type: 'posts', id: 38 },
          { type: 'pages', id: 12 },
        ],
        (type, id) => paths.get(`${type}:${id}`),
        'http://h/pl/',
      ),
    ]);
    const context = { baseUrl: new URL('http://h/pl/2024/03/post/'), pagePath: '/2024/03/post/' };
    expect(rewriteUrl('/pl/?p=38', context, resolve)).toEqual({ kind: 'local', value: './' });
    expect(rewriteUrl('https://h/pl/?page_id=12', context, resolve)).toEqual({
      kind: 'local',
      value: '../../../about/',
    });
    expect(rewriteUrl('http://h/pl/?p=12', context, resolve)).toEqual({
      kind: 'local',
      value: '../../../about/',
    });
    // A post is not a page: `?page_id=38` names nothing public.
    expect(rewriteUrl('http://h/pl/?page_id=38', context, resolve)).toEqual({ kind: 'keep' });
    expect(rewriteUrl('/pl/?p=99', context, resolve)).toEqual({
      kind: 'absolute',
      value: 'http://h/pl/?p=99',
      sameSite: true,
    });
    // Any other query still falls back to the page without it.
    expect(rewriteUrl('/pl/?utm=x', context, resolve)).toEqual({
      kind: 'local',
      value: '../../../?utm=x',
    });
  });

  it('finds the short links left pointing at the remote host', () => {
    const html =
      '<a href="http://h/pl/?p=99">a</a><a href="../../x/">b</a><a href="http://other/?p=3">c</a>' +
      '<a href="http://h/pl/?p=99">again</a><a href="http://h/pl/?page_id=4&amp;x=1">d</a>';
    expect(remainingShortLinks(html, 'http://h/pl/')).toEqual(['http://h/pl/?p=99']);
  });
});
