/**
 * Cases found by mutation testing (test/mutation/RESULTS.md): site paths of URLs under homes
 * that are not plainly written or not http(s), broken UTF-16 and partly valid escapes, and
 * the refusal of a segment no file can be named after.
 */
import { describe, expect, it } from 'vitest';
import {
  normalizeSitePath,
  sitePathForUrl,
  sitePathToFilePath,
} from '../../../src/transform/site-paths.js';

describe('sitePathForUrl: homes and URLs the shortcut must not take', () => {
  it('nothing is under a home or URL that is not http(s), even on the same host', () => {
    expect(sitePathForUrl('ftp://host.test/pl/x/', 'http://host.test/pl/')).toBeUndefined();
    expect(sitePathForUrl('http://host.test/pl/x/', 'ftp://host.test/pl/')).toBeUndefined();
    expect(sitePathForUrl('xhttp://host.test/pl/x/', 'xhttp://host.test/pl/')).toBeUndefined();
  });

  it('nothing is under a home that cannot be parsed, however the URL starts', () => {
    expect(sitePathForUrl('http://host.test:xx/pl/x/', 'http://host.test:xx/pl/')).toBeUndefined();
    expect(sitePathForUrl('http://%%/pl/x/', 'http://%%/pl/')).toBeUndefined();
  });

  it('a home written without its trailing slash still ends at a segment', () => {
    expect(sitePathForUrl('http://host.test/plx/', 'http://host.test/pl')).toBeUndefined();
    expect(sitePathForUrl('http://host.test/pl/x/', 'http://host.test/pl')).toBe('/x/');
  });

  it('a home holding a query mark is no plain home: a URL with a query is under nothing', () => {
    expect(sitePathForUrl('http://host.test/?a/x/', 'http://host.test/?a/')).toBeUndefined();
    expect(sitePathForUrl('http://host.test/a?/x/', 'http://host.test/a?/')).toBeUndefined();
  });

  it('a home with a segment that is not plain is compared segment by segment', () => {
    expect(sitePathForUrl('http://host.test/pl/a bc/', 'http://host.test/pl/a b')).toBeUndefined();
    expect(sitePathForUrl('http://host.test/pl/a b/c/', 'http://host.test/pl/a b')).toBe('/c/');
  });
});

describe('broken UTF-16 and partly valid escapes', () => {
  it('a lone surrogate becomes U+FFFD wherever it is; a valid pair stays one character', () => {
    expect(normalizeSitePath('/😀/')).toBe('/%F0%9F%98%80/');
    expect(normalizeSitePath('/\uDC00x/')).toBe('/%EF%BF%BDx/');
    expect(normalizeSitePath('/x\uDC00/')).toBe('/x%EF%BF%BD/');
    expect(normalizeSitePath('/x\uD800/')).toBe('/x%EF%BF%BD/');
    expect(sitePathToFilePath('/\uD800x/')).toBe('\uFFFDx/index.html');
    expect(sitePathToFilePath('/😀/')).toBe('😀/index.html');
  });

  it('decodes every valid escape of a run that also holds invalid ones', () => {
    // One-byte escapes decode alone; a decoded one does not take the next escape with it.
    expect(normalizeSitePath('/%41%FF/')).toBe('/A%25FF/');
    expect(normalizeSitePath('/%C5%BC%41%FF/')).toBe('/%C5%BCA%25FF/');
    expect(normalizeSitePath('/%FF%41%C5%BC/')).toBe('/%25FFA%C5%BC/');
    // Four escapes decode at most at once: the fifth is decoded on its own, not kept literal.
    expect(normalizeSitePath('/%E2%82%AC%41%42%FF/')).toBe('/%E2%82%ACAB%25FF/');
  });
});

describe('sitePathToFilePath: a segment too long for a file name', () => {
  it('says which path and why, quoting no more than its start', () => {
    const long = `/${'a'.repeat(300)}/`;
    let message = '';
    try {
      sitePathToFilePath(long);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(
      `The site path /${'a'.repeat(79)}… has a segment longer than 255 bytes`,
    );
    expect(message).not.toContain('a'.repeat(81));
  });
});
