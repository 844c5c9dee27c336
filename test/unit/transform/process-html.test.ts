import { describe, expect, it } from 'vitest';
import { findEmbedUrls } from '../../../src/transform/embed-detection.js';
import { createHtmlProcessor, processHtml } from '../../../src/transform/process-html.js';
import { createUrlResolver } from '../../../src/transform/url-resolver.js';
import { TRANSFORM_VERSION } from '../../../src/transform/version.js';

const resolveLink = createUrlResolver([
  ['http://host.test/pl/about/team/', '/about/team/'],
  ['http://host.test/pl/2024/03/my-post/', '/2024/03/my-post/'],
  ['http://host.test/pl/', '/'],
]);
const resolveMedia = createUrlResolver([
  ['http://host.test/files/photo.png', '/media/3fa9-photo.png'],
  ['http://host.test/files/photo-300x200.png', '/media/3fa9-photo-300x200.png'],
]);
const item = { baseUrl: 'http://host.test/pl/2024/03/my-post/', pagePath: '/2024/03/my-post/' };
const YT = 'https://www.youtube.com/watch?v=abc';

describe('processHtml', () => {
  const processor = createHtmlProcessor({ resolveLink, resolveMedia });

  it('runs every plugin in one pass', () => {
    const html = [
      '<h2>Wstęp</h2>',
      '<p>Zobacz <a href="/pl/about/team/#ludzie">zespół</a> i <a href="javascript:alert(1)">to</a>.</p>',
      `<p>${YT}</p>`,
      '<p><a href="/files/photo.png"><img src="/files/photo.png" srcset="/files/photo-300x200.png 300w, /files/photo.png 800w" width="800" height="600" alt=""></a></p>',
      '<p><img src="/files/photo-300x200.png" width="300" height="200" alt=""></p>',
      '<h2>Wstęp</h2>',
    ].join('\n');
    const embeds = new Map([
      [
        YT,
        {
          type: 'video' as const,
          html: `<iframe src="https://www.youtube.com/embed/abc" onload="x()"></iframe><script>alert(1)</script>`,
        },
      ],
    ]);
    const result = processHtml(processor, html, { ...item, embeds });
    expect(result.html).toBe(
      [
        '<h2 id="wstęp">Wstęp</h2>',
        '<p>Zobacz <a href="../../../about/team/#ludzie">zespół</a> i <a>to</a>.</p>',
        '<figure class="embed embed-video"><iframe src="https://www.youtube.com/embed/abc" loading="lazy"></iframe></figure>',
        '<p><a href="../../../media/3fa9-photo.png"><img src="../../../media/3fa9-photo.png" srcset="../../../media/3fa9-photo-300x200.png 300w, ../../../media/3fa9-photo.png 800w" width="800" height="600" alt=""></a></p>',
        '<p><img src="../../../media/3fa9-photo-300x200.png" width="300" height="200" alt="" loading="lazy" decoding="async"></p>',
        '<h2 id="wstęp-1">Wstęp</h2>',
      ].join('\n'),
    );
    expect(result.warnings).toEqual(['2:57: Removed href from <a>: unsafe URL scheme']);
  });

  it('does not report links to mirrored files as unmirrored pages', () => {
    const result = processHtml(
      processor,
      '<a href="/files/photo.png">orig</a><a href="/pl/tag/x/">tag</a>',
      item,
    );
    expect(result.html).toBe(
      '<a href="../../../media/3fa9-photo.png">orig</a><a href="http://host.test/pl/tag/x/">tag</a>',
    );
    expect(result.warnings).toEqual([
      '1:36: Link to http://host.test/pl/tag/x/ is not a mirrored item; it still points at the remote site',
    ]);
  });

  it('keeps per-item state apart when one processor is reused', () => {
    const first = processHtml(
      processor,
      '<h2>A</h2><img src="/files/photo.png"><img src="/files/photo.png">',
      item,
    );
    const second = processHtml(
      processor,
      '<h2>A</h2><img src="/files/photo.png"><a href="/pl/about/team/">t</a>',
      {
        baseUrl: 'http://host.test/pl/',
        pagePath: '/',
      },
    );
    expect(first.html).toBe(
      '<h2 id="a">A</h2><img src="../../../media/3fa9-photo.png"><img src="../../../media/3fa9-photo.png" loading="lazy" decoding="async">',
    );
    expect(second.html).toBe(
      '<h2 id="a">A</h2><img src="media/3fa9-photo.png"><a href="about/team/">t</a>',
    );
    expect(second.warnings).toEqual([]);
  });

  it('agrees with findEmbedUrls on what is an embed', () => {
    const html = `<p>${YT}</p><figure class="cms-block-embed"><div class="cms-block-embed__wrapper">https://vimeo.com/1</div></figure>`;
    const urls = findEmbedUrls(html);
    expect(urls).toEqual([YT, 'https://vimeo.com/1']);
    const embeds = new Map(urls.map((url) => [url, { type: 'link' as const, title: `T ${url}` }]));
    const out = processHtml(processor, html, { ...item, embeds }).html;
    for (const url of urls) expect(out).toContain(`>T ${url}</a>`);
  });

  it('passes the processor options through', () => {
    const custom = createHtmlProcessor({
      resolveLink,
      resolveMedia,
      lazyLoading: false,
      headingIdPrefix: 'h-',
      allowedIframeHosts: ['player.example.test'],
    });
    const embeds = new Map([
      [
        YT,
        {
          type: 'video' as const,
          html: '<iframe src="https://www.youtube.com/embed/abc"></iframe>',
        },
      ],
    ]);
    const result = processHtml(custom, `<h2>A</h2><img src="a.png"><img src="b.png"><p>${YT}</p>`, {
      ...item,
      embeds,
    });
    expect(result.html).toBe(
      '<h2 id="h-a">A</h2><img src="http://host.test/pl/2024/03/my-post/a.png"><img src="http://host.test/pl/2024/03/my-post/b.png"><figure class="embed-card"><a href="https://www.youtube.com/watch?v=abc" rel="noopener">https://www.youtube.com/watch?v=abc</a><figcaption>www.youtube.com</figcaption></figure>',
    );
  });

  it('handles empty and non-HTML input', () => {
    expect(processHtml(processor, '', item)).toEqual({ html: '', warnings: [] });
    expect(processHtml(processor, 'plain & simple <3', item).html).toBe(
      'plain &#x26; simple &#x3C;3',
    );
  });

  it('has a positive integer version', () => {
    expect(Number.isInteger(TRANSFORM_VERSION) && TRANSFORM_VERSION > 0).toBe(true);
  });
});
