import { json } from '../route-types.js';
import { homeUrl, itemLink } from '../render.js';
import type { Handler, HandlerContext } from '../route-types.js';
import type { LangStore, StoredItem } from '../store.js';
import { editorRoute, ok } from './seo-editor.js';

/**
 * The `seo/v1` indexing routes: the content processed in chunks of `INDEXING_CHUNK`, with the
 * progress reported after each, until the indexing is marked complete.
 */
export const INDEXING_CHUNK = 25;

function publishedContent(store: LangStore): StoredItem[] {
  return [...store.indexes.post.all, ...store.indexes.page.all].filter(
    (item) => item.status === 'publish',
  );
}

export function indexingProgress(store: LangStore): Record<string, unknown> {
  const content = publishedContent(store);
  const indexed = content.filter(
    (item) => store.seo.indexedItems.get(item.id) === item.modifiedGmt,
  ).length;
  return {
    indexed,
    total: content.length,
    terms_indexed: store.seo.indexedTerms.size,
    terms_total: store.terms.length,
    complete: store.seo.indexingComplete && indexed === content.length,
  };
}

/** Indexes the next chunk of content whose index entry is missing or older than the item. */
function indexChunk(
  context: HandlerContext,
  done: Map<number, number>,
  route: string,
  describe: (item: StoredItem) => Record<string, unknown>,
): ReturnType<typeof json> {
  const { store } = context;
  const pending = publishedContent(store).filter((item) => done.get(item.id) !== item.modifiedGmt);
  const chunk = pending.slice(0, INDEXING_CHUNK);
  for (const item of chunk) done.set(item.id, item.modifiedGmt);
  return json({
    objects: chunk.map(describe),
    next_url: pending.length > chunk.length ? `${context.root}seo/v1/${route}` : false,
  });
}

export const indexPostsHandler: Handler = editorRoute((context) =>
  indexChunk(context, context.store.seo.indexedItems, 'indexing/posts', (item) => ({
    object_id: item.id,
    object_type: 'post',
    object_sub_type: item.type,
    permalink: itemLink(context.store, context.site.base, item),
  })),
);

export const linkIndexPostsHandler: Handler = editorRoute((context) => {
  const home = homeUrl(context.site.base, context.store.settings.lang);
  return indexChunk(context, context.store.seo.linkIndexedItems, 'link-indexing/posts', (item) => ({
    object_id: item.id,
    internal_links: item.content.split(`href="${home}`).length - 1,
  }));
});

export const indexTermsHandler: Handler = editorRoute((context) => {
  const { seo, terms } = context.store;
  const pending = terms.filter((term) => !seo.indexedTerms.has(term.id));
  const chunk = pending.slice(0, INDEXING_CHUNK);
  for (const term of chunk) seo.indexedTerms.add(term.id);
  return json({
    objects: chunk.map((term) => ({
      object_id: term.id,
      object_type: 'term',
      object_sub_type: term.taxonomy,
    })),
    next_url: pending.length > chunk.length ? `${context.root}seo/v1/indexing/terms` : false,
  });
});

export const linkIndexTermsHandler: Handler = editorRoute((context) => {
  context.store.seo.linkIndexedTerms = true;
  return json({ objects: [], next_url: false });
});

export const indexPostTypeArchivesHandler: Handler = editorRoute((context) => {
  const first = !context.store.seo.postTypeArchivesIndexed;
  context.store.seo.postTypeArchivesIndexed = true;
  return json({
    objects: first ? [{ object_type: 'post-type-archive', object_sub_type: 'post' }] : [],
    next_url: false,
  });
});

export const indexGeneralHandler: Handler = editorRoute((context) => {
  const first = !context.store.seo.generalIndexed;
  context.store.seo.generalIndexed = true;
  return json({
    objects: first
      ? ['home-page', 'search-result', 'date-archive', 'system-page'].map((subType) => ({
          object_type: subType,
        }))
      : [],
    next_url: false,
  });
});

export const indexPrepareHandler: Handler = editorRoute((context) => {
  const { seo } = context.store;
  seo.indexedItems.clear();
  seo.linkIndexedItems.clear();
  seo.indexedTerms.clear();
  seo.linkIndexedTerms = false;
  seo.postTypeArchivesIndexed = false;
  seo.generalIndexed = false;
  seo.indexablesComplete = false;
  seo.indexingComplete = false;
  return ok(indexingProgress(context.store));
});

export const indexablesCompleteHandler: Handler = editorRoute((context) => {
  context.store.seo.indexablesComplete = true;
  return ok(indexingProgress(context.store));
});

export const indexingCompleteHandler: Handler = editorRoute((context) => {
  context.store.seo.indexingComplete = true;
  return ok(indexingProgress(context.store));
});
