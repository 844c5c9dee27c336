/**
 * The one check a pull with credentials makes up front, before anything is stored: are the
 * credentials right (a wrong password is answered as if anonymous on public routes, so it must
 * be asked), and may this user read every collection the way the pull asks for it? A user with
 * a weak role has valid credentials the site still refuses (a subscriber: 403 on
 * `context=edit`; an author: 400 `rest_forbidden_status` on unpublished pages); finding that
 * out after posts were stored would leave a half pull behind.
 */
import { credentialRefusal, verifyCredentials, type CmsClient } from '../client/index.js';
import type { CredentialNames } from '../client/auth.js';
import { AccessError, AuthError, HttpError } from '../errors.js';
import type { ItemType } from '../store/index.js';
import { collectionRoute, ITEM_TYPES } from '../collections.js';
import { collectionFilter } from './collections.js';
import { fetchList } from './list-fetch.js';
import { settleAll } from './settle-all.js';

export interface AccessCheckOptions {
  readonly names: Required<CredentialNames>;
  /** Whether the pull was asked for a backup (the advice differs). */
  readonly backup: boolean;
}

/**
 * Checks the credentials and the edit-mode filter of every collection: one `per_page=1`
 * request each, all at once. The first collection's request is the credentials check itself
 * (`context=edit`), so it needs no request of its own. Returns each collection's `X-CMS-Total`
 * under that filter (a pull that changes nothing reuses it instead of counting again).
 * Anonymous: no request, no totals. A wrong password is reported as such, whichever answer
 * came first.
 */
export async function checkAccess(
  client: CmsClient,
  options: AccessCheckOptions,
): Promise<ReadonlyMap<ItemType, number | undefined>> {
  const totals = new Map<ItemType, number | undefined>();
  if (!client.hasCredentials) return totals;
  const [verified] = ITEM_TYPES as [ItemType, ...ItemType[]];
  // settleAll reports the first failure in this order: the credentials check's comes first.
  await settleAll(
    ITEM_TYPES.map(async (type) => {
      try {
        const list = await fetchList(client, collectionRoute(type), {
          ...collectionFilter(type, 'edit'),
          per_page: 1,
        });
        totals.set(type, list.total);
      } catch (error) {
        if (type === verified) throw await credentialsFailure(client, type, error, options);
        if (isRefusal(error)) throw refused(error, type, options);
        throw error;
      }
    }),
  );
  return totals;
}

/**
 * The error of the first collection's request, the credentials check. A 401 or 403 settles
 * it. A 400 that refuses the status filter does not: deployed servers answer it to a wrong
 * password (read as anonymous) as to a role that may not list unpublished items, so the plain
 * `context=edit` check is asked then, to tell the two apart.
 */
async function credentialsFailure(
  client: CmsClient,
  type: ItemType,
  error: unknown,
  options: AccessCheckOptions,
): Promise<unknown> {
  let failure = credentialRefusal(error, options.names);
  if (failure === undefined && isRefusal(error)) {
    try {
      await verifyCredentials(client, { names: options.names, route: collectionRoute(type) });
      return refused(error, type, options);
    } catch (check) {
      if (!(check instanceof AuthError || check instanceof AccessError)) return check;
      failure = check;
    }
  }
  if (failure instanceof AccessError) {
    return new AccessError(failure.refused, `${failure.message}${otherwise(options)}`, {
      cause: failure,
    });
  }
  return failure ?? error;
}

/** 401/403, or a 400 whose `status` parameter was refused for this user. */
function isRefusal(error: unknown): error is HttpError {
  if (!(error instanceof HttpError)) return false;
  if (error.status === 401 || error.status === 403) return true;
  if (error.status !== 400 || error.serverCode !== 'rest_invalid_param') return false;
  const details = (error.body as { data?: { details?: Record<string, { code?: unknown }> } })?.data
    ?.details;
  return Object.values(details ?? {}).some((detail) => detail?.code === 'rest_forbidden_status');
}

function refused(error: HttpError, type: ItemType, options: AccessCheckOptions): AccessError {
  const { user, password } = options.names;
  const what =
    error.status === 400
      ? `list ${type} that are not published (draft, pending, private, future, trash)`
      : `read ${type} with context=edit`;
  return new AccessError(
    `${error.method} ${error.url}`,
    `the site accepted the credentials in ${user}/${password}, but that user may not ${what} (${error.method} ${error.url} answered ${error.status}${error.serverCode === undefined ? '' : ` ${error.serverCode}`}${error.status === 400 ? ' rest_forbidden_status' : ''}); use another user whose role may edit posts, pages and media (an editor or administrator)${otherwise(options)}`,
    { cause: error },
  );
}

function otherwise(options: AccessCheckOptions): string {
  const { user, password } = options.names;
  return options.backup
    ? `, or pull without --backup and without ${user}/${password} (published content only)`
    : `, or pull without ${user}/${password} (published content only)`;
}
