import type { ArgMap, ContextName } from './arg-schema.js';
import {
  AUTOSAVE_SCHEMA,
  MEDIA_SCHEMA,
  PAGE_SCHEMA,
  POST_SCHEMA,
  REVISION_SCHEMA,
  inContext,
} from './item-schema.js';
import {
  apiRoot,
  escapeHtml,
  guidOf,
  itemLink,
  permalinkTemplate,
  renderContent,
  renderExcerpt,
  sanitizeSlug,
  uploadsUrl,
} from './render.js';
import { seoHeadJson } from './seo-head.js';
import { formatGmt, formatSiteLocal } from './site-dates.js';
import type { SiteState } from './site-state.js';
import { COLLECTION_OF_TYPE } from './store.js';
import type { ItemType, LangStore, StoredItem, StoredRevision } from './store.js';

/**
 * Stored records → response bodies. Fields are built in the order servers send them and then
 * filtered by the item schema's `context` lists, so `raw` fields only appear in `edit`.
 */
export interface ItemView {
  readonly context: ContextName;
  /** Protected content may be shown (right `password`, or an editor in `edit` context). */
  readonly showProtected: boolean;
  readonly excerptLength?: number | undefined;
}

export function schemaOf(type: ItemType): ArgMap {
  if (type === 'post') return POST_SCHEMA;
  if (type === 'page') return PAGE_SCHEMA;
  return MEDIA_SCHEMA;
}

/** The `media_type` field: servers only distinguish images from other files. */
export function mediaTypeField(mimeType: string): 'image' | 'file' {
  return mimeType.startsWith('image/') ? 'image' : 'file';
}

export function filterByContext(
  value: Record<string, unknown>,
  schema: ArgMap,
  context: ContextName,
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, element] of Object.entries(value)) {
    const field = schema[key];
    if (field?.context && !field.context.includes(context)) continue;
    if (
      field?.properties &&
      typeof element === 'object' &&
      element !== null &&
      !Array.isArray(element) &&
      Object.keys(field.properties).length > 0
    ) {
      out[key] = filterByContext(element as Record<string, unknown>, field.properties, context);
    } else {
      out[key] = element;
    }
  }
  return out;
}

function itemLinks(site: SiteState, store: LangStore, item: StoredItem): Record<string, unknown> {
  const root = apiRoot(site.base, store.settings.lang);
  const collection = COLLECTION_OF_TYPE[item.type];
  const links: Record<string, unknown> = {
    self: [{ href: `${root}cms/v2/${collection}/${item.id}` }],
    collection: [{ href: `${root}cms/v2/${collection}` }],
    about: [{ href: `${root}cms/v2/types/${item.type}` }],
    author: [{ embeddable: true, href: `${root}cms/v2/users/${item.author}` }],
  };
  if (item.type !== 'attachment') {
    // The count is the length of the revisions list, which includes the autosaves.
    const history = store.revisionsOf(item.id);
    const revisions = history.filter((revision) => revision.kind === 'revision');
    const href = `${root}cms/v2/${collection}/${item.id}/revisions`;
    links['version-history'] = [site.versionCounts ? { count: history.length, href } : { href }];
    const last = revisions[revisions.length - 1];
    if (last) {
      links['predecessor-version'] = [
        { id: last.id, href: `${root}cms/v2/${collection}/${item.id}/revisions/${last.id}` },
      ];
    }
    if (item.featuredMedia) {
      links['cms:featuredmedia'] = [
        { embeddable: true, href: `${root}cms/v2/media/${item.featuredMedia}` },
      ];
    }
    links['cms:attachment'] = [{ href: `${root}cms/v2/media?parent=${item.id}` }];
  }
  return links;
}

export function serializeItem(
  site: SiteState,
  store: LangStore,
  item: StoredItem,
  view: ItemView,
): Record<string, unknown> {
  const { context } = view;
  const schema = schemaOf(item.type);
  const offset = store.settings.gmtOffset;
  const link = itemLink(store, site.base, item);
  const out: Record<string, unknown> = {
    id: item.id,
    date: formatSiteLocal(item.dateGmt, offset),
    date_gmt: formatGmt(item.dateGmt),
    guid: item.media
      ? {
          rendered: uploadsUrl(site.base, store.settings.lang, item.media.file),
          raw: uploadsUrl(site.base, store.settings.lang, item.media.file),
        }
      : {
          rendered: guidOf(site.base, store.settings.lang, item),
          raw: guidOf(site.base, store.settings.lang, item),
        },
    modified: formatSiteLocal(item.modifiedGmt, offset),
    modified_gmt: formatGmt(item.modifiedGmt),
    slug: item.slug,
    status: item.status,
    type: item.type,
    link,
  };
  if (context === 'edit') {
    if (item.type !== 'attachment') out.password = item.password;
    out.permalink_template = permalinkTemplate(store, site.base, item);
    out.generated_slug = sanitizeSlug(item.title);
  }
  if (item.type === 'page') out.parent = item.parent;
  out.title = { raw: item.title, rendered: item.title };
  if (item.type === 'attachment') {
    Object.assign(out, mediaFields(site, store, item));
  } else {
    const hidden = item.password !== '' && !view.showProtected;
    if (inContext(schema, 'content', context)) {
      out.content = {
        raw: item.content,
        rendered: hidden ? '' : renderContent(item.content),
        protected: item.password !== '',
        block_version: item.content.includes('<!-- cms:') ? 1 : 0,
      };
    }
    out.excerpt = {
      raw: item.excerpt,
      rendered: hidden ? '' : renderExcerpt(item, view.excerptLength),
      protected: item.password !== '',
    };
    out.author = item.author;
    out.featured_media = item.featuredMedia;
    out.comment_status = item.commentStatus;
    out.ping_status = item.pingStatus;
    if (item.type === 'post') out.sticky = item.sticky;
    if (item.type === 'page') out.menu_order = item.menuOrder;
    out.template = item.template;
    if (item.type === 'post') out.format = item.format;
    out.meta = { ...item.meta };
    if (item.type === 'post') {
      out.categories = [...item.categories];
      out.tags = [...item.tags];
    }
    if (inContext(schema, 'seo_head_json', context))
      out.seo_head_json = seoHeadJson(site, store, item);
  }
  const filtered = filterByContext(out, schema, context);
  filtered._links = itemLinks(site, store, item);
  return filtered;
}

function mediaFields(site: SiteState, store: LangStore, item: StoredItem): Record<string, unknown> {
  const media = item.media;
  if (!media) return {};
  const lang = store.settings.lang;
  const sourceUrl = uploadsUrl(site.base, lang, media.file);
  const directory = media.file.includes('/')
    ? media.file.slice(0, media.file.lastIndexOf('/') + 1)
    : '';
  const sizeOf = (url: string): number | undefined => {
    try {
      return store.files.get(new URL(url).pathname)?.bytes().length;
    } catch {
      return undefined;
    }
  };
  const details: Record<string, unknown> = {};
  if (media.width !== undefined && media.height !== undefined) {
    details.width = media.width;
    details.height = media.height;
  }
  details.file = media.file;
  const filesize = sizeOf(sourceUrl);
  if (filesize !== undefined) details.filesize = filesize;
  const sizes: Record<string, unknown> = {};
  for (const size of media.sizes) {
    const url = uploadsUrl(site.base, lang, directory + size.file);
    sizes[size.name] = {
      file: size.file,
      width: size.width,
      height: size.height,
      filesize: sizeOf(url),
      mime_type: size.mimeType,
      source_url: url,
    };
  }
  if (media.width !== undefined && media.height !== undefined) {
    sizes.full = {
      file: media.file.slice(directory.length),
      width: media.width,
      height: media.height,
      mime_type: media.mimeType,
      source_url: sourceUrl,
    };
  }
  details.sizes = sizes;
  const isImage = media.mimeType.startsWith('image/');
  const medium = media.sizes.find((size) => size.name === 'medium');
  const preview = isImage
    ? `<img width="${medium?.width ?? media.width}" height="${medium?.height ?? media.height}" src="${
        medium ? uploadsUrl(site.base, lang, directory + medium.file) : sourceUrl
      }" alt="${escapeHtml(media.altText)}" />`
    : escapeHtml(item.title);
  return {
    author: item.author,
    featured_media: item.featuredMedia,
    comment_status: item.commentStatus,
    ping_status: item.pingStatus,
    template: item.template,
    meta: { ...item.meta },
    description: {
      raw: media.description,
      rendered:
        `<p class="attachment"><a href="${sourceUrl}">${preview}</a></p>\n` +
        (media.description === '' ? '' : `<p>${media.description}</p>\n`),
    },
    caption: {
      raw: media.caption,
      rendered: media.caption === '' ? '' : `<p>${media.caption}</p>\n`,
    },
    alt_text: media.altText,
    media_type: mediaTypeField(media.mimeType),
    mime_type: media.mimeType,
    media_details: details,
    post: item.parent === 0 ? null : item.parent,
    source_url: sourceUrl,
  };
}

export function serializeRevision(
  site: SiteState,
  store: LangStore,
  revision: StoredRevision,
  parent: StoredItem,
  context: ContextName,
): Record<string, unknown> {
  const offset = store.settings.gmtOffset;
  const root = apiRoot(site.base, store.settings.lang);
  const collection = COLLECTION_OF_TYPE[parent.type];
  const slug = `${parent.id}-${revision.kind === 'autosave' ? 'autosave' : 'revision'}-v1`;
  const out: Record<string, unknown> = {
    author: revision.author,
    date: formatSiteLocal(revision.dateGmt, offset),
    date_gmt: formatGmt(revision.dateGmt),
    id: revision.id,
    modified: formatSiteLocal(revision.modifiedGmt, offset),
    modified_gmt: formatGmt(revision.modifiedGmt),
    parent: revision.parent,
    slug,
    guid: {
      rendered: `${site.base}/${store.settings.lang}/?p=${revision.id}`,
      raw: `${site.base}/${store.settings.lang}/?p=${revision.id}`,
    },
    title: { raw: revision.title, rendered: revision.title },
    content: { raw: revision.content, rendered: renderContent(revision.content) },
    excerpt: { raw: revision.excerpt, rendered: renderExcerpt(revision) },
  };
  if (revision.kind === 'autosave') {
    out.preview_link = `${itemLink(store, site.base, parent)}?preview_id=${parent.id}&preview_nonce=0&preview=true`;
  }
  const schema = revision.kind === 'autosave' ? AUTOSAVE_SCHEMA : REVISION_SCHEMA;
  const filtered = filterByContext(out, schema, context);
  const base = `${root}cms/v2/${collection}/${parent.id}`;
  filtered._links = {
    parent: [{ href: base }],
    ...(revision.kind === 'revision'
      ? { self: [{ href: `${base}/revisions/${revision.id}` }] }
      : { self: [{ href: `${base}/autosaves/${revision.id}` }] }),
  };
  return filtered;
}

/**
 * `_fields=a,b.c`: keeps only the named top-level fields (and nested paths), as servers do
 * for any response.
 */
export function applyFieldsFilter(body: unknown, fields: string): unknown {
  const paths = fields
    .split(',')
    .map((field) => field.trim())
    .filter(Boolean)
    .map((field) => field.split('.'));
  if (paths.length === 0) return body;
  const pick = (value: unknown): unknown => {
    if (typeof value !== 'object' || value === null || Array.isArray(value)) return value;
    return pickPaths(value as Record<string, unknown>, paths);
  };
  return Array.isArray(body) ? body.map(pick) : pick(body);
}

function pickPaths(value: Record<string, unknown>, paths: string[][]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, element] of Object.entries(value)) {
    const matching = paths.filter((path) => path[0] === key);
    if (matching.length === 0) continue;
    if (matching.some((path) => path.length === 1)) {
      out[key] = element;
    } else if (typeof element === 'object' && element !== null && !Array.isArray(element)) {
      out[key] = pickPaths(
        element as Record<string, unknown>,
        matching.map((path) => path.slice(1)),
      );
    }
  }
  return out;
}
