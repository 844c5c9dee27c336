import { describe, expect, it } from 'vitest';
import { PathClaims } from '../../../src/site/path-claims.js';

/**
 * Output-path safety (issue 11, mutation testing of the site's path claims): two owners never
 * get the same output file, a file never stands where another needs a directory (nor the
 * reverse), and the build's own directories stay its own. The first claim wins.
 */
describe('PathClaims: which output file belongs to whom', () => {
  it('grants a file once; a second owner of the same file is told whose it is', () => {
    const claims = new PathClaims();
    expect(claims.claim('a/index.html', 'post 1')).toBeUndefined();
    expect(claims.claim('a/index.html', 'page 2')).toBe('the same file as post 1');
    expect(claims.claim('b/index.html', 'page 2')).toBeUndefined();
    expect(claims.has('a/index.html')).toBe(true);
    expect(claims.has('b/index.html')).toBe(true);
  });

  it('refuses a file where claimed files need a directory, at every depth', () => {
    const claims = new PathClaims();
    expect(claims.claim('x/y/z/index.html', 'post 1')).toBeUndefined();
    for (const file of ['x', 'x/y', 'x/y/z']) {
      expect(claims.claim(file, 'post 2'), file).toBe('a directory other files need');
      expect(claims.has(file), file).toBe(false);
    }
    // Beside them is free.
    expect(claims.claim('x/y/other.html', 'post 3')).toBeUndefined();
  });

  it('refuses a file below a claimed file, naming the owner of that file, at every depth', () => {
    const claims = new PathClaims();
    expect(claims.claim('feed.xml', 'the feed')).toBeUndefined();
    expect(claims.claim('feed.xml/index.html', 'post 1')).toBe(
      'a directory where the feed is a file',
    );
    expect(claims.claim('feed.xml/a/b/index.html', 'post 2')).toBe(
      'a directory where the feed is a file',
    );
    expect(claims.claim('p/q', 'post 3')).toBeUndefined();
    expect(claims.claim('p/q/r/index.html', 'post 4')).toBe('a directory where post 3 is a file');
    expect(claims.has('feed.xml/index.html')).toBe(false);
  });

  it('keeps reserved directories for the build: no claim inside or on them', () => {
    const claims = new PathClaims();
    claims.reserveDirectory('assets');
    claims.reserveDirectory('search-index');
    expect(claims.claim('assets/site.css', 'post 1')).toBe("the build's own assets/ directory");
    expect(claims.claim('search-index/a/b.js', 'post 2')).toBe(
      "the build's own search-index/ directory",
    );
    expect(claims.claim('assets', 'post 3')).toBe('a directory other files need');
    expect(claims.has('assets/site.css')).toBe(false);
    // A name that only starts like a reserved one is not in it.
    expect(claims.claim('assets-old/site.css', 'post 4')).toBeUndefined();
  });

  it('the build claims its own files inside a reserved directory; nobody else gets them', () => {
    const claims = new PathClaims();
    claims.reserveDirectory('assets');
    claims.claimReserved('assets/site.css', 'the theme');
    expect(claims.has('assets/site.css')).toBe(true);
    expect(claims.claim('assets/site.css', 'post 1')).toBe('the same file as the theme');
  });

  it('a granted file does not make its own name a directory', () => {
    const claims = new PathClaims();
    expect(claims.claim('page/2/index.html', 'listing page 2')).toBeUndefined();
    // The file itself is not a directory: a name below it is refused as below a file.
    expect(claims.claim('page/2/index.html/x', 'post 1')).toBe(
      'a directory where listing page 2 is a file',
    );
  });
});
