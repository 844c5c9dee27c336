import { describe, expect, it } from 'vitest';
import type { SourceItem } from '../../../src/migrate/planner.js';
import { droppedTermWarnings } from '../../../src/migrate/terms.js';

/**
 * What a migration says about the category and tag ids it leaves out: one line per
 * collection that carries any, naming the ids (as numbers, in order) and how many items
 * carried them, and nothing when the terms are kept.
 */
const TAIL =
  'not migrated: term ids mean nothing on another site and the interface has no routes for terms (the target gives its default category); --keep-terms sends them as they are to a target that shares them';

const item = (type: SourceItem['type'], id: number, json: Record<string, unknown>): SourceItem => ({
  type,
  id,
  json: { id, ...json },
});

describe('droppedTermWarnings (term ids left out of a migration)', () => {
  it('names each collection once, pages before posts, ids sorted as numbers and counted per carrier', () => {
    const items = [
      item('posts', 1, { categories: [10, 9], tags: [100] }),
      item('pages', 2, { categories: [7] }),
      item('posts', 3, { categories: [9, 2], tags: [] }),
      item('posts', 4, { categories: [] }),
      item('media', 5, {}),
    ];
    expect(droppedTermWarnings(items, false)).toEqual([
      `pages: category ids 7 (on 1 item(s)) ${TAIL}`,
      `posts: category ids 2, 9, 10 (on 2 item(s)); tag ids 100 (on 1 item(s)) ${TAIL}`,
    ]);
  });

  it('names tags alone when no item carries a category', () => {
    expect(droppedTermWarnings([item('posts', 1, { tags: [3, 21] })], false)).toEqual([
      `posts: tag ids 3, 21 (on 1 item(s)) ${TAIL}`,
    ]);
  });

  it('leaves out what is not a numeric id, and says nothing of a collection with none', () => {
    const items = [
      item('posts', 1, { categories: ['news', 4], tags: 'x' }),
      item('posts', 2, { categories: ['only-a-name'] }),
      item('pages', 3, { categories: ['name'], tags: [null] }),
    ];
    // Both posts carry a list, one with a numeric id.
    expect(droppedTermWarnings(items, false)).toEqual([
      `posts: category ids 4 (on 2 item(s)) ${TAIL}`,
    ]);
  });

  it('says nothing when no item has terms, or when they are kept', () => {
    expect(droppedTermWarnings([item('posts', 1, {}), item('pages', 2, {})], false)).toEqual([]);
    expect(droppedTermWarnings([item('posts', 1, { categories: [1], tags: [2] })], true)).toEqual(
      [],
    );
  });
});
