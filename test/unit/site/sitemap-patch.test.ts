/**
 * Issue 17: an edit build that moved nothing patches the last build's sitemap (the home's and
 * the edited posts' `<url>`) instead of making every URL again. The oracle is the sitemap made
 * whole from the changed URLs: the patched bytes must be its bytes (the patch never decodes
 * the file); a URL the old file does not hold (once) is not patched.
 */
import { describe, expect, it } from 'vitest';
import { patchedUrlset, sitemapFiles, type SitemapUrl } from '../../../src/site/sitemap-xml.js';

const HOME = 'https://example.test/pl/';

function urls(): SitemapUrl[] {
  const list: SitemapUrl[] = [{ loc: HOME, lastmodGmt: '2024-05-01T10:00:00', alternates: [] }];
  for (let index = 1; index <= 6; index++) {
    list.push({
      // One path of raw UTF-8: the patch works on bytes, its offsets are bytes.
      loc: `${HOME}2024/0${index}/${index === 3 ? 'zażółć' : 'post'}-${index}/`,
      lastmodGmt: `2024-0${index}-02T08:00:00`,
      // Every other one with alternates, one without a date.
      alternates:
        index % 2 === 0
          ? [
              { hreflang: 'pl', href: `${HOME}2024/0${index}/post-${index}/` },
              { hreflang: 'es', href: `https://example.test/es/2024/0${index}/p-${index}/` },
            ]
          : [],
      ...(index === 5 ? { lastmodGmt: undefined } : {}),
    });
  }
  return list;
}

const whole = (list: SitemapUrl[]): Buffer =>
  Buffer.from(sitemapFiles(list, HOME).get('sitemap.xml') ?? '', 'utf8');

describe('a patched sitemap', () => {
  it('is the sitemap made whole, for the home and edited URLs changed', () => {
    const before = urls();
    const after = urls();
    after[0] = { ...after[0]!, lastmodGmt: '2026-11-28T23:00:00' };
    after[2] = {
      ...after[2]!,
      lastmodGmt: '2026-11-28T23:00:00',
      alternates: [{ hreflang: 'pl', href: after[2]!.loc }],
    };
    after[5] = { ...after[5]!, lastmodGmt: '2026-11-28T22:00:00' };
    after[6] = { ...after[6]!, alternates: [] };
    // In no particular order: each element is found in the old bytes.
    const patched = patchedUrlset(whole(before), [after[5]!, after[0]!, after[6]!, after[2]!]);
    expect(patched?.equals(whole(after))).toBe(true);
    expect(patched?.equals(whole(before))).toBe(false);
  });

  it('is the sitemap made whole when only dates changed (every element as long as it was)', () => {
    const before = urls();
    const after = urls();
    after[0] = { ...after[0]!, lastmodGmt: '2026-11-28T23:00:00' };
    after[3] = { ...after[3]!, lastmodGmt: '2026-11-28T22:00:00' };
    after[6] = { ...after[6]!, lastmodGmt: '2026-11-28T21:00:00' };
    const patched = patchedUrlset(whole(before), [after[6]!, after[0]!, after[3]!]);
    expect(patched?.equals(whole(after))).toBe(true);
    // A URL given as it was changes nothing.
    expect(patchedUrlset(whole(before), [before[2]!])?.equals(whole(before))).toBe(true);
  });

  it('is not made when a URL is not in the old text, or is there twice', () => {
    const before = urls();
    const stranger = { loc: `${HOME}elsewhere/`, alternates: [] };
    expect(patchedUrlset(whole(before), [stranger])).toBeUndefined();
    const twice = whole([...before, before[3]!]);
    expect(patchedUrlset(twice, [before[3]!])).toBeUndefined();
  });
});
