import { describe, expect, it } from 'vitest';
import { movedPageIds } from '../../../src/sync/moved-pages.js';
import type { CrawlItem } from '../../../src/sync/record-check.js';

const page = (id: number, link?: unknown): CrawlItem => ({
  id,
  modified_gmt: '2024-01-01T00:00:00',
  ...(link === undefined ? {} : { link }),
});

describe('movedPageIds', () => {
  it('lists cached pages whose link differs, not new or unchanged ones', () => {
    const cached = new Map<number, string | null>([
      [1, 'https://s.test/pl/a/'],
      [2, 'https://s.test/pl/b/'],
      [3, null],
      [4, 'https://s.test/pl/d/'],
    ]);
    const items = [
      page(1, 'https://s.test/pl/a/'),
      page(2, 'https://s.test/pl/x/b/'),
      page(3, 'https://s.test/pl/c/'),
      page(4),
      page(5, 'https://s.test/pl/new/'),
    ];
    expect(movedPageIds(items, cached)).toEqual([2, 3, 4]);
  });

  it('treats a missing or non-string link as null, like the store does', () => {
    const cached = new Map<number, string | null>([[1, null]]);
    expect(movedPageIds([page(1), page(1, 42)], cached)).toEqual([]);
  });
});
