/**
 * The records four repos read back through the shared row shape (`row-fields.ts`): each holds
 * exactly its fields, under their camelCase names, with the values written (no column of the
 * table leaks in, none goes missing).
 */
import { describe, expect, it } from 'vitest';
import { useClockedStore } from '../../helpers/store/clocked-store.js';
import { post } from '../../helpers/store/item-fixtures.js';

const fixture = useClockedStore();

describe('records read through the shared row shape', () => {
  it('a checkout', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    const input = {
      lang: 'pl',
      type: 'posts' as const,
      id: 1,
      file: 'edit/pl/posts/a.md',
      baseModifiedGmt: '2024-02-02T02:04:01',
      fileHash: null,
    };
    fixture.store.checkouts.set(input);
    const expected = { ...input, checkedOutAt: '2024-05-01T10:00:00.000Z' };
    expect(fixture.store.checkouts.get('pl', 'posts', 1)).toStrictEqual(expected);
    expect(fixture.store.checkouts.list('pl')).toStrictEqual([expected]);
  });

  it('a transform output, its meta parsed', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    const input = {
      lang: 'pl',
      type: 'posts' as const,
      id: 1,
      transformVersion: 'v1',
      sourceHash: 'h1',
      html: '<p>1</p>',
      excerpt: 'one',
      meta: { headings: ['a'] },
    };
    fixture.store.transformed.put(input);
    expect(fixture.store.transformed.get('pl', 'posts', 1)).toStrictEqual({
      ...input,
      transformedAt: '2024-05-01T10:00:00.000Z',
    });
  });

  it("a build's state, without the language it is keyed by", () => {
    fixture.store.buildState.record(
      'pl',
      { version: 3, buildVersion: 'b', templatesHash: 't', modelDigest: 'm', files: {} },
      {
        siteDigest: 's',
        sourcesAt: '2024-05-01T09:00:00.000Z',
        transformVersion: '2',
        pathsDigest: 'p',
      },
    );
    expect(fixture.store.buildState.getState('pl')).toStrictEqual({
      manifestVersion: 3,
      buildVersion: 'b',
      templatesHash: 't',
      modelDigest: 'm',
      siteDigest: 's',
      builtAt: '2024-05-01T10:00:00.000Z',
      sourcesAt: '2024-05-01T09:00:00.000Z',
      writingSince: null,
      transformVersion: '2',
      pathsDigest: 'p',
      layoutDigest: null,
    });
  });

  it('an item version, `gone` as a boolean', () => {
    fixture.store.items.upsertPage('pl', 'posts', [post(1)]);
    const runId = fixture.store.runs.start('pull');
    expect(fixture.store.itemVersions.recordStored('pl', 'posts', [1], runId)).toBe(1);
    const stored = fixture.store.items.get('pl', 'posts', 1);
    expect(stored).toBeDefined();
    const versions = fixture.store.itemVersions.versionsOf('pl', 'posts', 1);
    expect(versions).toStrictEqual([
      {
        seq: expect.any(Number) as number,
        lang: 'pl',
        type: 'posts',
        id: 1,
        runId,
        seenAt: stored!.fetchedAt,
        gone: false,
        status: stored!.status,
        modifiedGmt: stored!.modifiedGmt,
        contentHash: stored!.contentHash,
        json: expect.any(String) as string,
      },
    ]);
  });
});
