import { describe, expect, it } from 'vitest';
import { planBatches, type PlannedEdit } from '../../../src/push/batch-planner.js';

const update = (
  ref: string,
  id: number,
  lang = 'pl',
  body: Record<string, unknown> = { title: `t${id}` },
): PlannedEdit => ({
  ref,
  lang,
  type: 'posts',
  action: 'update',
  id,
  body,
});

describe('planBatches', () => {
  it('makes an update, a create and a trash request in one chunk per language', () => {
    const plan = planBatches(
      [
        update('a', 5, 'pl', { title: 'New' }),
        {
          ref: 'b',
          lang: 'pl',
          type: 'pages',
          action: 'create',
          body: { title: 'P', status: 'draft' },
        },
        { ref: 'c', lang: 'pl', type: 'posts', action: 'trash', id: 9, body: {} },
        update('d', 6, 'es'),
      ],
      { maxItems: 25 },
    );
    expect(plan).toEqual({
      chunks: [
        {
          lang: 'pl',
          refs: ['a', 'b', 'c'],
          requests: [
            { method: 'POST', path: '/cms/v2/posts/5', body: { title: 'New' } },
            { method: 'POST', path: '/cms/v2/pages', body: { title: 'P', status: 'draft' } },
            { method: 'DELETE', path: '/cms/v2/posts/9' },
          ],
        },
        {
          lang: 'es',
          refs: ['d'],
          requests: [{ method: 'POST', path: '/cms/v2/posts/6', body: { title: 't6' } }],
        },
      ],
      unchanged: [],
    });
  });

  it('splits 60 edits into chunks of 25, 25 and 10, keeping order', () => {
    const edits = Array.from({ length: 60 }, (_, i) => update(`e${i}`, i + 1));
    const plan = planBatches(edits, { maxItems: 25 });
    expect(plan.chunks.map((chunk) => chunk.requests.length)).toEqual([25, 25, 10]);
    expect(plan.chunks.flatMap((chunk) => chunk.refs)).toEqual(edits.map((edit) => edit.ref));
    expect(plan.chunks[2]?.requests[9]?.path).toBe('/cms/v2/posts/60');
  });

  it('sends nothing for an update without changed fields', () => {
    expect(planBatches([update('a', 1, 'pl', {})], { maxItems: 25 })).toEqual({
      chunks: [],
      unchanged: ['a'],
    });
  });

  it('refuses a chunk size above the route limit and an update without id', () => {
    expect(() => planBatches([], { maxItems: 26 })).toThrow(/from 1 to 25, got 26/);
    expect(() => planBatches([], { maxItems: 0 })).toThrow(RangeError);
    expect(() =>
      planBatches([{ ref: 'x', lang: 'pl', type: 'posts', action: 'update', body: { a: 1 } }], {
        maxItems: 5,
      }),
    ).toThrow(/edit x: update needs the item's id/);
  });
});
