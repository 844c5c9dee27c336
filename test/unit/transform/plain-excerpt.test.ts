import { describe, expect, it } from 'vitest';
import { plainTextExcerpt } from '../../../src/transform/plain-excerpt.js';

describe('plainTextExcerpt', () => {
  it('keeps prose, drops headings and figures, and never runs blocks together', () => {
    expect(
      plainTextExcerpt(
        '<p>Read <a href="/x">the interview</a> .</p><h2>Intro</h2><figure><img src="a.png"><figcaption>Logo</figcaption></figure><p>Second&nbsp;part &amp; more</p>',
      ),
    ).toBe('Read the interview. Second\u00a0part & more'.replace('\u00a0', ' '));
  });

  it('cuts long text on a word boundary with an ellipsis', () => {
    const text = plainTextExcerpt(`<p>${'word '.repeat(100)}</p>`, 50);
    expect(text.length).toBeLessThanOrEqual(51);
    expect(text.endsWith('word…')).toBe(true);
  });

  it('turns markup into inert text', () => {
    expect(plainTextExcerpt('<p>&lt;script&gt;x&lt;/script&gt;</p><script>alert(1)</script>')).toBe(
      '<script>x</script>',
    );
  });
});
