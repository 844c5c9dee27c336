import { describe, expect, it } from 'vitest';
import { findEmbedUrls, standaloneUrl } from '../../../src/transform/embed-detection.js';

describe('findEmbedUrls', () => {
  it('finds a URL standing alone in a paragraph, as text or as a lone link', () => {
    const html = [
      '<p>https://www.youtube.com/watch?v=abc</p>',
      '<p>\n  https://vimeo.com/123  \n</p>',
      '<p><a href="https://x.com/u/status/1">https://x.com/u/status/1</a></p>',
      '<p> <!-- c --> https://open.spotify.com/track/1 </p>',
    ].join('');
    expect(findEmbedUrls(html)).toEqual([
      'https://www.youtube.com/watch?v=abc',
      'https://vimeo.com/123',
      'https://x.com/u/status/1',
      'https://open.spotify.com/track/1',
    ]);
  });

  it('finds the wrapper text of a block embed', () => {
    const html =
      '<figure class="cms-block-embed is-type-video"><div class="cms-block-embed__wrapper">\nhttps://www.youtube.com/watch?v=xyz\n</div><figcaption>Cap</figcaption></figure>';
    expect(findEmbedUrls(html)).toEqual(['https://www.youtube.com/watch?v=xyz']);
  });

  it('returns each URL once, in document order, spelled as the URL parser does', () => {
    expect(
      findEmbedUrls('<p>https://B.test/x</p><p>https://a.test</p><p>https://b.test/x</p>'),
    ).toEqual(['https://b.test/x', 'https://a.test/']);
    expect(findEmbedUrls('<p>https://пример.test/путь</p>')).toEqual([
      'https://xn--e1afmkfd.test/%D0%BF%D1%83%D1%82%D1%8C',
    ]);
  });

  it.each([
    ['<p>See https://www.youtube.com/watch?v=abc</p>'],
    ['<p>https://a.test/ https://b.test/</p>'],
    ['<p><a href="https://a.test/">a link</a></p>'],
    ['<p><a href="https://a.test/">https://b.test/</a></p>'],
    ['<p><strong>https://a.test/</strong></p>'],
    ['<p><a href="https://a.test/"><b>https://a.test/</b></a></p>'],
    ['<p>javascript:alert(1)</p>'],
    ['<p>ftp://a.test/</p>'],
    ['<p>https://</p>'],
    ['<div>https://a.test/</div>'],
    ['<figure class="other"><div class="cms-block-embed__wrapper">https://a.test/</div></figure>'],
    [
      '<figure class="cms-block-embed"><div class="cms-block-embed__wrapper"><iframe src="https://a.test/"></iframe></div></figure>',
    ],
    [`<p>https://a.test/${'x'.repeat(3000)}</p>`],
  ])('ignores %s', (html) => {
    expect(findEmbedUrls(html)).toEqual([]);
  });
});

describe('standaloneUrl', () => {
  it('accepts http(s) URLs up to the length limit', () => {
    expect(standaloneUrl(' http://a.test/x ')).toBe('http://a.test/x');
    expect(standaloneUrl(`https://a.test/${'x'.repeat(2000)}`)).toBe(
      `https://a.test/${'x'.repeat(2000)}`,
    );
    expect(standaloneUrl(`https://a.test/${'x'.repeat(2040)}`)).toBeUndefined();
    expect(standaloneUrl('https://a.test/\u00a0x')).toBeUndefined();
  });
});
