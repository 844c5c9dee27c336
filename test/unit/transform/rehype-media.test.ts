import { describe, expect, it } from 'vitest';
import { rehypeInternalLinks } from '../../../src/transform/rehype-internal-links.js';
import { rehypeMedia } from '../../../src/transform/rehype-media.js';
import { createUrlResolver } from '../../../src/transform/url-resolver.js';
import { runPlugins } from '../../helpers/transform/run-plugin.js';

const resolveMedia = createUrlResolver([
  ['http://host.test/files/photo.png', '/media/3fa9-photo.png'],
  ['http://host.test/files/photo-300x200.png', '/media/3fa9-photo-300x200.png'],
  ['http://host.test/files/photo-800x600.png', '/media/3fa9-photo-800x600.png'],
  ['http://host.test/files/clip.mp4', '/media/77aa-clip.mp4'],
  ['http://host.test/files/zdjęcie.jpg', '/media/1234-zdjęcie.jpg'],
  ['http://host.test/files/doc.pdf', '/media/99-doc.pdf'],
]);
const context = { baseUrl: 'http://host.test/pl/2024/03/my-post/', pagePath: '/2024/03/my-post/' };
const M = '../../../media';

function run(html: string, lazyLoading = true) {
  return runPlugins(html, [rehypeMedia({ resolveMedia, lazyLoading })], context);
}

describe('rehypeMedia', () => {
  it.each([
    [
      '<img src="/files/photo.png" width="800" height="600" alt="a">',
      `<img src="${M}/3fa9-photo.png" width="800" height="600" alt="a">`,
    ],
    ['<img src="http://host.test/files/photo.png">', `<img src="${M}/3fa9-photo.png">`],
    ['<img src="//host.test/files/photo.png">', `<img src="${M}/3fa9-photo.png">`],
    ['<img src="../../../../files/photo.png">', `<img src="${M}/3fa9-photo.png">`],
    ['<img src="/files/zdj%C4%99cie.jpg">', `<img src="${M}/1234-zdj%C4%99cie.jpg">`],
    [
      '<video src="/files/clip.mp4" poster="/files/photo.png"></video>',
      `<video src="${M}/77aa-clip.mp4" poster="${M}/3fa9-photo.png"></video>`,
    ],
    ['<audio src="/files/clip.mp4"></audio>', `<audio src="${M}/77aa-clip.mp4"></audio>`],
    [
      '<video><source src="/files/clip.mp4" type="video/mp4"></video>',
      `<video><source src="${M}/77aa-clip.mp4" type="video/mp4"></video>`,
    ],
    ['<a href="/files/doc.pdf">PDF</a>', `<a href="${M}/99-doc.pdf">PDF</a>`],
    [
      '<a href="/files/photo.png#x"><img src="/files/photo-300x200.png"></a>',
      `<a href="${M}/3fa9-photo.png#x"><img src="${M}/3fa9-photo-300x200.png"></a>`,
    ],
  ])('%s', (input, expected) => {
    expect(run(input).html).toBe(expected);
  });

  it('rewrites every srcset candidate', () => {
    const input =
      '<img src="/files/photo.png" srcset="/files/photo-300x200.png 300w, http://host.test/files/photo-800x600.png 800w" sizes="(max-width: 800px) 100vw, 800px">';
    expect(run(input)).toEqual({
      html: `<img src="${M}/3fa9-photo.png" srcset="${M}/3fa9-photo-300x200.png 300w, ${M}/3fa9-photo-800x600.png 800w" sizes="(max-width: 800px) 100vw, 800px">`,
      messages: [],
    });
  });

  it('drops candidates that are not mirrored when others are local, and says so', () => {
    const input =
      '<img src="/files/photo.png" srcset="/files/photo-300x200.png 300w, /files/photo-1024x768.png 1024w">';
    const result = run(input);
    expect(result.html).toBe(
      `<img src="${M}/3fa9-photo.png" srcset="${M}/3fa9-photo-300x200.png 300w">`,
    );
    expect(result.messages).toEqual([
      'Dropped srcset candidates that are not mirrored: http://host.test/files/photo-1024x768.png',
    ]);
  });

  it('drops a wholly remote srcset (and its sizes) when the src is local', () => {
    const input =
      '<img src="/files/photo.png" srcset="https://cdn.test/a.png 1x, https://cdn.test/b.png 2x" sizes="100vw">';
    expect(run(input).html).toBe(`<img src="${M}/3fa9-photo.png">`);
  });

  it('keeps a remote srcset when nothing of the element is mirrored, made absolute', () => {
    const input =
      '<img src="https://cdn.test/a.png" srcset="https://cdn.test/a.png 1x, /files/b.png 2x">';
    const result = run(input);
    expect(result.html).toBe(
      '<img src="https://cdn.test/a.png" srcset="https://cdn.test/a.png 1x, http://host.test/files/b.png 2x">',
    );
  });

  it('copes with malformed srcset values', () => {
    expect(run('<img srcset=",,, ,">').html).toBe('<img>');
    expect(run('<img srcset="/files/photo.png 1x 2x ,, /files/photo-300x200.png (((">').html).toBe(
      `<img srcset="${M}/3fa9-photo.png 1x 2x, ${M}/3fa9-photo-300x200.png (((">`,
    );
    expect(run('<source srcset="/img.php?w=1,2 1x, /files/photo.png 2x">').html).toBe(
      `<source srcset="${M}/3fa9-photo.png 2x">`,
    );
  });

  it('warns about unmirrored media on the own host and makes it absolute', () => {
    const result = run('<img src="/files/missing.png"><img src="https://cdn.test/x.png">');
    expect(result.html).toBe(
      '<img src="http://host.test/files/missing.png"><img src="https://cdn.test/x.png" loading="lazy" decoding="async">',
    );
    expect(result.messages).toEqual([
      'Media http://host.test/files/missing.png is not mirrored; it still loads from the remote site',
    ]);
  });

  it('leaves links that are not media to the link plugin', () => {
    expect(run('<a href="/pl/about/">a</a><a href="/files/missing.png">m</a>')).toEqual({
      html: '<a href="/pl/about/">a</a><a href="/files/missing.png">m</a>',
      messages: [],
    });
  });

  it('lazy-loads every image after the first and keeps explicit values', () => {
    const input =
      '<p><img src="a.png"></p><img src="b.png"><img src="c.png" loading="eager" decoding="sync"><img src="d.png" loading="lazy">';
    expect(run(input).html).toBe(
      '<p><img src="http://host.test/pl/2024/03/my-post/a.png"></p>' +
        '<img src="http://host.test/pl/2024/03/my-post/b.png" loading="lazy" decoding="async">' +
        '<img src="http://host.test/pl/2024/03/my-post/c.png" loading="eager" decoding="sync">' +
        '<img src="http://host.test/pl/2024/03/my-post/d.png" loading="lazy" decoding="async">',
    );
  });

  it('can leave loading alone', () => {
    expect(run('<img src="/files/photo.png"><img src="/files/photo.png">', false).html).toBe(
      `<img src="${M}/3fa9-photo.png"><img src="${M}/3fa9-photo.png">`,
    );
  });

  it('does not read a local path written by an earlier plugin as a remote URL', () => {
    // The link plugin turns /pl/files/ into a local path first; read against the remote page
    // that path would name http://host.test/files/photo.png, a mirrored file.
    const resolveLink = createUrlResolver([
      ['http://host.test/pl/files/photo.png', '/files/photo.png'],
    ]);
    const result = runPlugins(
      '<a href="/pl/files/photo.png">x</a>',
      [rehypeInternalLinks({ resolveLink }), rehypeMedia({ resolveMedia })],
      { baseUrl: 'http://host.test/pl/', pagePath: '/' },
    );
    expect(result.html).toBe('<a href="files/photo.png">x</a>');
  });
});
