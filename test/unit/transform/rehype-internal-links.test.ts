import { describe, expect, it } from 'vitest';
import { rehypeInternalLinks } from '../../../src/transform/rehype-internal-links.js';
import { createUrlResolver } from '../../../src/transform/url-resolver.js';
import { runPlugins } from '../../helpers/transform/run-plugin.js';

const resolveLink = createUrlResolver([
  ['http://host.test/pl/about/team/', '/about/team/'],
  ['http://host.test/pl/2024/03/my-post/', '/2024/03/my-post/'],
  ['http://host.test/pl/2024/03/other/', '/2024/03/other/'],
  ['http://host.test/pl/zażółć/', '/zażółć/'],
  ['http://host.test/pl/', '/'],
]);
const context = { baseUrl: 'http://host.test/pl/2024/03/my-post/', pagePath: '/2024/03/my-post/' };

function run(html: string, options: { baseUrl?: string; pagePath?: string } = {}) {
  return runPlugins(html, [rehypeInternalLinks({ resolveLink, ...options })], context);
}

describe('rehypeInternalLinks', () => {
  it.each([
    ['<a href="http://host.test/pl/about/team/">t</a>', '<a href="../../../about/team/">t</a>'],
    ['<a href="https://host.test/pl/about/team">t</a>', '<a href="../../../about/team/">t</a>'],
    ['<a href="/pl/about/team/">t</a>', '<a href="../../../about/team/">t</a>'],
    ['<a href="//host.test/pl/about/team/">t</a>', '<a href="../../../about/team/">t</a>'],
    ['<a href="../other/">t</a>', '<a href="../other/">t</a>'],
    ['<a href="/pl/about/team/#people">t</a>', '<a href="../../../about/team/#people">t</a>'],
    [
      '<a href="/pl/about/team/?utm_source=x#p">t</a>',
      '<a href="../../../about/team/?utm_source=x#p">t</a>',
    ],
    ['<a href="/pl/2024/03/my-post/#comments">t</a>', '<a href="#comments">t</a>'],
    ['<a href="/pl/2024/03/my-post/">t</a>', '<a href="./">t</a>'],
    ['<a href="/pl/">home</a>', '<a href="../../../">home</a>'],
    [
      '<a href="/pl/za%C5%BC%C3%B3%C5%82%C4%87/">z</a>',
      '<a href="../../../za%C5%BC%C3%B3%C5%82%C4%87/">z</a>',
    ],
    [
      '<a href="http://host.test/pl/zażółć">z</a>',
      '<a href="../../../za%C5%BC%C3%B3%C5%82%C4%87/">z</a>',
    ],
    ['<area href="/pl/about/team/">', '<area href="../../../about/team/">'],
    [
      '<blockquote cite="/pl/about/team/">q</blockquote>',
      '<blockquote cite="../../../about/team/">q</blockquote>',
    ],
  ])('%s', (input, expected) => {
    expect(run(input).html).toBe(expected);
  });

  it.each([
    ['<a href="#top">t</a>'],
    ['<a href="">t</a>'],
    ['<a>t</a>'],
    ['<a href="mailto:a@host.test">t</a>'],
    ['<a href="tel:+48">t</a>'],
    ['<a href="https://other.test/pl/about/team/">t</a>'],
    ['<a href="javascript:alert(1)">t</a>'],
    ['<a href="http://[::1">t</a>'],
    ['<p href="/pl/about/team/">not a link element</p>'],
  ])('leaves %s alone', (input) => {
    expect(run(input)).toEqual({ html: input, messages: [] });
  });

  it('makes unmirrored relative links absolute and warns about the own host', () => {
    const result = run('<a href="/pl/tag/news/">n</a><a href="//cdn.test/x">c</a>');
    expect(result.html).toBe(
      '<a href="http://host.test/pl/tag/news/">n</a><a href="http://cdn.test/x">c</a>',
    );
    expect(result.messages).toEqual([
      'Link to http://host.test/pl/tag/news/ is not a mirrored item; it still points at the remote site',
    ]);
  });

  it('keeps a query it could not resolve with the page', () => {
    expect(run('<a href="/pl/tag/news/?page=2#x">n</a>').html).toBe(
      '<a href="http://host.test/pl/tag/news/?page=2#x">n</a>',
    );
  });

  it('takes baseUrl and pagePath from options over the file', () => {
    const html = run('<a href="team/">t</a>', {
      baseUrl: 'http://host.test/pl/about/',
      pagePath: '/',
    }).html;
    expect(html).toBe('<a href="about/team/">t</a>');
  });

  it('leaves relative links alone without a base URL', () => {
    const result = runPlugins(
      '<a href="/pl/about/team/">t</a><a href="http://host.test/pl/about/team/">a</a>',
      [rehypeInternalLinks({ resolveLink })],
    );
    expect(result.html).toBe('<a href="/pl/about/team/">t</a><a href="about/team/">a</a>');
  });

  it('handles very long and unicode URLs', () => {
    const long = `/pl/${'ą'.repeat(5000)}/`;
    const result = run(`<a href="${long}">x</a>`);
    expect(result.html).toBe(`<a href="http://host.test${encodeURI(long)}">x</a>`);
  });
});
