import { describe, expect, it } from 'vitest';
import { rehypeSafeUrls } from '../../../src/transform/rehype-safe-urls.js';
import { runPlugins } from '../../helpers/transform/run-plugin.js';

function run(html: string) {
  return runPlugins(html, [rehypeSafeUrls()]);
}

describe('rehypeSafeUrls', () => {
  it.each([
    ['<a href="javascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href=" JaVaScRiPt:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="java&#x09;script:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="&#106;avascript:alert(1)">x</a>', '<a>x</a>'],
    ['<a href="vbscript:x">x</a>', '<a>x</a>'],
    ['<img src="data:image/png;base64,AAAA" alt="a">', '<img alt="a">'],
    [
      '<iframe src="data:text/html,&lt;script&gt;alert(1)&lt;/script&gt;"></iframe>',
      '<iframe></iframe>',
    ],
    ['<img srcset="javascript:x 1x, /a.png 2x">', '<img srcset="/a.png 2x">'],
    ['<img srcset="data:image/png,x 1x">', '<img>'],
    ['<video poster="javascript:x" src="/v.mp4"></video>', '<video src="/v.mp4"></video>'],
    [
      '<form action="javascript:x"><button formaction="javascript:y">b</button></form>',
      '<form><button>b</button></form>',
    ],
    ['<blockquote cite="javascript:x">q</blockquote>', '<blockquote>q</blockquote>'],
    ['<object data="javascript:x"></object>', '<object></object>'],
    [
      '<svg><a xlink:href="javascript:x"><text>t</text></a></svg>',
      '<svg><a><text>t</text></a></svg>',
    ],
    ['<svg><a href="javascript:x">t</a></svg>', '<svg><a>t</a></svg>'],
    [
      '<svg><a><animate attributeName="href" values="javascript:alert(1)"></animate>t</a></svg>',
      '<svg><a><animate attributeName="href"></animate>t</a></svg>',
    ],
    [
      '<a href="/x" ping="https://ok.test/ javascript:x">x</a>',
      '<a href="/x" ping="https://ok.test/">x</a>',
    ],
    ['<template><a href="javascript:x">t</a></template>', '<template><a>t</a></template>'],
    ['<p>before</p><base href="https://evil.test/"><p>after</p>', '<p>before</p><p>after</p>'],
  ])('%s', (input, expected) => {
    const result = run(input);
    expect(result.html).toBe(expected);
    expect(result.messages.length).toBeGreaterThan(0);
  });

  it.each([
    ['<a href="https://x.test/">x</a>'],
    ['<a href="http://x.test/">x</a>'],
    ['<a href="mailto:a@x.test">x</a>'],
    ['<a href="tel:+48">x</a>'],
    ['<a href="/a:b">x</a>'],
    ['<a href="../x/?q=javascript:1#javascript:2">x</a>'],
    ['<img src="../../media/a.png" srcset="../../media/a.png 1x, ../../media/b.png 2x">'],
    ['<a onclick="x()" href="#top">item content keeps its own handlers</a>'],
  ])('keeps %s', (input) => {
    expect(run(input)).toEqual({ html: input, messages: [] });
  });

  it('takes the allowed schemes as an option', () => {
    expect(
      runPlugins('<a href="ftp://x.test/">x</a>', [rehypeSafeUrls({ schemes: ['https'] })]).html,
    ).toBe('<a>x</a>');
  });
});
