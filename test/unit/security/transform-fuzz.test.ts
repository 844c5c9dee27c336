/**
 * Thousands of generated hostile fragments, links and provider answers through the whole
 * transform (embeds → media → internal links → heading ids → safe URLs): it never throws, and
 * no dangerous-scheme URL, <base>, or anything executable from a provider comes out.
 */
import { describe, expect, it } from 'vitest';
import {
  createUrlResolver,
  parseOEmbedResponse,
  sitePathForUrl,
  type OEmbedResponse,
} from '../../../src/transform/index.js';
import { createHtmlProcessor, processHtml } from '../../../src/transform/html.js';
import { findDanger, HostileInput } from '../../helpers/hostile-input.js';

const BASE = 'http://127.0.0.1:8787';
const HOME = `${BASE}/pl/`;
const FRAGMENTS = 3000;

describe('transform fuzz', () => {
  it(`survives ${FRAGMENTS} hostile fragments and leaks nothing dangerous`, () => {
    const input = new HostileInput(20_240_601);
    const links = Array.from({ length: 500 }, () => input.link(BASE, 'pl'));
    const resolveLink = createUrlResolver(
      links.flatMap((link, index) => {
        const path = sitePathForUrl(link, HOME);
        return [[link, path ?? `/fallback-${index}/`] as const];
      }),
    );
    const resolveMedia = createUrlResolver(
      Array.from({ length: 200 }, (_, index) => [
        `${BASE}/pl/cms-content/uploads/2024/01/${input.slug()}.png`,
        `/media/${index.toString(16).padStart(16, '0')}-file.png`,
      ]),
    );
    const processor = createHtmlProcessor({ resolveLink, resolveMedia });
    const failures: string[] = [];
    let providerAnswers = 0;
    for (let index = 0; index < FRAGMENTS; index += 1) {
      const html = input.fragment(BASE, 'pl');
      const embeds = new Map<string, OEmbedResponse | null>();
      for (const match of html.matchAll(/https:\/\/[^\s<"]+/g)) {
        const response = parseOEmbedResponse(input.providerResponse());
        if (response?.html !== undefined) providerAnswers += 1;
        embeds.set(match[0], response);
      }
      const baseUrl = input.pick(links) || HOME;
      let out: string;
      try {
        out = processHtml(processor, html, {
          baseUrl,
          pagePath: sitePathForUrl(baseUrl, HOME) ?? '/x/',
          embeds,
        }).html;
      } catch (error) {
        failures.push(`#${index} threw ${String(error)} for ${JSON.stringify(html).slice(0, 200)}`);
        continue;
      }
      const danger = findDanger(out);
      if (danger.length > 0)
        failures.push(`#${index}: ${danger.join(', ')} in ${out.slice(0, 300)}`);
    }
    expect(failures.slice(0, 5)).toEqual([]);
    // The generator did produce provider HTML to sanitize, not only unresolved embeds.
    expect(providerAnswers).toBeGreaterThan(200);
  });

  it('the detector finds what it must find', () => {
    expect(findDanger('<a href=" java\tscript:alert(1)">x</a>')).not.toEqual([]);
    expect(findDanger('<img srcset="a.png 1x, data:image/png;base64,AA 2x">')).not.toEqual([]);
    expect(findDanger('<script>provxss()</script>')).not.toEqual([]);
    expect(findDanger('<p onclick="provxss()">x</p>')).not.toEqual([]);
    expect(findDanger('<base href="/">')).not.toEqual([]);
    expect(findDanger('<p><a href="https://example.org/">ok</a></p>')).toEqual([]);
  });
});
