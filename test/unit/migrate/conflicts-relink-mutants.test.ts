/**
 * Cases found by mutation testing (test/mutation/RESULTS.md): the conflict records and lines
 * a migration prints, and the second pass that fixes links to items created later.
 */
import { describe, expect, it } from 'vitest';
import {
  CONFLICT_POLICIES,
  conflictOf,
  formatConflict,
  STOPPED_HINT,
} from '../../../src/migrate/conflicts.js';
import type { PlanStep } from '../../../src/migrate/planner.js';
import { relinkUpdates, unmatchedWarnings, type CreatedItem } from '../../../src/migrate/relink.js';
import type { RemapContext } from '../../../src/migrate/remap.js';

const step: PlanStep = {
  type: 'pages',
  sourceId: 12,
  slug: 'about',
  title: 'About',
  parentSourceId: 0,
  action: 'create',
  targetId: undefined,
};

describe('conflicts', () => {
  it('records the step, the numeric ids of the target items and the policy', () => {
    expect(conflictOf(step, [{ id: 5 }, { id: '6' }, {}, { id: 9 }], 'beside')).toEqual({
      type: 'pages',
      sourceId: 12,
      slug: 'about',
      targetIds: [5, 9],
      resolution: 'beside',
    });
  });

  it.each([
    ['stop', 'stops the run'],
    ['skip', 'skipped'],
    ['beside', 'created beside it under another slug'],
    ['adopt', 'the existing item is taken as the copy'],
  ] as const)('says what %s does, on one line naming both sides', (policy, doing) => {
    expect(formatConflict(conflictOf(step, [{ id: 5 }, { id: 9 }], policy))).toBe(
      `conflict: pages 12 (about): the target already has pages 5, 9 with this slug, not created by this migration; ${doing}`,
    );
  });

  it('offers exactly the four policies, stop first, and names the others in its hint', () => {
    expect(CONFLICT_POLICIES).toEqual(['stop', 'skip', 'beside', 'adopt']);
    expect(STOPPED_HINT).toContain('--on-conflict skip|beside|adopt');
    expect(STOPPED_HINT).toContain('nothing was created');
  });
});

describe('unmatchedWarnings', () => {
  it('one sorted line per URL, at most the limit, then how many more', () => {
    const urls = new Set(['http://s/pl/c/', 'http://s/pl/a/', 'http://s/pl/b/']);
    expect(unmatchedWarnings(urls, 2)).toEqual([
      'http://s/pl/a/ matches no migrated item or file; left as it is',
      'http://s/pl/b/ matches no migrated item or file; left as it is',
      '… and 1 more such source URLs',
    ]);
    expect(unmatchedWarnings(urls, 3)).toHaveLength(3);
    expect(unmatchedWarnings(new Set())).toEqual([]);
  });

  it('names twenty by default', () => {
    const urls = new Set(Array.from({ length: 21 }, (_, i) => `http://s/pl/${100 + i}/`));
    const lines = unmatchedWarnings(urls);
    expect(lines).toHaveLength(21);
    expect(lines[20]).toBe('… and 1 more such source URLs');
    expect(unmatchedWarnings(new Set([...urls].slice(0, 20)))).toHaveLength(20);
  });
});

describe('relinkUpdates', () => {
  const context: RemapContext = {
    ids: { media: new Map(), pages: new Map([[3, 30]]), posts: new Map([[4, 40]]) },
    authors: new Map(),
    urls: new Map([
      ['http://src/pl/later/', 'http://dst/pl/later-2/'],
      ['http://src/pl/page/', 'http://dst/pl/page/'],
    ]),
    sourceHome: 'http://src/pl/',
    targetHome: 'http://dst/pl/',
    sourceUrl: 'http://src',
    targetUrl: 'http://dst',
  };

  function created(json: Record<string, unknown>, sent: Record<string, unknown>): CreatedItem {
    return { type: 'posts', sourceId: 1, targetId: 10, parentSourceId: 0, json, sent };
  }

  it('updates only the fields whose rewrite now differs from what the create sent', () => {
    const item = created(
      {
        content: { raw: '<a href="http://src/pl/later/">later</a>' },
        excerpt: { raw: 'see http://src/pl/page/' },
      },
      { content: '<a href="http://src/pl/later/">later</a>', excerpt: 'see http://dst/pl/page/' },
    );
    expect(relinkUpdates([item], context)).toEqual([
      {
        type: 'posts',
        sourceId: 1,
        targetId: 10,
        body: { content: '<a href="http://dst/pl/later-2/">later</a>' },
      },
    ]);
  });

  it('updates nothing when every rewrite is what was sent, or there is nothing to rewrite', () => {
    const same = created(
      { content: { raw: '<a href="http://src/pl/page/">p</a>' } },
      { content: '<a href="http://dst/pl/page/">p</a>' },
    );
    const empty = created({ title: { raw: 'no body' } }, { title: 'no body' });
    expect(relinkUpdates([same, empty], context)).toEqual([]);
  });

  it('collects the source URLs that still match nothing, when asked', () => {
    const item = created(
      { content: { raw: '<a href="http://src/pl/missing/">m</a>' } },
      { content: '<a href="http://src/pl/missing/">m</a>' },
    );
    const unmatched = new Set<string>();
    expect(relinkUpdates([item], context, unmatched)).toEqual([]);
    expect([...unmatched]).toEqual(['http://src/pl/missing/']);
    expect(relinkUpdates([item], context)).toEqual([]);
    const own = new Set<string>();
    relinkUpdates([item], { ...context, unmatched: own });
    expect([...own]).toEqual(['http://src/pl/missing/']);
  });
});
