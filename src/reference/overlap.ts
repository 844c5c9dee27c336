import { attachStripePng } from './small-items.js';
import type { LangStore, StoredItem } from './store.js';

/**
 * A migration target that already holds content (observed: items with the same slug and
 * date as items being migrated, created by people, not by a previous run). Given the store
 * another seed makes for the same language, this site gets its own items with the slug and
 * date of two top-level pages, one published post and one media item of it, with other
 * titles and content, by the second user.
 */
export function addOverlapItems(store: LangStore, other: LangStore, base: string): void {
  const all = (type: StoredItem['type']) => other.indexes[type].all;
  const picks = [
    ...all('page')
      .filter((item) => item.parent === 0 && item.status === 'publish')
      .slice(0, 2),
    ...all('post')
      .filter((item) => item.status === 'publish' && item.password === '')
      .slice(0, 1),
    ...all('attachment')
      .filter((item) => item.media?.mimeType === 'image/png')
      .slice(0, 1),
  ];
  const items = picks.map((pick) => ownItem(store, pick, base));
  store.addMany(items);
}

function ownItem(store: LangStore, pick: StoredItem, base: string): StoredItem {
  const id = store.allocateId();
  const item: StoredItem = {
    ...structuredClone(pick),
    id,
    title: `${pick.title} (this site's own)`,
    content:
      pick.type === 'attachment'
        ? ''
        : `<!-- cms:paragraph -->\n<p>Written on this site before any migration (item ${id}).</p>\n<!-- /cms:paragraph -->`,
    excerpt: '',
    author: 2,
    featuredMedia: 0,
    categories: pick.type === 'post' ? [1] : [],
    tags: [],
  };
  if (pick.type === 'attachment') {
    item.parent = 0;
    attachStripePng(store, base, item, {
      file: `own/${pick.slug}-own.png`,
      lastModified: pick.dateGmt,
      background: [40, 120, id % 256],
    });
  }
  return item;
}
