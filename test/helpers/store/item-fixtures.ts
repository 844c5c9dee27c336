import type { CmsItem } from '../../../src/store/index.js';

/** A post shaped like the remote's `context=view` answer. */
export function post(id: number, overrides: Record<string, unknown> = {}): CmsItem {
  return {
    id,
    date: '2024-01-02T03:04:05',
    date_gmt: '2024-01-02T02:04:05',
    modified: '2024-02-02T03:04:05',
    modified_gmt: `2024-02-02T02:04:${String(id % 60).padStart(2, '0')}`,
    slug: `post-${id}`,
    status: 'publish',
    type: 'post',
    link: `http://127.0.0.1/pl/post-${id}/`,
    title: { rendered: `Post ${id}` },
    content: { rendered: `<p>Body of ${id}</p>`, protected: false },
    excerpt: { rendered: `<p>Body</p>`, protected: false },
    author: 1,
    featured_media: 0,
    sticky: false,
    categories: [1],
    tags: [],
    ...overrides,
  };
}

/** A page with a parent and a menu order. */
export function page(id: number, overrides: Record<string, unknown> = {}): CmsItem {
  const { sticky: _sticky, categories: _c, tags: _t, ...base } = post(id);
  return {
    ...base,
    type: 'page',
    parent: 0,
    menu_order: 0,
    link: `http://127.0.0.1/pl/page-${id}/`,
    ...overrides,
  };
}
