import { invalidParams, RestError } from './rest-error.js';
import type { SiteState } from './site-state.js';
import type { ItemType, LangStore, StoredItem } from './store.js';
import type { User } from './users.js';

/**
 * Who may read and edit what, as deployed servers decide it (observed-behaviour.md, Auth):
 * published content is public; administrators and editors read and edit everything; an author
 * edits posts and media and reads its own unpublished ones, but may not edit pages; a
 * subscriber's valid credentials read only what is public. Lists count what matches before
 * these rules drop what the reader may not read, so `X-CMS-Total` can exceed the body.
 */
const PUBLIC_STATUSES = new Set(['publish', 'inherit']);

/** The "edit posts of this type" capability: what `context=edit` and non-public statuses need. */
export function mayEdit(user: User | undefined, type: ItemType): boolean {
  if (user === undefined) return false;
  if (user.role === 'administrator' || user.role === 'editor') return true;
  return user.role === 'author' && type !== 'page';
}

function mayEditOthers(user: User, type: ItemType): boolean {
  return mayEdit(user, type) && user.role !== 'author';
}

/**
 * Whether `user` may read `item`. With `attachmentsFollowParent`, a media item attached to a
 * post or page is readable only by who may read that parent (a deployed server's rule).
 */
export function canRead(
  site: SiteState,
  store: LangStore,
  item: StoredItem,
  user: User | undefined,
): boolean {
  if (item.type === 'attachment' && site.attachmentsFollowParent && item.parent !== 0) {
    const parent = store.getItem('post', item.parent) ?? store.getItem('page', item.parent);
    if (parent !== undefined && parent.id !== item.id) return canRead(site, store, parent, user);
  }
  if (PUBLIC_STATUSES.has(item.status)) return true;
  if (user === undefined) return false;
  if (mayEditOthers(user, item.type)) return true;
  return mayEdit(user, item.type) && item.author === user.id;
}

/** 401 without credentials, 403 with credentials whose role is the limit. */
export function forbidden(user: User | undefined, code: string, message: string): RestError {
  return new RestError(user ? 403 : 401, code, message);
}

/**
 * Listing statuses other than the public ones needs the edit capability of the type: checked
 * with the parameters, before `context` (an author asking pages for drafts gets this 400).
 */
export function checkListStatuses(
  user: User | undefined,
  type: ItemType,
  statuses: readonly string[],
): void {
  if (user === undefined || mayEdit(user, type)) return; // anonymous: the argument check did it
  if (statuses.every((status) => PUBLIC_STATUSES.has(status))) return;
  throw invalidParams({
    status: {
      code: 'rest_forbidden_status',
      message: 'Status is forbidden.',
      data: { status: 403 },
    },
  });
}
