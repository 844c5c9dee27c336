import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafePathError } from '../../../src/errors.js';
import {
  checkedSitePath,
  safeOutputPath,
  safeRelativeFile,
  siteFilePath,
} from '../../../src/site/safe-output-path.js';

const root = path.resolve('/srv/output/pl');

function inside(file: string): boolean {
  const relative = path.relative(root, file);
  return (
    relative !== '' &&
    relative !== '..' &&
    !relative.startsWith(`..${path.sep}`) &&
    !path.isAbsolute(relative)
  );
}

function codeOf(run: () => unknown): string | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    expect(error).toBeInstanceOf(UnsafePathError);
    return (error as UnsafePathError).code;
  }
}

describe('siteFilePath', () => {
  it.each([
    ['/', 'index.html'],
    ['/2024/03/my-post/', '2024/03/my-post/index.html'],
    ['/about/team/', 'about/team/index.html'],
    ['/feed.xml', 'feed.xml'],
    ['/media/3fa9-photo.png', 'media/3fa9-photo.png'],
    ['/za%C5%BC%C3%B3%C5%82%C4%87/', 'zażółć/index.html'],
    ['/zażółć/', 'zażółć/index.html'],
    ['/%D0%BF%D1%80%D0%B8%D0%B2%D0%B5%D1%82/', 'привет/index.html'],
    ['/日本語/', '日本語/index.html'],
    ['/a//b/', 'a/b/index.html'],
    ['/..../', '..../index.html'],
    ['/\u202Eevil/', '\u202Eevil/index.html'],
    // A malformed escape is kept literally.
    ['/100%/', '100%/index.html'],
  ])('%s → %s', (sitePath, file) => {
    expect(siteFilePath(sitePath)).toBe(file);
    expect(inside(safeOutputPath(root, sitePath))).toBe(true);
  });

  it('gives the same file for two spellings of one path', () => {
    expect(siteFilePath('/za%c5%bc%c3%b3%c5%82%c4%87/')).toBe(siteFilePath('/zażółć/'));
    expect(checkedSitePath('/zażółć/')).toBe('/za%C5%BC%C3%B3%C5%82%C4%87/');
  });
});

describe('hostile site paths', () => {
  const hostile = [
    '/../etc/passwd',
    '/../../../../etc/passwd',
    '/a/../../b/',
    '/a/./b/',
    '/%2e%2e/%2e%2e/etc/passwd',
    '/%2E%2E/x/',
    '/.%2e/x',
    // Encoded separators and control characters: no request URL could reach such a file.
    '/..%2f..%2fetc/passwd',
    '/a%2Fb/',
    '/a%5Cb/',
    '/a%00b/',
    '/a%0Ab/',
    '/..',
    '/.',
    'etc/passwd',
    '../x',
    '',
    'C:\\Windows\\system32',
    '\\\\server\\share',
    `/${'a'.repeat(256)}/`,
    `/${'ż'.repeat(128)}/`,
    `/${Array.from({ length: 40 }, () => 'x').join('/')}/`,
  ];

  it.each(hostile)('%j is refused with E_UNSAFE_PATH', (sitePath) => {
    expect(codeOf(() => safeOutputPath(root, sitePath))).toBe('E_UNSAFE_PATH');
  });

  it('never resolves outside the root for any generated path', () => {
    const pieces = [
      '..',
      '.',
      '%2e%2e',
      '%2E.',
      '%2f',
      '%5c',
      '\\',
      '/',
      'a',
      'ż',
      '%00',
      '%',
      '~',
      ':',
      'C:',
      '?',
      '#',
    ];
    let refused = 0;
    let accepted = 0;
    for (const a of pieces) {
      for (const b of pieces) {
        for (const c of pieces) {
          const sitePath = `/${a}${b}/${c}/`;
          try {
            const file = safeOutputPath(root, sitePath);
            expect(inside(file), sitePath).toBe(true);
            accepted++;
          } catch (error) {
            expect(error).toBeInstanceOf(UnsafePathError);
            refused++;
          }
        }
      }
    }
    expect(accepted).toBeGreaterThan(0);
    expect(refused).toBeGreaterThan(0);
  });

  it('keeps a name of exactly 255 bytes and refuses 256', () => {
    expect(siteFilePath(`/${'a'.repeat(255)}/`)).toBe(`${'a'.repeat(255)}/index.html`);
    expect(codeOf(() => siteFilePath(`/${'a'.repeat(256)}/`))).toBe('E_UNSAFE_PATH');
  });
});

describe('safeRelativeFile', () => {
  it('accepts plain relative files', () => {
    expect(safeRelativeFile(root, 'pagefind/s0/pagefind.js')).toBe(
      path.join(root, 'pagefind/s0/pagefind.js'),
    );
    expect(safeRelativeFile(root, '..foo')).toBe(path.join(root, '..foo'));
  });

  it.each([
    '../x',
    'a/../../x',
    '/etc/passwd',
    'a//b',
    './a',
    '',
    'a\u0000b',
    'a/..',
    'a\\..\\..\\x',
  ])('%j is refused', (file) => {
    expect(codeOf(() => safeRelativeFile(root, file))).toBe('E_UNSAFE_PATH');
  });
});
