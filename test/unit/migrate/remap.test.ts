import { describe, expect, it } from 'vitest';
import {
  mapUrl,
  mediaFields,
  mediaFileName,
  mediaUrlPairs,
  postBody,
  rewriteContent,
  type RemapContext,
} from '../../../src/migrate/remap.js';

const context: RemapContext = {
  ids: { media: new Map([[7, 70]]), pages: new Map([[3, 30]]), posts: new Map() },
  authors: new Map([[1, 5]]),
  urls: new Map([
    [
      'http://src:4000/pl/cms-content/uploads/2024/01/a.png',
      'http://dst:5000/pl/cms-content/uploads/2025/02/a.png',
    ],
    [
      'http://src:4000/pl/cms-content/uploads/2024/01/a-300x200.png',
      'http://dst:5000/pl/cms-content/uploads/2025/02/a-300x200.png',
    ],
  ]),
  sourceHome: 'http://src:4000/pl/',
  targetHome: 'http://dst:5000/pl/',
  sourceUrl: 'http://src:4000',
  targetUrl: 'http://dst:5000',
};

describe('rewriteContent', () => {
  it('remaps media ids and every source URL, leaving others alone', () => {
    const html =
      '<!-- cms:image {"id":7,"sizeSlug":"large"} -->' +
      '<figure class="cms-block-image"><img src="http://src:4000/pl/cms-content/uploads/2024/01/a.png" ' +
      'srcset="http://src:4000/pl/cms-content/uploads/2024/01/a-300x200.png 300w, http://src:4000/pl/cms-content/uploads/2024/01/a.png 600w" ' +
      'class="cms-image-7" data-id="7"/></figure>' +
      '<p><a href="http://src:4000/pl/2024/01/other/#part">x</a> <a href="http://src:4000/es/">es</a> ' +
      '<a href="http://src:40001/pl/">not ours</a> <a href="https://example.com/">ext</a> cms-image-8</p>' +
      '<!-- cms:embed {"url":"http:\\/\\/src:4000\\/pl\\/page\\/"} -->';
    expect(rewriteContent(html, context)).toBe(
      '<!-- cms:image {"id":70,"sizeSlug":"large"} -->' +
        '<figure class="cms-block-image"><img src="http://dst:5000/pl/cms-content/uploads/2025/02/a.png" ' +
        'srcset="http://dst:5000/pl/cms-content/uploads/2025/02/a-300x200.png 300w, http://dst:5000/pl/cms-content/uploads/2025/02/a.png 600w" ' +
        'class="cms-image-70" data-id="70"/></figure>' +
        // Under the source home but matching nothing migrated: left as it is.
        '<p><a href="http://src:4000/pl/2024/01/other/#part">x</a> <a href="http://dst:5000/es/">es</a> ' +
        '<a href="http://src:40001/pl/">not ours</a> <a href="https://example.com/">ext</a> cms-image-8</p>' +
        '<!-- cms:embed {"url":"http:\\/\\/src:4000\\/pl\\/page\\/"} -->',
    );
  });

  it('maps every spelling of a migrated file or item and collects what matches nothing', () => {
    const unmatched = new Set<string>();
    const withItems: RemapContext = {
      ...context,
      ids: { media: new Map([[7, 70]]), pages: new Map([[12, 120]]), posts: new Map([[38, 141]]) },
      urls: new Map([
        ...context.urls,
        ['http://src:4000/pl/2024/01/post/', 'http://dst:5000/pl/2025/02/post/'],
      ]),
      unmatched,
    };
    const html =
      '<img src="/pl/cms-content/uploads/2024/01/a-300x200.png" ' +
      'srcset="https://src:4000/pl/cms-content/uploads/2024/01/a-300x200.png 300w, ' +
      'http://src:4000/cms-content/uploads/2024/01/a.png 600w, ' +
      '//src:4000/es/cms-content/uploads/2024/01/a.png 601w">' +
      '<img src="../../../cms-content/uploads/2024/01/a.png">' +
      '<a href="/pl/?p=38">p</a> <a href="http://src:4000/pl/?page_id=12">page</a> ' +
      '<a href="/pl/?p=99">gone</a> <a href="https://src:4000/pl/2024/01/post/#x">post</a> ' +
      '<a href="#top">top</a> <a href="/pl/cms-content/uploads/2024/01/zz.pdf">zz</a>';
    expect(rewriteContent(html, withItems, 'http://src:4000/pl/2024/01/post/')).toBe(
      '<img src="http://dst:5000/pl/cms-content/uploads/2025/02/a-300x200.png" ' +
        'srcset="http://dst:5000/pl/cms-content/uploads/2025/02/a-300x200.png 300w, ' +
        'http://dst:5000/pl/cms-content/uploads/2025/02/a.png 600w, ' +
        'http://dst:5000/pl/cms-content/uploads/2025/02/a.png 601w">' +
        '<img src="http://dst:5000/pl/cms-content/uploads/2025/02/a.png">' +
        '<a href="http://dst:5000/pl/?p=141">p</a> <a href="http://dst:5000/pl/?page_id=120">page</a> ' +
        '<a href="/pl/?p=99">gone</a> <a href="http://dst:5000/pl/2025/02/post/#x">post</a> ' +
        '<a href="#top">top</a> <a href="/pl/cms-content/uploads/2024/01/zz.pdf">zz</a>',
    );
    expect([...unmatched].sort()).toEqual([
      'http://src:4000/pl/?p=99',
      'http://src:4000/pl/cms-content/uploads/2024/01/zz.pdf',
    ]);
  });

  it('maps a short link by its id when the home is also a page’s link (a front page)', () => {
    const front: RemapContext = {
      ...context,
      ids: { media: new Map(), pages: new Map([[7, 70]]), posts: new Map([[29, 290]]) },
      urls: new Map([['http://src:4000/pl/', 'http://dst:5000/pl/strona-glowna-2/']]),
    };
    expect(
      rewriteContent('<a href="/pl/?p=29">p</a> <a href="http://src:4000/pl/">home</a>', front),
    ).toBe(
      '<a href="http://dst:5000/pl/?p=290">p</a> <a href="http://dst:5000/pl/strona-glowna-2/">home</a>',
    );
  });

  it('on a shared host, maps the source language only and never a target URL twice', () => {
    const shared: RemapContext = {
      ...context,
      urls: new Map([
        [
          'http://h/pl/cms-content/uploads/2024/01/a.png',
          'http://h/es/cms-content/uploads/2024/01/a.png',
        ],
      ]),
      sourceHome: 'http://h/pl/',
      targetHome: 'http://h/es/',
      sourceUrl: 'http://h',
      targetUrl: 'http://h',
    };
    const html =
      '<img src="http://h/pl/cms-content/uploads/2024/01/a.png"> <a href="http://h/es/x/">es</a> ' +
      'http://h/es/cms-content/uploads/2024/01/a.png';
    expect(rewriteContent(html, shared)).toBe(
      '<img src="http://h/es/cms-content/uploads/2024/01/a.png"> <a href="http://h/es/x/">es</a> ' +
        'http://h/es/cms-content/uploads/2024/01/a.png',
    );
  });

  it('maps to another language home and keeps query strings', () => {
    const other = { ...context, targetHome: 'http://dst:5000/es/' };
    expect(mapUrl('http://src:4000/pl/?x=1', other)).toBe('http://dst:5000/es/?x=1');
    expect(mapUrl('http://src:4000/pl', other)).toBe('http://dst:5000/es/');
    expect(mapUrl('https://src:4000/pl/cms-content/uploads/2024/01/a.png?v=2', other)).toBe(
      'http://dst:5000/pl/cms-content/uploads/2025/02/a.png?v=2',
    );
    // Matching nothing migrated: as it is.
    expect(mapUrl('http://src:4000/pl/a/?p=1', other)).toBe('http://src:4000/pl/a/?p=1');
    expect(mapUrl('http://elsewhere/pl/', other)).toBe('http://elsewhere/pl/');
  });
});

describe('postBody', () => {
  it('copies writable fields, remaps parent, featured media and mapped authors', () => {
    const json = {
      id: 4,
      slug: 'child',
      status: 'private',
      parent: 3,
      menu_order: 2,
      author: 1,
      featured_media: 7,
      title: { raw: 'Child', rendered: 'Child' },
      content: {
        raw: '<a href="http://src:4000/pl/x/">x</a> <img src="../../cms-content/uploads/2024/01/a.png">',
        rendered: 'ignored',
      },
      excerpt: { raw: '', rendered: '<p>auto</p>' },
      date_gmt: '2024-01-01T10:00:00',
      comment_status: 'closed',
      ping_status: 'closed',
      template: '',
      password: '',
      link: 'http://src:4000/pl/parent/child/',
    };
    expect(postBody('pages', json, 3, context)).toEqual({
      body: {
        slug: 'child',
        status: 'private',
        menu_order: 2,
        comment_status: 'closed',
        ping_status: 'closed',
        template: '',
        title: 'Child',
        content:
          '<a href="http://src:4000/pl/x/">x</a> <img src="http://dst:5000/pl/cms-content/uploads/2025/02/a.png">',
        date_gmt: '2024-01-01T10:00:00',
        parent: 30,
        featured_media: 70,
        author: 5,
      },
      notes: [],
    });
  });

  it('notes what it cannot map and drops terms', () => {
    const json = {
      id: 9,
      slug: 's',
      status: 'publish',
      author: 2,
      featured_media: 8,
      categories: [4],
      title: { rendered: 'R' },
      date: '2024-01-01T12:00:00',
      date_gmt: null,
      sticky: true,
      format: 'aside',
    };
    const result = postBody('posts', json, 0, context);
    expect(result.body).toEqual({
      slug: 's',
      status: 'publish',
      sticky: true,
      format: 'aside',
      title: 'R',
      date: '2024-01-01T12:00:00',
    });
    // Dropped term ids are said once per collection by the run, not per item.
    expect(result.notes).toEqual(['featured media 8 not migrated; left empty']);
    expect(postBody('posts', json, 0, { ...context, keepTerms: true }).body.categories).toEqual([
      4,
    ]);
  });
});

describe('media helpers', () => {
  const source = {
    id: 7,
    slug: 'a',
    title: { rendered: 'A' },
    alt_text: 'alt',
    caption: { rendered: '<p>c</p>' },
    date_gmt: '2024-01-01T00:00:00',
    author: 1,
    source_url: 'http://src:4000/pl/cms-content/uploads/2024/01/a.png',
    media_details: {
      file: '2024/01/a.png',
      sizes: {
        medium: { source_url: 'http://src:4000/pl/cms-content/uploads/2024/01/a-300x200.png' },
        thumb: { source_url: 'http://src:4000/t.png' },
      },
    },
  };

  it('builds the query fields and a safe file name', () => {
    expect(mediaFields(source, context)).toEqual({
      title: 'A',
      slug: 'a',
      alt_text: 'alt',
      caption: '<p>c</p>',
      date_gmt: '2024-01-01T00:00:00',
      author: '5',
    });
    expect(mediaFileName(source)).toBe('a.png');
    expect(mediaFileName({ id: 3, source_url: 'http://x/../../evil name.png?x=1' })).toBe(
      'evil-name.png',
    );
    expect(mediaFileName({ id: 3, media_details: { file: '..' } })).toBe('media-3');
  });

  it('pairs each source size with the target size of the same name, else the full file', () => {
    const target = {
      source_url: 'http://dst/b.png',
      media_details: { sizes: { medium: { source_url: 'http://dst/b-m.png' } } },
    };
    expect(mediaUrlPairs(source, target)).toEqual([
      ['http://src:4000/pl/cms-content/uploads/2024/01/a.png', 'http://dst/b.png'],
      ['http://src:4000/pl/cms-content/uploads/2024/01/a-300x200.png', 'http://dst/b-m.png'],
      ['http://src:4000/t.png', 'http://dst/b.png'],
    ]);
  });
});
