import type { StoredItem } from './store.js';

/**
 * The fields every item of the reference site starts from (a published item of the first
 * user, dated `dateGmt`, with no text): the seed, the control hooks and the write routes each
 * override what differs.
 */
export function baseItem(id: number, type: StoredItem['type'], dateGmt: number): StoredItem {
  return {
    id,
    type,
    dateGmt,
    modifiedGmt: dateGmt,
    slug: '',
    status: 'publish',
    password: '',
    title: '',
    content: '',
    excerpt: '',
    author: 1,
    featuredMedia: 0,
    commentStatus: type === 'post' ? 'open' : 'closed',
    pingStatus: type === 'post' ? 'open' : 'closed',
    template: '',
    format: 'standard',
    sticky: false,
    categories: [],
    tags: [],
    parent: 0,
    menuOrder: 0,
    meta: type === 'attachment' ? {} : { footnotes: '' },
    media: undefined,
  };
}
