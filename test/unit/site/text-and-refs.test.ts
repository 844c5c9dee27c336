import { describe, expect, it } from 'vitest';
import { htmlToText, truncateText } from '../../../src/site/html-text.js';
import { localReferences } from '../../../src/transform/local-references.js';
import { absoluteHttpUrl, jsonLdScriptContent } from '../../../src/site/structured-data.js';

describe('htmlToText', () => {
  it('keeps word boundaries between blocks and drops scripts, styles and comments', () => {
    expect(
      htmlToText(
        '<p>a</p><p>b&amp;c&#8217;d</p><script>x()</script><style>p{}</style><!-- c -->  e',
      ),
    ).toBe('a b&c’d e');
  });

  it('truncates at a word boundary without splitting surrogate pairs', () => {
    expect(truncateText('alpha beta gamma delta epsilon', 19)).toBe('alpha beta gamma…');
    expect(truncateText('abcdefghijklmnop', 5)).toBe('abcde…');
    expect(truncateText('short', 12)).toBe('short');
    expect(truncateText('😀'.repeat(10), 3)).toBe('😀😀😀…');
  });

  it('truncates like splitting the whole text into characters would, whatever the mix', () => {
    // The reference: every character of the text, then the same cut.
    const whole = (text: string, max: number): string => {
      const chars = Array.from(text);
      if (chars.length <= max) return text;
      let cut = chars.slice(0, max).join('');
      const space = cut.lastIndexOf(' ');
      if (space > max * 0.8) cut = cut.slice(0, space);
      return `${cut.replace(/[\s,.;:–—-]+$/u, '')}…`;
    };
    const alphabet = ['a', 'ż', ' ', '😀', '𝄞', '.', 'я'];
    let seed = 7;
    const next = (n: number): number => {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      return seed % n;
    };
    for (let round = 0; round < 2000; round++) {
      const max = 1 + next(40);
      const text = Array.from({ length: next(120) }, () => alphabet[next(alphabet.length)]).join(
        '',
      );
      expect(truncateText(text, max), JSON.stringify([text, max])).toBe(whole(text, max));
    }
  });
});

describe('localReferences', () => {
  it('resolves relative media references of a page, srcset included, and ignores other origins', () => {
    const html =
      '<img src="../../media/a.png" srcset="../../media/a-300.png 300w, ../../media/a-600.png 600w">' +
      '<a href="/media/b.pdf">b</a><video poster=\'../../media/p%C5%BC.jpg\'></video>' +
      '<img src="https://cdn.example/media/c.png"><img src="//cdn.example/x.png"><a href="#top">t</a>' +
      '<img src="data:image/png;base64,xx">';
    expect([...localReferences(html, '/2024/03/')].sort()).toEqual([
      '/media/a-300.png',
      '/media/a-600.png',
      '/media/a.png',
      '/media/b.pdf',
      '/media/p%C5%BC.jpg',
    ]);
  });

  it("resolves each call's references against that call's page, and finds none in plain text", () => {
    const html = '<img src="media/a.png"><a href="../b/">b</a>';
    expect([...localReferences(html, '/2024/03/')].sort()).toEqual([
      '/2024/03/media/a.png',
      '/2024/b/',
    ]);
    expect([...localReferences(html, '/about/team/')].sort()).toEqual([
      '/about/b/',
      '/about/team/media/a.png',
    ]);
    expect([...localReferences('Plain &amp; text &lt;img&gt; without a tag', '/p/')]).toEqual([]);
  });
});

describe('structured data helpers', () => {
  it('keeps JSON-LD from closing its script element', () => {
    const text = jsonLdScriptContent({ name: '</script><script>alert(1)</script> & \u2028' });
    expect(text).not.toMatch(/[<>&\u2028]/);
    expect(JSON.parse(text)).toEqual({ name: '</script><script>alert(1)</script> & \u2028' });
  });

  it('accepts only http(s) URLs for the identity', () => {
    expect(absoluteHttpUrl('/media/logo.png', 'https://h/pl/')).toBe('https://h/pl/media/logo.png');
    expect(absoluteHttpUrl('javascript:alert(1)', 'https://h/pl/')).toBeUndefined();
    expect(absoluteHttpUrl('not a url', 'https://h/pl/')).toBeUndefined();
  });
});
