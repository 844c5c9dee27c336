/**
 * A language's full build reads its model from the cache (the transform hands over no rows:
 * held from the transform to the model, they cost ~0.8 KB a post at the build's peak, issue
 * 17), and never the whole record of the last build.
 */
import { describe, expect, it, vi } from 'vitest';

/** The options of each model read, as the build asked for them. */
const modelReads: Record<string, unknown>[] = [];

vi.mock('../../../src/site/model-from-store.js', () => ({
  modelFromStore: (_store: unknown, options: Record<string, unknown>) => {
    modelReads.push(options);
    return { model: { lang: 'pl' }, warnings: [] };
  },
}));
vi.mock('../../../src/site/build-site.js', () => ({
  buildFromModel: () => {
    return Promise.resolve({
      written: 1,
      unchanged: 0,
      removed: 0,
      pages: 1,
      skipped: false,
      manifest: { version: 1, buildVersion: 'b', templatesHash: 'h', modelDigest: 'm' },
      warnings: [],
      phases: { scan: 0, plan: 0, render: 0, search: 0, write: 0 },
    });
  },
}));

const { buildLanguage } = await import('../../../src/site/language-build.js');

/** The whole record of the last build, rows and all: a full build never reads it (issue 17). */
const readWholeRecord = vi.fn(() => undefined);

const store = {
  file: 'cache.sqlite',
  siteInfo: { get: () => ({ data: { home: 'http://127.0.0.1/pl/' } }) },
  buildState: {
    get: readWholeRecord,
    topLevelNames: () => [],
    markWriting: () => undefined,
    record: () => undefined,
    recordStaged: () => undefined,
  },
  buildStaged: { clear: () => undefined },
};

describe('buildLanguage', () => {
  it('reads the model from the cache once, and not the last build’s whole record', async () => {
    const prepared = {
      homeUrl: 'http://127.0.0.1/pl/',
      state: undefined,
      quiet: false,
      previous: undefined,
      transformed: 1,
      pathsDigest: 'd',
      seconds: 0,
    };
    await buildLanguage(
      store as never,
      { output: '/tmp/cms-mirror-never-written', build: { postsPerPage: 10 } } as never,
      {
        lang: 'pl',
        languages: ['pl'],
        options: { force: true, pulled: true, trace: () => undefined },
        prepared: prepared as never,
        othersDigest: '',
        sourcesAt: 'now',
        templatesHash: 'h',
        workers: () => ({}) as never,
        warmUp: () => undefined,
      },
    );
    // One read of the language's model, from the cache: no rows are passed in.
    expect(modelReads).toHaveLength(1);
    expect(modelReads[0]).toMatchObject({ lang: 'pl', homeUrl: 'http://127.0.0.1/pl/' });
    expect(Object.keys(modelReads[0] ?? { missing: true })).not.toContain('published');
    // The last build's rows stay in the cache, looked up file by file.
    expect(readWholeRecord).not.toHaveBeenCalled();
  });
});
