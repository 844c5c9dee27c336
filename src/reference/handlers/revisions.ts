import type { ContextName } from '../arg-schema.js';
import { forbidden, mayEdit } from '../permissions.js';
import { RestError } from '../rest-error.js';
import { json } from '../route-types.js';
import type { Handler, HandlerContext } from '../route-types.js';
import { serializeRevision } from '../serialize.js';
import { COLLECTION_OF_TYPE } from '../store.js';
import type { ItemType, StoredItem, StoredRevision } from '../store.js';
import { paginationHeaders } from './items.js';

/**
 * Revisions of posts and pages: editors only (401 rest_cannot_read otherwise). The list
 * includes the item's autosaves, as deployed servers' lists do. Revisions have no trash, so
 * DELETE needs `force=true`, and only a site started with `deletableRevisions` allows it.
 */
export function requireParent(context: HandlerContext, type: ItemType, id: number): StoredItem {
  const parent = context.store.getItem(type, id);
  if (!parent) throw new RestError(404, 'rest_post_invalid_parent', 'Invalid post parent ID.');
  return parent;
}

function requireEditor(context: HandlerContext, parent: StoredItem, message: string): void {
  if (!mayEdit(context.user, parent.type))
    throw forbidden(context.user, 'rest_cannot_read', message);
}

function compareRevisions(
  orderby: string,
  include: number[],
): (a: StoredRevision, b: StoredRevision) => number {
  if (orderby === 'id') return (a, b) => a.id - b.id;
  if (orderby === 'include') return (a, b) => include.indexOf(a.id) - include.indexOf(b.id);
  if (orderby === 'title')
    return (a, b) => (a.title < b.title ? -1 : a.title > b.title ? 1 : a.id - b.id);
  return (a, b) => a.dateGmt - b.dateGmt || a.id - b.id;
}

export function revisionListHandler(type: ItemType): Handler {
  return (context) => {
    const { params, store } = context;
    const parent = requireParent(context, type, Number(context.urlParams.parent));
    requireEditor(context, parent, 'Sorry, you are not allowed to view revisions of this post.');
    const include = (params.include as number[] | undefined) ?? [];
    const exclude = new Set((params.exclude as number[] | undefined) ?? []);
    const search = typeof params.search === 'string' ? params.search.toLowerCase() : '';
    if (params.orderby === 'include' && include.length === 0) {
      throw new RestError(
        400,
        'rest_orderby_include_missing_include',
        'You need to define an include parameter to order by include.',
      );
    }
    let revisions = store
      .revisionsOf(parent.id)
      .filter((revision) => include.length === 0 || include.includes(revision.id))
      .filter((revision) => !exclude.has(revision.id))
      .filter(
        (revision) =>
          search === '' ||
          `${revision.title}\n${revision.content}\n${revision.excerpt}`
            .toLowerCase()
            .includes(search),
      );
    const comparator = compareRevisions(params.orderby as string, include);
    revisions.sort(comparator);
    if (params.order === 'desc' && params.orderby !== 'include') revisions.reverse();
    const total = revisions.length;
    const perPage = params.per_page as number | undefined;
    const page = params.page as number;
    const offset = params.offset as number | undefined;
    let totalPages = total > 0 ? 1 : 0;
    if (perPage !== undefined || offset !== undefined) {
      const size = perPage ?? 10;
      totalPages = Math.ceil(total / size);
      const start = offset ?? (page - 1) * size;
      if (page > totalPages && total > 0) {
        throw new RestError(
          400,
          'rest_revision_invalid_page_number',
          'The page number requested is larger than the number of pages available.',
        );
      }
      revisions = revisions.slice(start, start + size);
    }
    const contextName = params.context as ContextName;
    const body = revisions.map((revision) =>
      serializeRevision(context.site, store, revision, parent, contextName),
    );
    const base = `${context.root}cms/v2/${COLLECTION_OF_TYPE[type]}/${parent.id}/revisions`;
    return json(body, 200, paginationHeaders(context, base, page, total, totalPages));
  };
}

/** A revision or autosave of `parent` by the URL's `id` (either kind: an autosave is a revision). */
export function requireRevision(context: HandlerContext, parent: StoredItem): StoredRevision {
  const revision = context.store.revisions.get(Number(context.urlParams.id));
  if (!revision) throw new RestError(404, 'rest_post_invalid_id', 'Invalid revision ID.');
  if (revision.parent !== parent.id) {
    throw new RestError(
      404,
      'rest_revision_parent_id_mismatch',
      'The revision does not belong to the specified parent.',
    );
  }
  return revision;
}

export function revisionGetHandler(type: ItemType): Handler {
  return (context) => {
    const parent = requireParent(context, type, Number(context.urlParams.parent));
    requireEditor(context, parent, 'Sorry, you are not allowed to view revisions of this post.');
    const revision = requireRevision(context, parent);
    return json(
      serializeRevision(
        context.site,
        context.store,
        revision,
        parent,
        context.params.context as ContextName,
      ),
    );
  };
}

export function revisionDeleteHandler(type: ItemType): Handler {
  return (context) => {
    const parent = requireParent(context, type, Number(context.urlParams.parent));
    if (!context.user) {
      throw new RestError(
        401,
        'rest_cannot_read',
        'Sorry, you are not allowed to view revisions of this post.',
      );
    }
    const revision = requireRevision(context, parent);
    if (!context.site.deletableRevisions) {
      // Deployed servers may refuse this to every user, before looking at `force`.
      throw new RestError(
        403,
        'rest_cannot_delete',
        'Sorry, you are not allowed to delete this revision.',
      );
    }
    if (context.params.force !== true) {
      throw new RestError(
        501,
        'rest_trash_not_supported',
        "Revisions do not support trashing. Set 'force' to true to delete.",
      );
    }
    const previous = serializeRevision(context.site, context.store, revision, parent, 'edit');
    context.store.removeRevision(revision);
    return json({ deleted: true, previous });
  };
}
