import { describe, expect, it } from 'vitest';
import { createUrlResolver, urlKey } from '../../../src/transform/url-resolver.js';

describe('urlKey', () => {
  it('ignores scheme, host case, default port, escape case, trailing slash and fragment', () => {
    const key = urlKey('http://host.test/pl/zażółć/');
    for (const spelling of [
      'https://HOST.test/pl/za%c5%bc%c3%b3%c5%82%c4%87',
      'http://host.test:80/pl/za%C5%BC%C3%B3%C5%82%C4%87/#comments',
      'http://host.test/pl/./zażółć/',
    ]) {
      expect(urlKey(spelling)).toBe(key);
    }
  });

  it('keeps the query and the port', () => {
    expect(urlKey('http://host.test/pl/?p=1')).not.toBe(urlKey('http://host.test/pl/?p=2'));
    expect(urlKey('http://host.test:8080/pl/')).not.toBe(urlKey('http://host.test/pl/'));
  });

  it.each([['mailto:a@b.test'], ['/relative/'], ['javascript:alert(1)'], ['http://']])(
    '%j has no key',
    (url) => {
      expect(urlKey(url)).toBeUndefined();
    },
  );
});

describe('createUrlResolver', () => {
  const resolve = createUrlResolver([
    ['http://host.test/pl/zażółć/', '/zażółć/'],
    ['http://host.test/pl/?p=12', '/p12/'],
    ['http://host.test/pl/about/', '/about/'],
    ['https://host.test/pl/about', '/second/'],
    ['not a url', '/never/'],
  ]);

  it('answers normalized site paths for any spelling of a known URL', () => {
    expect(resolve('https://host.test/pl/za%c5%bc%c3%b3%c5%82%c4%87')).toBe(
      '/za%C5%BC%C3%B3%C5%82%C4%87/',
    );
    expect(resolve('http://host.test/pl/?p=12')).toBe('/p12/');
    expect(resolve('http://host.test/pl/?p=13')).toBeUndefined();
    expect(resolve('http://host.test/pl/contact/')).toBeUndefined();
    expect(resolve('garbage')).toBeUndefined();
  });

  it('keeps the first entry when two share a key', () => {
    expect(resolve('http://host.test/pl/about/')).toBe('/about/');
  });
});
