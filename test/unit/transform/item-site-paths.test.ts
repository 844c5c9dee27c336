import { describe, expect, it } from 'vitest';
import { assignSitePaths } from '../../../src/transform/item-site-paths.js';
import { mediaSitePath } from '../../../src/transform/media-site-paths.js';

const home = 'http://host/pl/';

describe('assignSitePaths', () => {
  it('keeps remote URL paths under the language home', () => {
    const paths = assignSitePaths(
      [
        { type: 'pages', id: 2, link: 'http://host/pl/about/team/' },
        { type: 'posts', id: 7, link: 'http://host/pl/2024/03/hello/' },
      ],
      home,
    );
    expect(paths.get('pages:2')).toBe('/about/team/');
    expect(paths.get('posts:7')).toBe('/2024/03/hello/');
  });

  it('gives hostile, foreign, reserved, file-like and contested links a safe fallback', () => {
    const paths = assignSitePaths(
      [
        { type: 'pages', id: 1, link: 'http://host/pl/same/' },
        { type: 'posts', id: 2, link: 'http://host/pl/same/' },
        { type: 'posts', id: 3, link: 'http://elsewhere/pl/x/' },
        { type: 'posts', id: 4, link: 'http://host/pl/media/x/' },
        { type: 'posts', id: 5, link: 'http://host/pl/feed.xml' },
        { type: 'posts', id: 6, link: `http://host/pl/${'a'.repeat(300)}/` },
        { type: 'posts', id: 8, link: 'http://host/pl/?p=8' },
        { type: 'posts', id: 9, link: null },
        { type: 'posts', id: 10, link: 'http://host/pl/posts/11/' },
        { type: 'posts', id: 12, link: 'http://host/pl/' },
      ],
      home,
    );
    expect(paths.get('pages:1')).toBe('/same/');
    for (const id of [2, 3, 4, 5, 6, 8, 9, 10, 12])
      expect(paths.get(`posts:${id}`)).toBe(`/posts/${id}/`);
  });

  it('resolves dot segments and encoded separators inside the site', () => {
    const paths = assignSitePaths(
      [
        { type: 'posts', id: 1, link: 'http://host/pl/../../etc/passwd/' },
        { type: 'posts', id: 2, link: 'http://host/pl/a%2F..%2F..%2Fb/' },
      ],
      home,
    );
    for (const path of paths.values()) {
      expect(path.startsWith('/')).toBe(true);
      expect(path.split('/')).not.toContain('..');
    }
  });
});

describe('mediaSitePath', () => {
  const sha = 'ab'.repeat(32);
  it('names a file by its hash and a cleaned original name', () => {
    expect(mediaSitePath('http://host/pl/cms-content/uploads/2024/03/Zdjęcie Łódź.PNG', sha)).toBe(
      `/media/${sha.slice(0, 16)}-Zdjecie-odz.png`,
    );
  });
  it('never lets a name carry separators or dots out of media/', () => {
    expect(mediaSitePath('http://host/x/..%2F..%2Fetc%2Fpasswd', sha)).toBe(
      `/media/${sha.slice(0, 16)}-passwd.bin`,
    );
    expect(mediaSitePath('not a url', sha)).toBe(`/media/${sha.slice(0, 16)}-file.bin`);
  });
});

describe('assignSitePaths and the build agree on unsafe segments', () => {
  it('falls back when a segment decodes to a separator, a dot segment or a control character', () => {
    const links = [
      'http://host/pl/a%2Fb/',
      'http://host/pl/a%5Cb/',
      'http://host/pl/%2e%2e/',
      'http://host/pl/x%0Ay/',
    ];
    const paths = assignSitePaths(
      links.map((link, index) => ({ type: 'posts', id: index + 1, link })),
      home,
    );
    links.forEach((_, index) =>
      expect(paths.get(`posts:${index + 1}`)).toBe(`/posts/${index + 1}/`),
    );
  });
});
