/**
 * Cases found by mutation testing (test/mutation/RESULTS.md): the body a migration sends for
 * each shape of source field, the URL pairs it records, and the ids it rewrites in content.
 */
import { describe, expect, it } from 'vitest';
import {
  decodedSlug,
  itemUrlPairs,
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
  urls: new Map([['http://src/pl/old/', 'http://dst/pl/new/']]),
  sourceHome: 'http://src/pl/',
  targetHome: 'http://dst/pl/',
  sourceUrl: 'http://src',
  targetUrl: 'http://dst',
};

describe('postBody', () => {
  it('keeps a password, drops an empty one, and decodes an encoded slug', () => {
    expect(postBody('posts', { slug: 'za%C5%BC', password: 'pw' }, 0, context).body).toEqual({
      slug: 'zaż',
      password: 'pw',
    });
    expect(postBody('posts', { slug: '100%', password: '' }, 0, context).body).toEqual({
      slug: '100%',
    });
    expect(postBody('posts', { slug: null, status: undefined }, 0, context).body).toEqual({});
  });

  it('takes a title as text, raw or rendered', () => {
    const title = (value: unknown) => postBody('posts', { title: value }, 0, context).body.title;
    expect(title('Plain')).toBe('Plain');
    expect(title({ raw: 'Raw', rendered: 'Rendered' })).toBe('Raw');
    expect(title({ rendered: 'Rendered' })).toBe('Rendered');
    expect(title(null)).toBeUndefined();
    expect(title({ raw: 1 })).toBeUndefined();
  });

  it('rewrites content read against its own link, and a raw excerpt only when it has text', () => {
    const json = {
      link: 'http://src/pl/old/',
      content: '<a href="../old/">x</a>',
      excerpt: { raw: 'see <a href="http://src/pl/old/">old</a>', rendered: 'r' },
    };
    expect(postBody('posts', json, 0, context).body).toEqual({
      content: '<a href="http://dst/pl/new/">x</a>',
      excerpt: 'see <a href="http://dst/pl/new/">old</a>',
    });
    const noRaw = postBody('posts', { excerpt: { rendered: '<p>auto</p>' } }, 0, context);
    expect(noRaw.body).toEqual({});
    const text = postBody('posts', { content: { rendered: 'R' } }, 0, context);
    expect(text.body).toEqual({ content: 'R' });
  });

  it('sends date_gmt when the item has one, else its local date', () => {
    const gmt = { date: '2024-01-01T12:00:00', date_gmt: '2024-01-01T10:00:00' };
    expect(postBody('posts', gmt, 0, context).body).toEqual({ date_gmt: '2024-01-01T10:00:00' });
    expect(postBody('posts', { date: '2024-01-01T12:00:00' }, 0, context).body).toEqual({
      date: '2024-01-01T12:00:00',
    });
  });

  it('a page: top-level for parent 0, mapped parent, or top-level with a note', () => {
    expect(postBody('pages', {}, 0, context)).toEqual({ body: { parent: 0 }, notes: [] });
    expect(postBody('pages', {}, 3, context)).toEqual({ body: { parent: 30 }, notes: [] });
    expect(postBody('pages', {}, 4, context)).toEqual({
      body: { parent: 0 },
      notes: ['parent 4 not migrated yet; created top-level'],
    });
    expect(postBody('posts', {}, 3, context).body).toEqual({});
  });

  it('featured media and author only when mapped; footnotes only when not empty', () => {
    const json = { featured_media: 0, author: 2, meta: { footnotes: '' } };
    expect(postBody('posts', json, 0, context)).toEqual({ body: {}, notes: [] });
    const mapped = { featured_media: 7, author: 1, meta: { footnotes: '[{"id":"1"}]' } };
    expect(postBody('posts', mapped, 0, context).body).toEqual({
      featured_media: 70,
      author: 5,
      meta: { footnotes: '[{"id":"1"}]' },
    });
    expect(postBody('posts', { meta: { footnotes: 3 } }, 0, context).body).toEqual({});
    expect(postBody('posts', { meta: null, author: '1' }, 0, context).body).toEqual({});
  });

  it('sends term ids only when kept, only as lists, and never for pages', () => {
    const json = { categories: [4], tags: 'x' };
    const kept = { ...context, keepTerms: true };
    expect(postBody('posts', json, 0, kept).body).toEqual({ categories: [4] });
    expect(postBody('posts', json, 0, context).body).toEqual({});
    expect(postBody('pages', json, 0, kept).body).toEqual({ parent: 0 });
  });
});

describe('media fields and file names', () => {
  it('sends text and numbers, never empty text, and a raw description only', () => {
    expect(
      mediaFields(
        {
          title: '',
          slug: 'za%C5%BC',
          alt_text: 3,
          caption: 'c',
          description: { raw: 'd', rendered: '<p>d</p>' },
          date: '2024-01-01T12:00:00',
          author: 2,
        },
        context,
      ),
    ).toEqual({
      slug: 'zaż',
      alt_text: '3',
      caption: 'c',
      description: 'd',
      date: '2024-01-01T12:00:00',
    });
    expect(mediaFields({ description: { rendered: 'r' }, slug: 5 }, context)).toEqual({});
  });

  it('names the file after the source file, its URL, or its id; safe and at most 120 long', () => {
    expect(mediaFileName({ id: 1, source_url: 'http://s/u/b.png#x' })).toBe('b.png');
    expect(
      mediaFileName({ id: 1, media_details: { file: '' }, source_url: 'http://s/c.png' }),
    ).toBe('c.png');
    expect(mediaFileName({ id: 4 })).toBe('media-4');
    expect(mediaFileName({ id: 5, media_details: { file: 'a\\..hidden.png' } })).toBe('hidden.png');
    expect(mediaFileName({ id: 6, media_details: { file: `${'x'.repeat(200)}.png` } })).toBe(
      `${'x'.repeat(116)}.png`,
    );
    expect(mediaFileName({ id: 8, media_details: { file: 'a b+c.png' } })).toBe('a-b-c.png');
  });

  it('pairs nothing without a target file, and no full file without a source one', () => {
    expect(mediaUrlPairs({ source_url: 'http://s/a.png' }, {})).toEqual([]);
    expect(
      mediaUrlPairs(
        { media_details: { sizes: { big: { source_url: 'http://s/a-big.png' }, bad: null } } },
        { source_url: 'http://t/a.png', media_details: { sizes: null } },
      ),
    ).toEqual([['http://s/a-big.png', 'http://t/a.png']]);
  });
});

describe('itemUrlPairs', () => {
  it('pairs the source link with the target link', () => {
    expect(itemUrlPairs({ link: 'http://s/pl/a/' }, { link: 'http://t/pl/a-2/' })).toEqual([
      ['http://s/pl/a/', 'http://t/pl/a-2/'],
    ]);
    expect(itemUrlPairs({ link: 'http://s/pl/a/' }, {})).toEqual([]);
    expect(itemUrlPairs({}, { link: 'http://t/pl/a/' })).toEqual([]);
  });

  it('adds the slug address of a top-level page shown at the home (a front page)', () => {
    const front = { type: 'page', parent: 0, slug: 'home', link: 'http://s/pl/' };
    expect(itemUrlPairs(front, { link: 'http://t/pl/' })).toEqual([
      ['http://s/pl/', 'http://t/pl/'],
      ['http://s/pl/home/', 'http://t/pl/'],
    ]);
    const to = { link: 'http://t/pl/' };
    for (const source of [
      { ...front, type: 'post' },
      { ...front, parent: 2 },
      { ...front, slug: '' },
      { ...front, slug: 7 },
      { ...front, link: 'http://s/pl/?page_id=4' },
      { ...front, link: 'http://s/pl' },
      { ...front, link: 'http://s/pl/home/' },
    ]) {
      expect(itemUrlPairs(source, to), JSON.stringify(source)).toHaveLength(1);
    }
  });
});

describe('rewriteContent: media ids', () => {
  it('rewrites migrated ids in classes, data-id (either quote) and media block comments only', () => {
    const html =
      `<img class="cms-image-7 cms-image-8 xcms-image-7" data-id='7' data-id="8">` +
      '<!-- cms:gallery {"ids":[7],"id":7} --><!-- cms:paragraph {"id":7} -->' +
      '<!-- cms:cover {"id":8} -->';
    expect(rewriteContent(html, context)).toBe(
      `<img class="cms-image-70 cms-image-8 xcms-image-7" data-id='70' data-id="8">` +
        '<!-- cms:gallery {"ids":[7],"id":70} --><!-- cms:paragraph {"id":7} -->' +
        '<!-- cms:cover {"id":8} -->',
    );
  });

  it('leaves URLs as they are when the source home cannot be read', () => {
    const broken = { ...context, sourceHome: 'not a url' };
    expect(rewriteContent('<a href="http://src/pl/old/">x</a>', broken)).toBe(
      '<a href="http://src/pl/old/">x</a>',
    );
    expect(mapUrl('http://src/pl/old/', broken)).toBe('http://src/pl/old/');
    expect(mapUrl('http://src/pl/old/', context)).toBe('http://dst/pl/new/');
  });

  it('decodes a slug, and keeps one that is not a valid encoding', () => {
    expect(decodedSlug('a%20b')).toBe('a b');
    expect(decodedSlug('%E0%A4%A')).toBe('%E0%A4%A');
  });
});

// Survivors of the Stryker run of 2026-11-24 17:00 (test/mutation/RESULTS.md).
describe('odd source records', () => {
  it('reads relative URLs against the home when the item’s link is not text', () => {
    const json = { link: { rendered: 'http://src/pl/x/' }, content: '<a href="old/">x</a>' };
    expect(postBody('posts', json, 0, context).body).toEqual({
      content: '<a href="http://dst/pl/new/">x</a>',
    });
  });

  it('does not send a title whose rendered form is not text', () => {
    expect(postBody('posts', { title: { rendered: null } }, 0, context).body).toEqual({});
    expect(mediaFields({ title: { rendered: 4 } }, context)).toEqual({});
  });

  it('names a media file by its id when its source URL is not text', () => {
    expect(mediaFileName({ id: 9, source_url: 42 })).toBe('media-9');
  });

  it('turns each run of unsafe characters in a file name into one dash', () => {
    expect(mediaFileName({ id: 1, media_details: { file: 'my  photo (1).png' } })).toBe(
      'my-photo-1-.png',
    );
  });

  it('pairs nothing when the target’s file URL is not text', () => {
    expect(mediaUrlPairs({ source_url: 'http://s/a.png' }, { source_url: null })).toEqual([]);
  });

  it('pairs the full file of media without sizes or without details', () => {
    const target = { source_url: 'http://t/a.png' };
    expect(mediaUrlPairs({ source_url: 'http://s/a.png' }, target)).toEqual([
      ['http://s/a.png', 'http://t/a.png'],
    ]);
    expect(
      mediaUrlPairs(
        { source_url: 'http://s/a.png', media_details: {} },
        {
          ...target,
          media_details: {},
        },
      ),
    ).toEqual([['http://s/a.png', 'http://t/a.png']]);
  });
});

describe('rewriteContent: ids of more than one digit', () => {
  it('rewrites a media id of several digits in classes, data-id and block comments', () => {
    const many = { ...context, ids: { ...context.ids, media: new Map([[12, 345]]) } };
    expect(
      rewriteContent('<!-- cms:image {"id":12} --><img class="cms-image-12" data-id="12">', many),
    ).toBe('<!-- cms:image {"id":345} --><img class="cms-image-345" data-id="345">');
  });
});
