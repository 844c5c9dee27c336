/**
 * A language's build lets go of the public rows its transform read once its model is made:
 * kept in the prepared language, they would be held for the whole build (issue 17, ~0.8 KB per
 * public item).
 */
import { describe, expect, it, vi } from 'vitest';

const seen: { published: unknown; publishedWhileBuilding: unknown } = {
  published: undefined,
  publishedWhileBuilding: undefined,
};
let preparedRef: { published: unknown } | undefined;

vi.mock('../../../src/site/model-from-store.js', () => ({
  modelFromStore: (_store: unknown, options: { published?: unknown }) => {
    seen.published = options.published;
    return { model: { lang: 'pl' }, warnings: [] };
  },
}));
vi.mock('../../../src/site/build-site.js', () => ({
  buildFromModel: () => {
    // What the prepared language still holds while the pages render.
    seen.publishedWhileBuilding = preparedRef?.published;
    return Promise.resolve({
      written: 1,
      unchanged: 0,
      removed: 0,
      pages: 1,
      skipped: false,
      manifest: { files: {} },
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
  it('hands the transform’s rows to the model and does not hold them while building', async () => {
    const rows = { pages: [], posts: [{ id: 1 }] };
    const prepared = {
      homeUrl: 'http://127.0.0.1/pl/',
      state: undefined,
      quiet: false,
      previous: undefined,
      published: rows as unknown,
      transformed: 1,
      pathsDigest: 'd',
      seconds: 0,
    };
    preparedRef = prepared;
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
      },
    );
    expect(seen.published).toBe(rows);
    expect(seen.publishedWhileBuilding).toBeUndefined();
    expect(prepared.published).toBeUndefined();
    // The last build's rows stay in the cache, looked up file by file.
    expect(readWholeRecord).not.toHaveBeenCalled();
  });
});
