import { describe, expect, it } from 'vitest';
import type { OEmbedResponse } from '../../../src/transform/oembed-response.js';
import { rehypeEmbeds } from '../../../src/transform/rehype-embeds.js';
import { rehypeInternalLinks } from '../../../src/transform/rehype-internal-links.js';
import { createUrlResolver } from '../../../src/transform/url-resolver.js';
import { runPlugins } from '../../helpers/transform/run-plugin.js';

const resolveLink = createUrlResolver([
  ['http://host.test/pl/about/team/', '/about/team/'],
  ['http://host.test/pl/zażółć/', '/zażółć/'],
]);
const context = { baseUrl: 'http://host.test/pl/2024/03/my-post/', pagePath: '/2024/03/my-post/' };
const YT = 'https://www.youtube.com/watch?v=abc';
const video: OEmbedResponse = {
  type: 'video',
  title: 'A video',
  html: '<iframe width="560" height="315" src="https://www.youtube.com/embed/abc" allowfullscreen></iframe>',
};

function run(
  html: string,
  embeds: Record<string, OEmbedResponse | null> = {},
  hosts?: readonly string[],
) {
  return runPlugins(
    html,
    [
      rehypeEmbeds({
        embeds: new Map(Object.entries(embeds)),
        resolveLink,
        ...(hosts ? { allowedIframeHosts: hosts } : {}),
      }),
    ],
    context,
  ).html;
}

describe('rehypeEmbeds', () => {
  it('replaces a standalone provider URL with the sanitized provider HTML', () => {
    expect(run(`<p>x</p><p>${YT}</p><p>y</p>`, { [YT]: video })).toBe(
      '<p>x</p><figure class="embed embed-video"><iframe width="560" height="315" src="https://www.youtube.com/embed/abc" allowfullscreen loading="lazy"></iframe></figure><p>y</p>',
    );
  });

  it('keeps a block embed figure and caption and fills its wrapper', () => {
    const html = `<figure class="cms-block-embed"><div class="cms-block-embed__wrapper">\n${YT}\n</div><figcaption>Cap</figcaption></figure>`;
    expect(run(html, { [YT]: video })).toBe(
      '<figure class="cms-block-embed"><div class="cms-block-embed__wrapper"><figure class="embed embed-video"><iframe width="560" height="315" src="https://www.youtube.com/embed/abc" allowfullscreen loading="lazy"></iframe></figure></div><figcaption>Cap</figcaption></figure>',
    );
  });

  it('turns an unresolved URL into a static card that stays absolute', () => {
    const card =
      '<figure class="embed-card"><a href="https://www.youtube.com/watch?v=abc" rel="noopener">https://www.youtube.com/watch?v=abc</a><figcaption>www.youtube.com</figcaption></figure>';
    expect(run(`<p>${YT}</p>`, { [YT]: null })).toBe(card);
    expect(run(`<p><a href="${YT}">${YT}</a></p>`)).toBe(card);
  });

  it('strips scripts, handlers and unknown iframes from provider HTML', () => {
    const hostile: OEmbedResponse = {
      type: 'rich',
      title: 'T',
      html: '<blockquote onmouseover="alert(1)"><p>quote</p></blockquote><script>alert(1)</script><iframe src="https://evil.test/x"></iframe><img src="javascript:alert(1)" onerror="alert(2)">',
    };
    expect(run(`<p>${YT}</p>`, { [YT]: hostile })).toBe(
      '<figure class="embed embed-rich"><blockquote><p>quote</p></blockquote></figure>',
    );
  });

  it('falls back to a titled card when nothing safe is left', () => {
    const onlyUnknown: OEmbedResponse = {
      type: 'video',
      title: 'Evil <b>video</b>',
      html: '<iframe src="https://evil.test/x"></iframe><script>x</script>',
    };
    expect(run(`<p>${YT}</p>`, { [YT]: onlyUnknown })).toBe(
      '<figure class="embed-card"><a href="https://www.youtube.com/watch?v=abc" rel="noopener">Evil &#x3C;b>video&#x3C;/b></a><figcaption>www.youtube.com</figcaption></figure>',
    );
    const link: OEmbedResponse = { type: 'link', title: 'Just a link' };
    expect(run(`<p>${YT}</p>`, { [YT]: link })).toBe(
      '<figure class="embed-card"><a href="https://www.youtube.com/watch?v=abc" rel="noopener">Just a link</a><figcaption>www.youtube.com</figcaption></figure>',
    );
  });

  it('renders photo responses with an https image only', () => {
    const url = 'https://photos.test/1';
    expect(
      run(`<p>${url}</p>`, {
        [url]: {
          type: 'photo',
          url: 'https://i.test/a.jpg',
          title: 'A "q"',
          width: 640,
          height: 480,
        },
      }),
    ).toBe(
      '<figure class="embed embed-photo"><img src="https://i.test/a.jpg" alt="A &#x22;q&#x22;" width="640" height="480"></figure>',
    );
    expect(run(`<p>${url}</p>`, { [url]: { type: 'photo', url: 'javascript:alert(1)' } })).toBe(
      '<figure class="embed-card"><a href="https://photos.test/1" rel="noopener">https://photos.test/1</a><figcaption>photos.test</figcaption></figure>',
    );
  });

  it("links the site's own items locally, never to the remote host", () => {
    const own = 'http://host.test/pl/about/team/';
    expect(
      run(`<p>${own}</p>`, {
        [own]: {
          type: 'rich',
          title: 'Our team',
          html: '<iframe src="http://host.test/pl/about/team/embed/"></iframe>',
        },
      }),
    ).toBe(
      '<figure class="embed-card embed-card-local"><a href="../../../about/team/">Our team</a></figure>',
    );
    expect(run('<p>http://host.test/pl/za%C5%BC%C3%B3%C5%82%C4%87/</p>')).toBe(
      '<figure class="embed-card embed-card-local"><a href="../../../za%C5%BC%C3%B3%C5%82%C4%87/">/zażółć/</a></figure>',
    );
  });

  it('marks local cards so the link plugin leaves them alone', () => {
    const result = runPlugins(
      '<p>http://host.test/pl/about/team/</p>',
      [rehypeEmbeds({ resolveLink }), rehypeInternalLinks({ resolveLink })],
      context,
    );
    expect(result.html).toBe(
      '<figure class="embed-card embed-card-local"><a href="../../../about/team/">/about/team/</a></figure>',
    );
  });

  it('accepts extra iframe hosts', () => {
    const url = 'https://player.example.test/v/1';
    const response: OEmbedResponse = {
      type: 'video',
      html: '<iframe src="https://player.example.test/embed/1"></iframe>',
    };
    expect(run(`<p>${url}</p>`, { [url]: response }, ['player.example.test'])).toBe(
      '<figure class="embed embed-video"><iframe src="https://player.example.test/embed/1" loading="lazy"></iframe></figure>',
    );
  });

  it('reads embeds from the file when no option gives them', () => {
    const result = runPlugins(`<p>${YT}</p>`, [rehypeEmbeds({ resolveLink })], {
      ...context,
      embeds: new Map([[YT, video]]),
    });
    expect(result.html).toContain('<figure class="embed embed-video">');
  });

  it('leaves content without standalone URLs untouched', () => {
    const html = `<p>Watch ${YT} now</p><p><a href="${YT}">this</a></p>`;
    expect(run(html, { [YT]: video })).toBe(html);
  });
});
