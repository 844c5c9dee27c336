import { describe, expect, it } from 'vitest';
import { isSafeUrl, urlScheme } from '../../../src/transform/url-safety.js';

describe('urlScheme / isSafeUrl', () => {
  it.each([
    ['javascript:alert(1)', 'javascript'],
    ['  JavaScript:alert(1)', 'javascript'],
    ['java\tscript:alert(1)', 'javascript'],
    ['java\nscript:alert(1)', 'javascript'],
    ['\u0000javascript:alert(1)', 'javascript'],
    ['vbscript:msgbox', 'vbscript'],
    ['data:text/html,<script>alert(1)</script>', 'data'],
    ['DATA:image/png;base64,AAAA', 'data'],
    ['file:///etc/passwd', 'file'],
  ])('%j is unsafe (%s)', (url, scheme) => {
    expect(urlScheme(url)).toBe(scheme);
    expect(isSafeUrl(url)).toBe(false);
  });

  it.each([
    ['https://x.test/', 'https'],
    ['http://x.test/', 'http'],
    ['mailto:a@b.test', 'mailto'],
    ['tel:+48123', 'tel'],
    ['/a:b', undefined],
    ['a/b:c', undefined],
    ['?q=javascript:x', undefined],
    ['#javascript:x', undefined],
    ['//x.test/', undefined],
    ['\uFFFDjavascript:alert(1)', undefined],
    ['', undefined],
  ])('%j is safe (%s)', (url, scheme) => {
    expect(urlScheme(url)).toBe(scheme);
    expect(isSafeUrl(url)).toBe(true);
  });

  it('takes the allowed schemes as an argument', () => {
    expect(isSafeUrl('ftp://x.test/', ['https'])).toBe(false);
    expect(isSafeUrl('https://x.test/', ['https'])).toBe(true);
  });
});
