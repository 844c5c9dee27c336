/**
 * Cases found by mutation testing (test/mutation/RESULTS.md): which target URL each spelling
 * of a source URL becomes, and where in content the rewrite finds them.
 */
import { describe, expect, it } from 'vitest';
import type { RemapContext } from '../../../src/migrate/remap.js';
import {
  mapSourceUrl,
  rewriteSourceUrls,
  sourceIndex,
  type SourceIndex,
} from '../../../src/migrate/urls.js';

const context: RemapContext = {
  ids: {
    media: new Map(),
    pages: new Map([[12, 120]]),
    posts: new Map([[38, 380]]),
  },
  authors: new Map(),
  urls: new Map([
    ['http://src/site/pl/old/', 'http://dst/pl/new/'],
    ['http://src/site/pl/q/?lang=x', 'http://dst/pl/q-exact/'],
    ['http://src/site/pl/cms-content/uploads/2024/01/zaż.png', 'http://dst/up/z.png'],
    ['http://src/site/pl/cms-content/uploads/2024/01/a.png', 'http://dst/up/a.png'],
    ['http://src/site/pl/cms-content/uploads/2024/01/a-300.png', 'http://dst/up/a-300.png'],
    ['http://src/site/pl/not-an-upload.png', 'http://dst/up/n.png'],
  ]),
  sourceHome: 'http://src/site/pl',
  targetHome: 'http://dst/pl',
  sourceUrl: 'http://src/site',
  targetUrl: 'http://dst/',
};

function index(patch: Partial<RemapContext> = {}): SourceIndex {
  const made = sourceIndex({ ...context, ...patch });
  if (made === undefined) throw new Error('no source index');
  return made;
}

const map = (url: string, base?: string) => mapSourceUrl(url, index(), base);
const mapped = (url: string) => ({ kind: 'mapped', url });
const UNMATCHED = { kind: 'unmatched' };
const OTHER = { kind: 'other' };

describe('sourceIndex', () => {
  it('indexes the uploads under their decoded path, first URL first, in the home scheme', () => {
    const made = index({
      sourceHome: 'https://src/site/pl/',
      urls: new Map([
        ['http://src/site/pl/cms-content/uploads/2024/01/za%C5%BC.png', 'http://dst/up/1.png'],
        ['http://src/site/pl/cms-content/uploads/2024/01/zaż.png', 'http://dst/up/2.png'],
        ['http://src/site/pl/old/', 'http://dst/pl/new/'],
      ]),
    });
    expect([...made.uploads]).toEqual([['2024/01/zaż.png', 'http://dst/up/1.png']]);
    expect(made.uploadDirs).toEqual(['https://src/site/pl/cms-content/uploads/']);
    expect([...made.hosts]).toEqual(['src']);
    expect(sourceIndex({ ...context, sourceHome: '::' })).toBeUndefined();
  });

  it('knows the site host as a source host too, and no site when its URL is not one', () => {
    expect([...index({ sourceUrl: 'http://other:81' }).hosts]).toEqual(['src', 'other:81']);
    expect(index({ sourceUrl: 'nothing' }).site).toBeUndefined();
  });
});

describe('mapSourceUrl', () => {
  it('maps a migrated URL in either scheme, keeping its fragment', () => {
    expect(map('http://src/site/pl/old/')).toEqual(mapped('http://dst/pl/new/'));
    expect(map('https://src/site/pl/old/#part')).toEqual(mapped('http://dst/pl/new/#part'));
    expect(map('http://src/site/pl/old')).toEqual(mapped('http://dst/pl/new/'));
  });

  it('maps a URL whose query is part of its link exactly, else by its path with the query', () => {
    expect(map('http://src/site/pl/q/?lang=x')).toEqual(mapped('http://dst/pl/q-exact/'));
    expect(map('http://src/site/pl/old/?utm=1#t')).toEqual(mapped('http://dst/pl/new/?utm=1#t'));
  });

  it('maps uploads by their path below the marker, sizes and encodings included', () => {
    expect(map('http://src/cms-content/uploads/2024/01/a-300.png')).toEqual(
      mapped('http://dst/up/a-300.png'),
    );
    expect(map('http://src/site/pl/cms-content/uploads/2024/01/za%C5%BC.png?v=1')).toEqual(
      mapped('http://dst/up/z.png?v=1'),
    );
    expect(map('http://src/x/not-an-upload.png')).toEqual(OTHER);
  });

  it('reads a relative URL against the base it is given', () => {
    expect(map('../old/', 'http://src/site/pl/other/')).toEqual(mapped('http://dst/pl/new/'));
    expect(map('old/')).toEqual(OTHER);
  });

  it('maps a short link on the home by its id: posts by p, pages by p or page_id', () => {
    expect(map('http://src/site/pl/?p=38#c')).toEqual(mapped('http://dst/pl/?p=380#c'));
    expect(map('http://src/site/pl?p=12')).toEqual(mapped('http://dst/pl/?page_id=120'));
    expect(map('http://src/site/pl/?page_id=12')).toEqual(mapped('http://dst/pl/?page_id=120'));
    expect(map('http://src/site/pl/?page_id=38')).toEqual(UNMATCHED);
    expect(map('http://src/site/pl/?p=99')).toEqual(UNMATCHED);
    // Not on the home: not a short link.
    expect(map('http://src/site/pl/old/?p=38')).toEqual(mapped('http://dst/pl/new/?p=38'));
  });

  it('maps the home with any other query to the target home', () => {
    expect(map('http://src/site/pl/?s=term#r')).toEqual(mapped('http://dst/pl/?s=term#r'));
  });

  it('says unmatched for an unknown URL under the home or an uploads folder', () => {
    expect(map('http://src/site/pl/missing/')).toEqual(UNMATCHED);
    expect(map('http://src/site/pl/cms-content/uploads/2024/01/gone.png')).toEqual(UNMATCHED);
  });

  it('moves another language of the source by the sites’ prefixes', () => {
    expect(map('http://src/site/es/x/?a=1#b')).toEqual(mapped('http://dst/es/x/?a=1#b'));
    expect(map('https://src/site')).toEqual(mapped('http://dst'));
    expect(map('http://src/elsewhere/')).toEqual(OTHER);
  });

  it('leaves other hosts, other schemes and unreadable values alone', () => {
    expect(map('http://src2/site/pl/old/')).toEqual(OTHER);
    expect(map('ftp://src/site/pl/old/')).toEqual(OTHER);
    expect(map('http://[bad')).toEqual(OTHER);
  });
});

describe('rewriteSourceUrls', () => {
  const rewrite = (html: string, unmatched?: Set<string>) =>
    rewriteSourceUrls(html, index(), 'http://src/site/pl/old/', unmatched);

  it('rewrites every URL attribute, any case and spacing, in either quote', () => {
    expect(
      rewrite(
        `<A HREF = 'http://src/site/pl/old/'>x</A><video poster="../old/"></video>` +
          `<img Src="http://src/site/pl/old/?a=1&amp;b=2">`,
      ),
    ).toBe(
      `<A HREF = 'http://dst/pl/new/'>x</A><video poster="http://dst/pl/new/"></video>` +
        `<img Src="http://dst/pl/new/?a=1&b=2">`,
    );
  });

  it('leaves empty values, fragments and values that map to nothing as they were', () => {
    const html = '<a href="">e</a><a href=" #top">t</a><a href="https://example.com/">x</a>';
    expect(rewrite(html)).toBe(html);
  });

  it('rewrites a srcset only when a candidate changed', () => {
    const same = '<img srcset="https://example.com/a.png 1x, https://example.com/b.png 2x">';
    expect(rewrite(same)).toBe(same);
    expect(rewrite('<img srcset="http://src/site/pl/old/ 1x, https://example.com/b.png 2x">')).toBe(
      '<img srcset="http://dst/pl/new/ 1x, https://example.com/b.png 2x">',
    );
  });

  it('rewrites absolute URLs in text and escaped JSON, and stops at the URL’s end', () => {
    expect(
      rewrite(
        'see http://src/site/pl/old/) and [//src/site/pl/old/] ' +
          '{"u":"http:\\/\\/src\\/site\\/pl\\/old\\/"} http://src:80x',
      ),
    ).toBe(
      'see http://dst/pl/new/) and [http://dst/pl/new/] ' +
        '{"u":"http:\\/\\/dst\\/pl\\/new\\/"} http://src:80x',
    );
  });

  it('collects unmatched URLs as absolute ones, read against the item’s link', () => {
    const unmatched = new Set<string>();
    rewrite(
      '<a href="../missing/">m</a> http://src/site/pl/gone/ <a href="/elsewhere/">o</a>',
      unmatched,
    );
    expect([...unmatched].sort()).toEqual([
      'http://src/site/pl/gone/',
      'http://src/site/pl/missing/',
    ]);
  });

  it('reads a relative URL against the home when the item has no link', () => {
    expect(rewriteSourceUrls('<a href="old/">x</a>', index(), undefined)).toBe(
      '<a href="http://dst/pl/new/">x</a>',
    );
  });
});

// Survivors of the Stryker run of 2026-11-24 17:00 (test/mutation/RESULTS.md).
describe('source URLs of unusual sites and content', () => {
  it('skips a migrated URL that is not a URL at all', () => {
    const made = index({ urls: new Map([['not a url', 'http://dst/x/'], ...context.urls]) });
    expect(made.uploads.get('2024/01/a.png')).toBe('http://dst/up/a.png');
  });

  it('knows uploads kept at the root of the host, not only under a prefix', () => {
    const urls = new Map([
      ...context.urls,
      ['http://src/cms-content/uploads/2024/02/b.png', 'http://dst/up/b.png'],
    ]);
    const at = (url: string) => mapSourceUrl(url, index({ urls }));
    expect(at('http://src/site/pl/cms-content/uploads/2024/02/b.png')).toEqual(
      mapped('http://dst/up/b.png'),
    );
    // An unknown file in that uploads folder, outside the home, is reported, not moved.
    expect(at('http://src/cms-content/uploads/2024/02/gone.png')).toEqual(UNMATCHED);
  });

  it('has only the home host when the site URL is not one', () => {
    const made = index({ sourceUrl: 'nothing' });
    expect([...made.hosts]).toEqual(['src']);
    expect(mapSourceUrl('http://src/elsewhere/', made)).toEqual(OTHER);
    expect(mapSourceUrl('http://src/site/pl/old/', made)).toEqual(mapped('http://dst/pl/new/'));
  });

  it('maps files whose names hold a literal % each to their own copy', () => {
    const urls = new Map([
      ['http://src/site/pl/cms-content/uploads/2024/03/50%.png', 'http://dst/up/50.png'],
      ['http://src/site/pl/cms-content/uploads/2024/03/100%.png', 'http://dst/up/100.png'],
    ]);
    const at = (url: string) => mapSourceUrl(url, index({ urls }));
    expect(at('http://src/cms-content/uploads/2024/03/100%.png')).toEqual(
      mapped('http://dst/up/100.png'),
    );
    expect(at('http://src/cms-content/uploads/2024/03/50%.png')).toEqual(
      mapped('http://dst/up/50.png'),
    );
  });

  it('maps a link without a trailing slash when it carries a query', () => {
    const urls = new Map([['http://src/site/pl/file.html', 'http://dst/pl/file.html']]);
    expect(mapSourceUrl('http://src/site/pl/file.html?v=2#t', index({ urls }))).toEqual(
      mapped('http://dst/pl/file.html?v=2#t'),
    );
  });

  it('does not take a page whose path merely ends like an upload’s for the file', () => {
    expect(map('http://src/site/pl/media/file/2024/01/a.png')).toEqual(UNMATCHED);
  });

  it('moves by the site’s prefix only URLs on the site’s own host', () => {
    // A language on a domain of its own: its home's host is not the site's.
    const made = index({
      urls: new Map(),
      sourceHome: 'http://example.pl/blog/',
      sourceUrl: 'http://example',
      targetUrl: 'http://dst',
    });
    expect(mapSourceUrl('http://example.pl/shop/x', made)).toEqual(OTHER);
    expect(mapSourceUrl('http://example/es/x', made)).toEqual(mapped('http://dst/es/x'));
  });

  it('does not double the slashes a site URL ends with', () => {
    expect(mapSourceUrl('http://src/site/es/x/', index({ targetUrl: 'http://dst//' }))).toEqual(
      mapped('http://dst/es/x/'),
    );
  });

  it('rewrites URLs in text on every source host, dotted names included', () => {
    const made = index({
      urls: new Map([['http://pl.example/old/', 'http://dst/pl/new/']]),
      sourceHome: 'http://pl.example/',
      sourceUrl: 'http://www.example',
    });
    expect(
      rewriteSourceUrls('see http://pl.example/old/ and http://www.example/es/x/', made, undefined),
    ).toBe('see http://dst/pl/new/ and http://dst/es/x/');
  });

  it('leaves a URL it does not map exactly as written, escapes included', () => {
    const html = '{"u":"http:\\/\\/src\\/site/pl/gone/"}';
    expect(rewriteSourceUrls(html, index(), undefined)).toBe(html);
  });

  it('reads an href as one URL even when it holds a space, not as a srcset', () => {
    const html = '<a href="http://src/site/pl/old/ x">x</a>';
    expect(rewriteSourceUrls(html, index(), undefined)).toBe(html);
  });

  it('leaves a srcset that maps to nothing byte for byte, its spacing included', () => {
    const html = '<img srcset="https://example.com/a.png  1x,https://example.com/b.png 2x">';
    expect(rewriteSourceUrls(html, index(), undefined)).toBe(html);
  });
});
