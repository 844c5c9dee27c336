/**
 * Each language's prepared time is its own: the languages are transformed together, so time
 * measured from one language's start would also count the transforms of the others. And the
 * transform is told of a language's last build: its paths digest stands for its pages only
 * when it completed.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { MANIFEST_VERSION } from '../../../src/site/build-manifest.js';
import { BUILD_VERSION } from '../../../src/site/site-plan.js';

const TRANSFORM_MS = 3000;
/** What each call of the transform was given. */
const transformCalls: unknown[][] = [];

vi.mock('../../../src/transform/index.js', () => ({
  OFFLOAD_MIN_STALE: 500,
  transformKey: () => 'key',
  // Two languages transformed one after the other, 3 s of wall time in all, 1.5 s each.
  transformLanguages: (_store: unknown, languages: readonly { lang: string }[]) => {
    transformCalls.push([...languages]);
    vi.advanceTimersByTime(TRANSFORM_MS);
    return Promise.resolve(
      new Map(
        languages.map(({ lang }) => [
          lang,
          {
            transformed: 1,
            moved: [],
            sitePaths: new Map(),
            pathsDigest: 'd',
            seconds: TRANSFORM_MS / 1000 / languages.length,
          },
        ]),
      ),
    );
  },
}));

const { prepareLanguages } = await import('../../../src/site/prepare-languages.js');

/** The little of a store the preparation reads before the transform: nothing built yet. */
const store = {
  file: 'cache.sqlite',
  siteInfo: { get: (lang: string) => ({ data: { home: `http://127.0.0.1/${lang}/` } }) },
  buildState: { getState: () => undefined, get: () => undefined },
  items: { lastChangeAt: () => undefined },
  transformed: { lastTransformedAt: () => undefined },
};

describe('prepareLanguages', () => {
  afterEach(() => vi.useRealTimers());

  it("counts each language's transform once, and not the other languages'", async () => {
    vi.useFakeTimers({ toFake: ['performance'] });
    const prepared = await prepareLanguages(store as never, ['pl', 'es'], {
      sanitize: true,
      built: ['pl', 'es'],
    });
    expect([...prepared.keys()]).toEqual(['pl', 'es']);
    for (const lang of ['pl', 'es']) expect(prepared.get(lang)?.seconds, lang).toBe(1.5);
  });

  it('gives the transform the last build’s paths digest only when that build completed', async () => {
    const state = (lang: string) => ({
      manifestVersion: MANIFEST_VERSION,
      buildVersion: BUILD_VERSION,
      pathsDigest: `digest-${lang}`,
      // pl's last build was interrupted while writing: its record may not be its pages.
      writingSince: lang === 'pl' ? '2026-01-01T00:00:00.000Z' : null,
    });
    vi.useFakeTimers({ toFake: ['performance'] });
    transformCalls.length = 0;
    await prepareLanguages(
      { ...store, buildState: { getState: state, get: () => undefined } } as never,
      ['pl', 'es'],
      { sanitize: true, built: ['pl', 'es'] },
    );
    expect(transformCalls).toEqual([
      [
        expect.objectContaining({ lang: 'pl', lastBuild: { pathsDigest: null } }),
        expect.objectContaining({ lang: 'es', lastBuild: { pathsDigest: 'digest-es' } }),
      ],
    ]);
  });
});
