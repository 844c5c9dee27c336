import { describe, expect, it } from 'vitest';
import {
  normalizeSitePath,
  relativeSitePath,
  sitePathForUrl,
  sitePathToFilePath,
} from '../../../src/transform/site-paths.js';
import { UnsafePathError } from '../../../src/errors.js';
import { createRandom } from '../../helpers/transform/random.js';

const ZAZOLC = 'za%C5%BC%C3%B3%C5%82%C4%87';

describe('normalizeSitePath', () => {
  it.each([
    ['/', '/'],
    ['', '/'],
    ['/a/b/', '/a/b/'],
    ['a/b', '/a/b'],
    ['/a//b/', '/a/b/'],
    ['/a/./b/../c/', '/a/c/'],
    ['/a/b/..', '/a/'],
    ['/../../etc/passwd', '/etc/passwd'],
    ['/%2e%2E/x/', '/x/'],
    ['/zażółć/', `/${ZAZOLC}/`],
    ['/za%c5%bc%c3%b3%c5%82%c4%87/', `/${ZAZOLC}/`],
    ['/日本語/', '/%E6%97%A5%E6%9C%AC%E8%AA%9E/'],
    ['/a%2Fb/', '/a%2Fb/'],
    ['/a b/', '/a%20b/'],
    ['/a:b/', '/a%3Ab/'],
    ['/a?b#c/', '/a%3Fb%23c/'],
    ['/%E0%A4%A/', '/%25E0%25A4%25A/'],
    ['/%C5%BC%FF/', '/%C5%BC%25FF/'],
    ['/100%/', '/100%25/'],
    ['/\uD800x/', '/%EF%BF%BDx/'],
    ["/it's-(ok)!~*/", "/it's-(ok)!~*/"],
  ])('%j → %j', (input, expected) => {
    expect(normalizeSitePath(input)).toBe(expected);
  });

  it('is idempotent', () => {
    for (const path of ['/%25E0/', `/${ZAZOLC}/`, '/%E0%A4%A/', '/a%2Fb/x.png']) {
      expect(normalizeSitePath(normalizeSitePath(path))).toBe(normalizeSitePath(path));
    }
  });
});

describe('relativeSitePath', () => {
  it.each([
    ['/2024/03/my-post/', '/about/team/', '../../../about/team/'],
    ['/2024/03/my-post/', '/media/3fa9-photo-800x600.png', '../../../media/3fa9-photo-800x600.png'],
    ['/2024/03/my-post/', '/2024/03/other/', '../other/'],
    ['/2024/03/my-post/', '/2024/03/my-post/', './'],
    ['/2024/03/my-post/', '/', '../../../'],
    ['/', '/', './'],
    ['/', '/about/', 'about/'],
    ['/', '/media/x.png', 'media/x.png'],
    ['/about/', '/', '../'],
    ['/a/', '/a/b/c/', 'b/c/'],
    ['/a/b/', '/a/', '../'],
    ['/a/file.html', '/a/b/', 'b/'],
    ['/zażółć/', '/zażółć/x/', 'x/'],
    ['/za%c5%bc/', '/zaż/x/', 'x/'],
    ['/', '/zażółć/', `${ZAZOLC}/`],
    ['/a/', '/日本/', '../%E6%97%A5%E6%9C%AC/'],
    ['/', '/javascript:alert(1)/', 'javascript%3Aalert(1)/'],
    ['/', '//evil.example/x/', 'evil.example/x/'],
    ['/x/', '/a b/c.png', '../a%20b/c.png'],
  ])('from %j to %j → %j', (from, to, expected) => {
    expect(relativeSitePath(from, to)).toBe(expected);
  });

  it('never yields something a browser reads as another origin or scheme', () => {
    for (const to of [
      '/javascript:alert(1)/',
      '//evil.example/',
      '/\\\\evil.example/',
      '/data:text/html,x/',
    ]) {
      const url = new URL(relativeSitePath('/', to), 'http://site.test/');
      expect(url.origin).toBe('http://site.test');
    }
  });

  it('resolves back to the target from the page, for a thousand random paths', () => {
    const random = createRandom(42);
    const segments = [
      'a',
      'b',
      '2024',
      'zażółć',
      '日本',
      '%',
      '%2F',
      '%E0%A4',
      ':',
      '.',
      '..',
      ' ',
      '?',
      '#',
      'x.png',
      'é',
      '\u0301',
      "'()",
    ];
    const path = (): string => {
      const parts = Array.from({ length: random.int(0, 4) }, () => random.pick(segments));
      return `/${parts.join('/')}${random.bool() ? '/' : ''}`;
    };
    for (let run = 0; run < 1000; run++) {
      const from = normalizeSitePath(path());
      const to = path();
      const relative = relativeSitePath(from, to);
      expect(new URL(relative, `http://site.test${from}`).pathname, `${from} → ${to}`).toBe(
        normalizeSitePath(to),
      );
    }
  });
});

describe('sitePathForUrl', () => {
  const home = 'http://host.test/pl/';
  it.each([
    ['http://host.test/pl/2024/03/my-post/', '/2024/03/my-post/'],
    ['http://host.test/pl/', '/'],
    ['http://host.test/pl', '/'],
    ['https://host.test/pl/about/', '/about/'],
    ['http://HOST.test/pl/about/#team', '/about/'],
    ['http://host.test/pl/zażółć/', `/${ZAZOLC}/`],
    ['http://host.test/pl/media/x.png', '/media/x.png'],
  ])('%j → %j', (url, expected) => {
    expect(sitePathForUrl(url, home)).toBe(expected);
  });

  it.each([
    ['http://other.test/pl/x/'],
    ['http://host.test/es/x/'],
    ['http://host.test/plx/'],
    ['http://host.test/pl/?p=12'],
    ['mailto:someone@host.test'],
    ['not a url'],
  ])('%j is not under the home', (url) => {
    expect(sitePathForUrl(url, home)).toBeUndefined();
  });

  it('works with a home at the root', () => {
    expect(sitePathForUrl('http://host.test/a/b/', 'http://host.test')).toBe('/a/b/');
  });
});

describe('sitePathToFilePath', () => {
  it.each([
    ['/', 'index.html'],
    ['/2024/03/my-post/', '2024/03/my-post/index.html'],
    ['/media/x.png', 'media/x.png'],
    [`/${ZAZOLC}/`, 'zażółć/index.html'],
    ['/zażółć/', 'zażółć/index.html'],
    ['/a%2Fb/', 'a%2Fb/index.html'],
    ['/..%2F..%2Fetc/', '..%2F..%2Fetc/index.html'],
    ['/../../etc/passwd', 'etc/passwd'],
    ['/%00x/', '%00x/index.html'],
    ['/a%5Cb/', 'a%5Cb/index.html'],
    ['/%25E0/', '%E0/index.html'],
  ])('%j → %j', (sitePath, expected) => {
    expect(sitePathToFilePath(sitePath)).toBe(expected);
  });

  it('refuses a segment longer than a file name may be', () => {
    expect(() => sitePathToFilePath(`/${'ż'.repeat(200)}/`)).toThrow(UnsafePathError);
    expect(() => sitePathToFilePath(`/${'a'.repeat(256)}/`)).toThrow(
      expect.objectContaining({ code: 'E_UNSAFE_PATH' }),
    );
    expect(sitePathToFilePath(`/${'a'.repeat(255)}/`)).toBe(`${'a'.repeat(255)}/index.html`);
  });

  it('names the file a static server finds for the relative link', () => {
    // A server decodes the request path and looks the file up under output/{lang}/.
    for (const sitePath of ['/zażółć/', '/a b/', '/100%/', '/%E0%A4%A/', '/日本語/x.png']) {
      const requested = new URL(relativeSitePath('/', sitePath), 'http://site.test/').pathname;
      const decoded = decodeURIComponent(requested).slice(1);
      const expected = sitePathToFilePath(sitePath);
      expect(sitePath.endsWith('/') ? `${decoded}index.html` : decoded).toBe(expected);
    }
  });

  it('never leaves the site for random hostile paths', () => {
    const random = createRandom(7);
    const pieces = ['..', '.', '%2e%2e', '%2E', '%2F', '/', '\\', '%5C', '%00', 'a', 'ż', ''];
    for (let run = 0; run < 1000; run++) {
      const path = Array.from({ length: random.int(1, 8) }, () => random.pick(pieces)).join(
        random.pick(['/', '']),
      );
      const file = sitePathToFilePath(path);
      expect(file.startsWith('/')).toBe(false);
      for (const name of file.split('/')) {
        expect(['', '.', '..']).not.toContain(name);
      }
    }
  });
});
