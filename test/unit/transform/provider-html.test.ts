import rehypeStringify from 'rehype-stringify';
import { unified } from 'unified';
import { describe, expect, it } from 'vitest';
import { sanitizeProviderHtml } from '../../../src/transform/provider-html.js';

const printer = unified().use(rehypeStringify);
function clean(html: string, hosts?: readonly string[]): string {
  return printer.stringify({ type: 'root', children: sanitizeProviderHtml(html, hosts) });
}

describe('sanitizeProviderHtml', () => {
  it('keeps an iframe from a known provider with its allowed attributes', () => {
    expect(
      clean(
        '<iframe width="560" height="315" src="https://www.youtube.com/embed/abc?feature=oembed" title="Video" frameborder="0" allow="autoplay; encrypted-media" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen loading="lazy" style="x" class="c" id="i" name="n" sandbox="" srcdoc="<script>x</script>"></iframe>',
      ),
    ).toBe(
      '<iframe width="560" height="315" src="https://www.youtube.com/embed/abc?feature=oembed" title="Video" frameborder="0" allow="autoplay; encrypted-media" referrerpolicy="strict-origin-when-cross-origin" allowfullscreen loading="lazy"></iframe>',
    );
  });

  it.each([
    ['<iframe src="https://evil.test/embed"></iframe>'],
    ['<iframe src="http://www.youtube.com/embed/abc"></iframe>'],
    ['<iframe src="//www.youtube.com/embed/abc"></iframe>'],
    ['<iframe src="/embed/abc"></iframe>'],
    ['<iframe src="javascript:alert(1)"></iframe>'],
    ['<iframe src="https://www.youtube.com.evil.test/embed"></iframe>'],
    ['<iframe src="https://evil.test/?https://www.youtube.com/"></iframe>'],
    ['<iframe></iframe>'],
    ['<script>alert(1)</script>'],
    ['<script src="https://platform.twitter.com/widgets.js"></script>'],
    ['<style>body{display:none}</style>'],
    ['<svg onload="alert(1)"><text>x</text></svg>'],
    ['<object data="https://www.youtube.com/x"></object>'],
    ['<img src="http://a.test/x.png">'],
    ['<img src="data:image/png;base64,AAAA">'],
    ['<img src="/x.png">'],
    ['<img src="x" onerror="alert(1)">'],
    ['<template><script>alert(1)</script></template>'],
    ['<!-- comment -->'],
  ])('removes %s whole', (html) => {
    expect(clean(html)).toBe('');
  });

  it('keeps quote markup and drops everything dangerous in it', () => {
    const html =
      '<blockquote class="twitter-tweet" data-width="500" onmouseover="alert(1)"><p lang="en" dir="ltr" style="color:red">Hello <a href="https://t.co/x" onclick="x()">pic</a> <a href="javascript:alert(1)">bad</a> <a href="/rel">rel</a></p>&mdash; Someone (@someone) <a href="https://x.com/s/1?ref_src=twsrc%5Etfw">March 1, 2024</a></blockquote> <script async src="https://platform.twitter.com/widgets.js" charset="utf-8"></script>';
    expect(clean(html)).toBe(
      '<blockquote class="twitter-tweet"><p lang="en" dir="ltr">Hello <a href="https://t.co/x">pic</a> <a>bad</a> <a>rel</a></p>— Someone (@someone) <a href="https://x.com/s/1?ref_src=twsrc%5Etfw">March 1, 2024</a></blockquote> ',
    );
  });

  it('keeps https images with size and alt', () => {
    expect(
      clean(
        '<img src="https://i.test/a.png" alt="A" width="10" height="20" srcset="x 1x" class="c">',
      ),
    ).toBe('<img src="https://i.test/a.png" alt="A" width="10" height="20">');
  });

  it('keeps the text of unknown elements but not of script-like ones', () => {
    expect(
      clean('<div><span>kept</span><textarea>gone</textarea><noscript>gone</noscript></div>'),
    ).toBe('<span>kept</span>');
  });

  it('uses the given host list', () => {
    const iframe = '<iframe src="https://player.example.test/1"></iframe>';
    expect(clean(iframe)).toBe('');
    expect(clean(iframe, ['player.example.test'])).toBe(iframe);
  });

  it('ignores oversized HTML', () => {
    expect(clean(`<p>${'x'.repeat(100_001)}</p>`)).toBe('');
  });
});
