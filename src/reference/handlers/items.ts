import type { ContextName } from '../arg-schema.js';
import { detachRemoved, trashedSlug } from '../item-removal.js';
import { applyMediaFields, newItem, planWrite, recordRevision } from '../items-write.js';
import { canRead, checkListStatuses, forbidden, mayEdit } from '../permissions.js';
import { runListQuery } from '../query-items.js';
import type { ListQuery, TermFilter } from '../query-items.js';
import { RestError } from '../rest-error.js';
import { json } from '../route-types.js';
import type { Handler, HandlerContext, RestResponse } from '../route-types.js';
import { serializeItem } from '../serialize.js';
import { parseDateTime, toEpochSeconds } from '../site-dates.js';
import { COLLECTION_OF_TYPE } from '../store.js';
import type { ItemType, StoredItem } from '../store.js';

/**
 * Collections and items of posts, pages and media: list, read, create (posts/pages), update
 * and delete, with the permission rules servers apply (permissions.ts: published content is
 * public; any other status, `context=edit` and writes need a user whose role allows them).
 */
function asList<T>(value: unknown): T[] | undefined {
  if (value === undefined || value === null) return undefined;
  return (Array.isArray(value) ? value : [value]) as T[];
}

function termFilter(value: unknown): TermFilter | undefined {
  if (value === undefined) return undefined;
  if (Array.isArray(value))
    return { terms: value as number[], includeChildren: false, operator: 'OR' };
  const object = value as { terms?: number[]; include_children?: boolean; operator?: 'AND' | 'OR' };
  return {
    terms: object.terms ?? [],
    includeChildren: object.include_children ?? false,
    operator: object.operator ?? 'OR',
  };
}

function requireItem(context: HandlerContext, type: ItemType, id: number): StoredItem {
  const item = context.store.getItem(type, id);
  if (!item) throw new RestError(404, 'rest_post_invalid_id', 'Invalid post ID.');
  return item;
}

export function collectionUrl(context: HandlerContext, type: ItemType): string {
  return `${context.root}cms/v2/${COLLECTION_OF_TYPE[type]}`;
}

/** Pagination headers: totals and `Link` rel=prev/next carrying the request's own query. */
export function paginationHeaders(
  context: HandlerContext,
  base: string,
  page: number,
  total: number,
  totalPages: number,
): Record<string, string> {
  const headers: Record<string, string> = {
    'X-CMS-Total': String(total),
    'X-CMS-TotalPages': String(totalPages),
  };
  const linkTo = (target: number): string => {
    const query = new URLSearchParams(context.request.rawQuery ?? '');
    query.set('page', String(target));
    return `${base}?${query.toString()}`;
  };
  const links: string[] = [];
  if (page > 1) links.push(`<${linkTo(Math.min(page - 1, Math.max(totalPages, 1)))}>; rel="prev"`);
  if (page < totalPages) links.push(`<${linkTo(page + 1)}>; rel="next"`);
  if (links.length > 0) headers.Link = links.join(', ');
  return headers;
}

/** The orderings that need another parameter, refused without it as servers do. */
function checkOrderby(
  params: Readonly<Record<string, unknown>>,
  include: readonly number[] | undefined,
  slug: readonly string[] | undefined,
): void {
  if (params.orderby === 'relevance' && !params.search) {
    throw new RestError(
      400,
      'rest_no_search_term_defined',
      'You need to define a search term to order by relevance.',
    );
  }
  if (params.orderby === 'include' && !include?.length) {
    throw new RestError(
      400,
      'rest_orderby_include_missing_include',
      'You need to define an include parameter to order by include.',
    );
  }
  if (params.orderby === 'include_slugs' && !slug?.length) {
    throw new RestError(
      400,
      'rest_orderby_include_missing_slugs',
      'You need to define a slug parameter to order by include_slugs.',
    );
  }
}

/** A list request's parameters as a query of the store. */
function listQueryOf(context: HandlerContext, type: ItemType, statuses: string[]): ListQuery {
  const { params, store } = context;
  const include = asList<number>(params.include);
  const slug = asList<string>(params.slug);
  checkOrderby(params, include, slug);
  const offset = store.settings.gmtOffset;
  const date = (value: unknown): number | undefined =>
    typeof value === 'string' ? parseDateTime(value, offset) : undefined;
  const page = params.page as number;
  const perPage = params.per_page as number;
  return {
    statuses: statuses.includes('any') ? undefined : new Set(statuses),
    search: params.search as string | undefined,
    searchColumns: asList<string>(params.search_columns),
    exactSearch: params.search_semantics === 'exact',
    after: date(params.after),
    before: date(params.before),
    modifiedAfter: date(params.modified_after),
    modifiedBefore: date(params.modified_before),
    author: asList<number>(params.author),
    authorExclude: asList<number>(params.author_exclude),
    include,
    exclude: asList<number>(params.exclude),
    slug,
    parent: asList<number>(params.parent),
    parentExclude: asList<number>(params.parent_exclude),
    menuOrder: params.menu_order as number | undefined,
    categories: termFilter(params.categories),
    categoriesExclude: termFilter(params.categories_exclude),
    tags: termFilter(params.tags),
    tagsExclude: termFilter(params.tags_exclude),
    taxRelation: params.tax_relation as 'AND' | 'OR' | undefined,
    sticky: params.sticky as boolean | undefined,
    stickyFirst: type === 'post' && params.ignore_sticky === false && params.sticky === undefined,
    format: asList<string>(params.format),
    mediaType: asList<string>(params.media_type),
    mimeType: asList<string>(params.mime_type),
    orderby: params.orderby as string,
    order: params.order as 'asc' | 'desc',
    page,
    perPage,
    offset: params.offset as number | undefined,
  };
}

export function listHandler(type: ItemType): Handler {
  return (context) => {
    const { params, user, store } = context;
    const contextName = params.context as ContextName;
    const statuses = asList<string>(params.status) ?? ['publish'];
    checkListStatuses(user, type, statuses);
    if (contextName === 'edit' && !mayEdit(user, type)) {
      throw forbidden(
        user,
        'rest_forbidden_context',
        'Sorry, you are not allowed to edit posts in this post type.',
      );
    }
    const query = listQueryOf(context, type, statuses);
    const { page } = query;
    const result = runListQuery(store, store.indexes[type], query);
    if (page > result.totalPages && result.total > 0) {
      throw new RestError(
        400,
        'rest_post_invalid_page_number',
        'The page number requested is larger than the number of pages available.',
      );
    }
    const view = {
      context: contextName,
      showProtected: contextName === 'edit' && user !== undefined,
    };
    // Counted above, left out here: the total includes what this reader may not read.
    const body = result.items
      .filter((item) => canRead(context.site, store, item, user))
      .map((item) => serializeItem(context.site, store, item, view));
    return json(
      body,
      200,
      paginationHeaders(
        context,
        collectionUrl(context, type),
        page,
        result.total,
        result.totalPages,
      ),
    );
  };
}

export function getHandler(type: ItemType): Handler {
  return (context) => {
    const { params, user } = context;
    const item = requireItem(context, type, params.id as number);
    const contextName = params.context as ContextName;
    if (contextName === 'edit' && !mayEdit(user, type)) {
      throw forbidden(
        user,
        'rest_forbidden_context',
        'Sorry, you are not allowed to edit this post.',
      );
    }
    const password = typeof params.password === 'string' ? params.password : '';
    if (item.password !== '' && password !== '' && password !== item.password) {
      throw new RestError(403, 'rest_post_incorrect_password', 'Incorrect post password.');
    }
    if (!canRead(context.site, context.store, item, user))
      throw forbidden(user, 'rest_forbidden', 'Sorry, you are not allowed to do that.');
    const view = {
      context: contextName,
      showProtected:
        (password !== '' && password === item.password) ||
        (contextName === 'edit' && user !== undefined),
      excerptLength: params.excerpt_length as number | undefined,
    };
    return json(serializeItem(context.site, context.store, item, view));
  };
}

function editView(): { context: ContextName; showProtected: boolean } {
  return { context: 'edit', showProtected: true };
}

export function createHandler(type: ItemType): Handler {
  return (context) => {
    const { params, user, store, site } = context;
    if (!user || !mayEdit(user, type)) {
      throw forbidden(
        user,
        'rest_cannot_create',
        'Sorry, you are not allowed to create posts as this user.',
      );
    }
    if (params.id !== undefined)
      throw new RestError(400, 'rest_post_exists', 'Cannot create existing post.');
    const now = toEpochSeconds(site.clock());
    const draft = newItem(type, store.nextId, user, now);
    const patch = planWrite(site, store, draft, params);
    const item: StoredItem = { ...draft, ...patch, id: store.allocateId() };
    item.modifiedGmt = now;
    store.add(item);
    recordRevision(store, item, user.id, now);
    return created(context, item);
  };
}

export function created(context: HandlerContext, item: StoredItem): RestResponse {
  return json(serializeItem(context.site, context.store, item, editView()), 201, {
    Location: `${collectionUrl(context, item.type)}/${item.id}`,
  });
}

export function updateHandler(type: ItemType): Handler {
  return (context) => {
    const { params, user, store, site } = context;
    const item = requireItem(context, type, params.id as number);
    if (!user || !mayEdit(user, type))
      throw forbidden(user, 'rest_cannot_edit', 'Sorry, you are not allowed to edit this post.');
    const patch = planWrite(site, store, item, params);
    const now = toEpochSeconds(site.clock());
    store.mutate(item, (target) => {
      Object.assign(target, patch);
      applyMediaFields(target, params);
      target.modifiedGmt = now;
    });
    recordRevision(store, item, user.id, now);
    return json(serializeItem(site, store, item, editView()));
  };
}

export function deleteHandler(type: ItemType): Handler {
  return (context) => {
    const { params, user, store, site } = context;
    const item = requireItem(context, type, params.id as number);
    if (!user || !mayEdit(user, type))
      throw forbidden(
        user,
        'rest_cannot_delete',
        'Sorry, you are not allowed to delete this post.',
      );
    if (params.force !== true) {
      if (type === 'attachment') {
        throw new RestError(
          501,
          'rest_trash_not_supported',
          "The post does not support trashing. Set 'force' to true to delete.",
        );
      }
      if (item.status === 'trash') {
        throw new RestError(410, 'rest_already_trashed', 'The post has already been deleted.');
      }
      const now = toEpochSeconds(site.clock());
      const trashed = trashedSlug(item, item.slug);
      store.mutate(item, (target) => {
        target.status = 'trash';
        target.slug = trashed.slug;
        target.desiredSlug = trashed.desired;
        target.modifiedGmt = now;
      });
      return json(serializeItem(site, store, item, editView()));
    }
    const previous = serializeItem(site, store, item, editView());
    store.remove(item);
    detachRemoved(store, item);
    for (const [path, file] of store.files) if (file.owner === item.id) store.files.delete(path);
    return json({ deleted: true, previous });
  };
}
