import { describe, expect, it } from 'vitest';
import {
  absoluteHttpUrl,
  declaredFileSize,
  isPublicItem,
  mayHaveEmbeds,
  mediaItemUrls,
  onSiteScheme,
  renderedContent,
} from '../../../src/sync/content-media.js';

/**
 * The shapes a server may send where a media item's files, its size, an item's visibility and
 * its HTML are read: missing or null parts are "nothing there", never a crash, and only
 * absolute http(s) URLs are ever fetched.
 */
describe('mediaItemUrls with partial media details', () => {
  const source = 'https://site.test/pl/cms-content/uploads/a.png';

  it('keeps the original when the details, the sizes or a size are null or not objects', () => {
    for (const media_details of [null, 'x', {}, { sizes: null }, { sizes: 'x' }]) {
      expect(mediaItemUrls({ source_url: source, media_details })).toEqual([source]);
    }
    const sizes = { a: null, b: 'a-1.png', c: 7, d: { source_url: 'a-300x200.png' } };
    expect(mediaItemUrls({ source_url: source, media_details: { sizes } })).toEqual([
      source,
      'https://site.test/pl/cms-content/uploads/a-300x200.png',
    ]);
  });

  it('lists absolute size URLs when the original is missing, and never a relative one', () => {
    expect(
      mediaItemUrls({
        media_details: {
          sizes: {
            a: { source_url: 'https://site.test/up/a-1.png' },
            b: { source_url: 'a-2.png' },
          },
        },
      }),
    ).toEqual(['https://site.test/up/a-1.png']);
  });
});

describe('absoluteHttpUrl', () => {
  const base = 'https://site.test/pl/post/';

  it('accepts http and https URLs, resolving relative ones against the base', () => {
    expect(absoluteHttpUrl('http://x.test/a.png', undefined)).toBe('http://x.test/a.png');
    expect(absoluteHttpUrl('https://x.test/a.png', undefined)).toBe('https://x.test/a.png');
    expect(absoluteHttpUrl('  b.png ', base)).toBe('https://site.test/pl/post/b.png');
    expect(absoluteHttpUrl('https://x.test/files/data:', undefined)).toBe(
      'https://x.test/files/data:',
    );
  });

  it('refuses blank values (which would resolve to the page itself), data:, other schemes and junk', () => {
    for (const value of ['', '   ', '\n']) expect(absoluteHttpUrl(value, base)).toBeUndefined();
    expect(absoluteHttpUrl('data:image/png;base64,AAAA', base)).toBeUndefined();
    expect(absoluteHttpUrl('ftp://x.test/a.png', base)).toBeUndefined();
    expect(absoluteHttpUrl('http://[broken', undefined)).toBeUndefined();
    expect(absoluteHttpUrl('no-scheme.png', undefined)).toBeUndefined();
    expect(absoluteHttpUrl(42, base)).toBeUndefined();
  });
});

describe('onSiteScheme', () => {
  it('returns other URLs exactly as written (not normalised) and junk as it is', () => {
    expect(onSiteScheme('https://EXAMPLE.com/a b.png', 'https://example.com')).toBe(
      'https://EXAMPLE.com/a b.png',
    );
    expect(onSiteScheme('http://cdn.test:80/a b.png', 'https://example.com')).toBe(
      'http://cdn.test:80/a b.png',
    );
    expect(onSiteScheme('not a url', 'https://example.com')).toBe('not a url');
    expect(onSiteScheme('http://example.com/a.png', 'not a site')).toBe('http://example.com/a.png');
  });
});

describe('declaredFileSize', () => {
  it('is the filesize only when it is a non-negative safe integer', () => {
    expect(declaredFileSize({ media_details: { filesize: 0 } })).toBe(0);
    expect(declaredFileSize({ media_details: { filesize: 99 } })).toBe(99);
    for (const filesize of ['12', 1.5, -1, Number.NaN, 2 ** 60, null]) {
      expect(declaredFileSize({ media_details: { filesize } })).toBeUndefined();
    }
    for (const media_details of [null, 'x', 3]) {
      expect(declaredFileSize({ media_details })).toBeUndefined();
    }
  });
});

describe('isPublicItem and renderedContent without content', () => {
  it('treats a published item without content as public', () => {
    expect(isPublicItem({ status: 'publish' })).toBe(true);
    expect(isPublicItem({ status: 'publish', content: null })).toBe(true);
    expect(isPublicItem({ status: 'publish', content: 'x' })).toBe(true);
    expect(isPublicItem({ status: 'private' })).toBe(false);
  });

  it('reads content.rendered, or gives an empty string', () => {
    expect(renderedContent({ content: { rendered: '<p>x</p>' } })).toBe('<p>x</p>');
    for (const content of [undefined, null, 'x', {}, { rendered: 3 }]) {
      expect(renderedContent({ content })).toBe('');
    }
  });
});

describe('mayHaveEmbeds', () => {
  it('sees a URL paragraph with attributes, spaces, a link around it, or plain http', () => {
    expect(mayHaveEmbeds('<p class="embed">https://video.test/1</p>')).toBe(true);
    expect(mayHaveEmbeds('<p>\n  https://video.test/1</p>')).toBe(true);
    expect(mayHaveEmbeds('<p><a href="https://x.test/">\n https://x.test/</a></p>')).toBe(true);
    expect(mayHaveEmbeds('<p>http://video.test/1</p>')).toBe(true);
    expect(mayHaveEmbeds('<P>HTTPS://VIDEO.TEST/1</P>')).toBe(true);
    expect(mayHaveEmbeds('<p>text</p><div>https://x.test/</div>')).toBe(false);
  });
});
