/**
 * The site-path functions answer plain ASCII paths without decoding them. These properties
 * compare that shortcut with the general route: the same path with one letter needlessly
 * percent-encoded (`a` → `%61`), or the home URL's scheme in capitals, is not plain and takes
 * the general route, and must give exactly the same answer.
 */
import { describe, expect, it } from 'vitest';
import { checkSitePath } from '../../../src/site/safe-output-path.js';
import {
  isPlainSitePath,
  normalizeSitePath,
  sitePathForUrl,
  sitePathToFilePath,
} from '../../../src/transform/site-paths.js';
import { createRandom, type Random } from '../../helpers/transform/random.js';

const FIRST = 'abcxyzABZ019_~-';
const REST = `${FIRST}.`;

function segment(random: Random): string {
  let out = random.pick([...FIRST]);
  const length = random.int(0, random.bool() ? 8 : 300);
  for (let index = 0; index < length; index++) out += random.pick([...REST]);
  return out;
}

function plainPath(random: Random): string {
  const segments = Array.from({ length: random.int(0, random.bool() ? 4 : 40) }, () =>
    segment(random),
  );
  const path = `/${segments.join('/')}`;
  return segments.length > 0 && random.bool() ? `${path}/` : path;
}

/** The same path with its first ASCII letter percent-encoded: no longer plain. */
function encodedVariant(path: string): string | undefined {
  const index = path.search(/[A-Za-z]/);
  if (index < 0) return undefined;
  const hex = path.charCodeAt(index).toString(16).toUpperCase();
  return `${path.slice(0, index)}%${hex}${path.slice(index + 1)}`;
}

function outcome<T>(run: () => T): { value: T } | { error: string } {
  try {
    return { value: run() };
  } catch (error) {
    // The message quotes the path as given; what must agree is the class and the reason.
    return {
      error: `${(error as Error).name}: ${(error as Error).message.replace(/\/\S*/, '<path>')}`,
    };
  }
}

describe('plain site paths take a shortcut with the same answers', () => {
  const random = createRandom(20261122);
  const paths = [
    '/',
    '/a',
    '/a/',
    '/2024/03/my-post/',
    '/x.y/z~_-/',
    ...Array.from({ length: 3000 }, () => plainPath(random)),
  ];

  it('recognises exactly the plain paths', () => {
    for (const path of paths) expect(isPlainSitePath(path), path).toBe(true);
    for (const path of ['', 'a/', '//', '/a//', '/./', '/../', '/.a/', '/a b/', '/%61/', '/ż/']) {
      expect(isPlainSitePath(path), path).toBe(false);
    }
  });

  it('normalizeSitePath, sitePathToFilePath and checkSitePath agree with the general route', () => {
    for (const path of paths) {
      const variant = encodedVariant(path);
      expect(normalizeSitePath(path)).toBe(path);
      if (variant === undefined) continue;
      expect(isPlainSitePath(variant)).toBe(false);
      expect(normalizeSitePath(variant), variant).toBe(path);
      expect(
        outcome(() => sitePathToFilePath(path)),
        path,
      ).toEqual(outcome(() => sitePathToFilePath(variant)));
      const checked = outcome(() => checkSitePath(path));
      const general = outcome(() => checkSitePath(variant));
      expect(checked, path).toEqual(general);
    }
  });

  it('sitePathForUrl agrees with the general route under plain and unusual homes', () => {
    const homes = ['http://127.0.0.1:8080/pl/', 'https://example.org/', 'http://Example.ORG/es/a/'];
    for (const home of homes) {
      for (const path of paths.slice(0, 600)) {
        const url = `${home}${path.slice(1)}`;
        // A capitalised scheme is not a plain home: the URL parser decides.
        const general = sitePathForUrl(url.replace(/^http/, 'HTTP'), home.replace(/^http/, 'HTTP'));
        expect(sitePathForUrl(url, home), url).toBe(general);
      }
    }
    expect(sitePathForUrl('http://a.test/pl/x/?p=1', 'http://a.test/pl/')).toBeUndefined();
    expect(sitePathForUrl('http://a.test/pl/x/#top', 'http://a.test/pl/')).toBe('/x/');
    expect(sitePathForUrl('http://a.test/pl/../es/', 'http://a.test/pl/')).toBeUndefined();
  });
});
