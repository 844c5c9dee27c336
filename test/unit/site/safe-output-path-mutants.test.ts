import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { UnsafePathError } from '../../../src/errors.js';
import {
  checkSitePath,
  safeOutputPath,
  safeRelativeFile,
  siteFilePath,
} from '../../../src/site/safe-output-path.js';

// Cases found by mutation testing (test/mutation/RESULTS.md): the limits of a site path and
// the line the user reads when one is refused.

const root = path.resolve('/srv/output/pl');

function refusal(run: () => unknown): UnsafePathError {
  let caught: unknown;
  try {
    run();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(UnsafePathError);
  return caught as UnsafePathError;
}

/** A page path of `count` segments, each `name`. */
const deep = (count: number, name = 'x'): string =>
  `/${Array.from({ length: count }, () => name).join('/')}/`;

describe('segment limit', () => {
  it('keeps a page 32 segments deep and refuses 33, saying why', () => {
    expect(siteFilePath(deep(32))).toBe(`${Array(32).fill('x').join('/')}/index.html`);
    expect(refusal(() => siteFilePath(deep(33))).message).toBe(
      `The path ${JSON.stringify(deep(33))} has more than 32 segments; it is not written.`,
    );
  });

  it('counts segments of encoded paths too', () => {
    expect(siteFilePath(deep(32, 'ż'))).toBe(`${Array(32).fill('ż').join('/')}/index.html`);
    expect(refusal(() => siteFilePath(deep(33, 'ż'))).message).toContain(
      'has more than 32 segments',
    );
  });
});

describe('file path length limit', () => {
  /** A page path whose file path (`…/index.html`) is exactly `bytes` long. */
  function pageWithFileBytes(bytes: number): string {
    const suffix = '/index.html'.length;
    const segments: string[] = [];
    let length = -1; // no slash before the first segment
    while (length + 1 + 200 + suffix <= bytes) {
      segments.push('a'.repeat(200));
      length += 201;
    }
    segments.push('b'.repeat(bytes - suffix - length - 1));
    return `/${segments.join('/')}/`;
  }

  it('keeps a file path of 2048 bytes and refuses 2049', () => {
    const longest = pageWithFileBytes(2048);
    expect(Buffer.byteLength(siteFilePath(longest))).toBe(2048);
    const tooLong = pageWithFileBytes(2049);
    const error = refusal(() => siteFilePath(tooLong));
    expect(error.message).toContain('is longer than 2048 bytes as a file path; it is not written.');
  });
});

describe('the refusal names the path and the reason', () => {
  it.each([
    ['etc/passwd', 'does not start with "/"'],
    ['/a/../b/', 'has a dot segment'],
    ['/a/%2E/b/', 'has a dot segment'],
    ['/a%2Fb/', 'has an encoded separator or control character'],
    ['/a%7Fb/', 'has an encoded separator or control character'],
    ['/a%1Fb/', 'has an encoded separator or control character'],
  ])('%j: %s', (sitePath, reason) => {
    expect(refusal(() => checkSitePath(sitePath)).message).toBe(
      `The path ${JSON.stringify(sitePath)} ${reason}; it is not written.`,
    );
  });

  it('shortens a very long path to 120 characters in the message but keeps it whole on the error', () => {
    const sitePath = `/../${'q'.repeat(300)}/`;
    const error = refusal(() => siteFilePath(sitePath));
    expect(error.message).toBe(
      `The path "${sitePath.slice(0, 120)}…" has a dot segment; it is not written.`,
    );
    expect(error.path).toBe(sitePath);
  });

  it('a path of exactly 120 characters is shown whole', () => {
    const sitePath = `/../${'q'.repeat(116)}`;
    expect(sitePath).toHaveLength(120);
    expect(refusal(() => siteFilePath(sitePath)).message).toBe(
      `The path ${JSON.stringify(sitePath)} has a dot segment; it is not written.`,
    );
  });

  it('a relative file holding NUL is refused', () => {
    // Named without the NUL itself: a test name with a control character is not found again
    // by name, so the mutation run would never re-run it.
    expect(refusal(() => safeRelativeFile(root, 'a\u0000b')).message).toBe(
      `The path ${JSON.stringify('a\u0000b')} is empty or holds NUL; it is not written.`,
    );
  });

  it('a relative file is refused with its own reason', () => {
    expect(refusal(() => safeRelativeFile(root, '')).message).toBe(
      'The path "" is empty or holds NUL; it is not written.',
    );
    expect(refusal(() => safeRelativeFile(root, 'a/./b')).message).toBe(
      'The path "a/./b" is not a plain relative file path; it is not written.',
    );
    expect(refusal(() => safeRelativeFile(root, 'a\\b\\..')).message).toContain(
      'is not a plain relative file path',
    );
  });
});

describe('canonical site path and file in one pass', () => {
  it('gives the canonical spelling for an encoded path and keeps a plain one as is', () => {
    expect(checkSitePath('/2024/03/my-post/')).toEqual({
      sitePath: '/2024/03/my-post/',
      file: '2024/03/my-post/index.html',
    });
    expect(checkSitePath('/a//ż/')).toEqual({ sitePath: '/a/%C5%BC/', file: 'a/ż/index.html' });
    expect(safeOutputPath(root, '/a//ż/')).toBe(path.join(root, 'a', 'ż', 'index.html'));
  });

  it('a plain path longer than 255 characters is still checked segment by segment', () => {
    const sitePath = deep(20, 'abcdefghijklmn');
    expect(sitePath.length).toBeGreaterThan(255);
    expect(checkSitePath(sitePath)).toEqual({
      sitePath,
      file: `${Array(20).fill('abcdefghijklmn').join('/')}/index.html`,
    });
  });
});
