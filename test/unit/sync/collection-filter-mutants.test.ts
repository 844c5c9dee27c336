/**
 * The filter every pull request of a collection carries, written out here rather than read
 * from the registry: a status dropped from the backup's list (issue 11: `private`) fails it.
 */
import { describe, expect, it } from 'vitest';
import { collectionFilter } from '../../../src/sync/collections.js';

describe('collectionFilter', () => {
  it('an anonymous pull asks for the view context and leaves statuses to the site', () => {
    for (const type of ['posts', 'pages', 'media'] as const) {
      expect(collectionFilter(type, 'view')).toEqual({ context: 'view' });
    }
  });

  it('a backup pull asks for every status an item can have, trash included', () => {
    const content = ['publish', 'future', 'draft', 'pending', 'private', 'trash'];
    expect(collectionFilter('posts', 'edit')).toEqual({ context: 'edit', status: content });
    expect(collectionFilter('pages', 'edit')).toEqual({ context: 'edit', status: content });
    expect(collectionFilter('media', 'edit')).toEqual({
      context: 'edit',
      status: ['inherit', 'private', 'trash'],
    });
  });
});
