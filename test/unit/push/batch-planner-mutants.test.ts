import { describe, expect, it } from 'vitest';
import { planBatches, type PlannedEdit } from '../../../src/push/batch-planner.js';

// Cases found by mutation testing (test/mutation/RESULTS.md): the limits of a batch and the
// edits a batch must refuse to send.

const edit = (overrides: Partial<PlannedEdit>): PlannedEdit => ({
  ref: 'e',
  lang: 'pl',
  type: 'posts',
  action: 'update',
  id: 1,
  body: { title: 'x' },
  ...overrides,
});

describe('planBatches limits', () => {
  it('accepts one item per call and puts each edit in a call of its own', () => {
    const plan = planBatches(
      [edit({ ref: 'a', id: 1 }), edit({ ref: 'b', id: 2 }), edit({ ref: 'c', id: 3 })],
      { maxItems: 1 },
    );
    expect(plan.chunks.map((chunk) => chunk.refs)).toEqual([['a'], ['b'], ['c']]);
  });

  it('fills a call to exactly the limit before starting the next', () => {
    const edits = Array.from({ length: 26 }, (_, index) =>
      edit({ ref: `e${index}`, id: index + 1 }),
    );
    const plan = planBatches(edits, { maxItems: 25 });
    expect(plan.chunks.map((chunk) => chunk.refs.length)).toEqual([25, 1]);
  });

  it.each([1.5, -3, Number.NaN])('refuses the call size %s', (maxItems) => {
    expect(() => planBatches([], { maxItems })).toThrow(
      `maxItems must be a whole number from 1 to 25, got ${String(maxItems)}`,
    );
  });

  it('keeps languages apart even when their edits interleave', () => {
    const plan = planBatches(
      [
        edit({ ref: 'p1', lang: 'pl', id: 1 }),
        edit({ ref: 's1', lang: 'es', id: 1 }),
        edit({ ref: 'p2', lang: 'pl', id: 2 }),
      ],
      { maxItems: 25 },
    );
    expect(plan.chunks.map((chunk) => [chunk.lang, chunk.refs])).toEqual([
      ['pl', ['p1', 'p2']],
      ['es', ['s1']],
    ]);
  });
});

describe('planBatches refuses to address an item it cannot name', () => {
  it.each([
    ['an update with id 0', edit({ id: 0 })],
    ['an update with a fractional id', edit({ id: 2.5 })],
    ['a trash without id', edit({ action: 'trash', id: undefined, body: {} })],
    ['a trash with a negative id', edit({ action: 'trash', id: -4, body: {} })],
  ])('%s', (_label, bad) => {
    expect(() => planBatches([bad], { maxItems: 5 })).toThrow(
      `edit e: ${bad.action} needs the item's id`,
    );
  });

  it('a trash needs no fields and sends no body; a create needs no id', () => {
    const plan = planBatches(
      [
        edit({ ref: 't', action: 'trash', id: 3, body: {} }),
        edit({ ref: 'c', action: 'create', id: undefined, body: {} }),
      ],
      { maxItems: 5 },
    );
    expect(plan.unchanged).toEqual([]);
    expect(plan.chunks[0]?.requests).toEqual([
      { method: 'DELETE', path: '/cms/v2/posts/3' },
      { method: 'POST', path: '/cms/v2/posts', body: {} },
    ]);
  });

  it('sends a copy of the fields, so a later change to the edit does not alter the request', () => {
    const body: Record<string, unknown> = { title: 'before' };
    const plan = planBatches([edit({ body })], { maxItems: 5 });
    body['title'] = 'after';
    expect(plan.chunks[0]?.requests[0]).toEqual({
      method: 'POST',
      path: '/cms/v2/posts/1',
      body: { title: 'before' },
    });
  });
});
