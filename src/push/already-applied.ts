import type { CmsClient } from '../client/index.js';
import type { Edit } from '../store/index.js';
import { fieldsFromItem, type CheckoutType } from './checkout-file.js';
import { chunkIds } from './conflicts.js';
import { changedFields } from './edit-diff.js';
import { backupStatuses, collectionRoute } from '../collections.js';

/**
 * A write whose answer never came back (a dropped connection, a cut body, a killed process)
 * may still have been applied by the site. Sending it again blindly would create a second
 * item, and comparing `modified_gmt` with the checkout base would call our own write a
 * conflict. So before writing, push asks the site: an item that already has every field of
 * the edit needs no write (the edit is done), and a create whose item already exists (same
 * slug when the edit names one; same title, content and status) is adopted, not made twice.
 *
 * An identical item made by someone else is adopted the same way: creating a copy of an item
 * that already exists, field for field, is never what a re-run of push should do.
 */

/** Every status an editor can list, trash included (a trash edit that landed is in the trash). */
const lookupStatuses = (type: CheckoutType): string[] => [...backupStatuses(type)];

type RemoteItem = Readonly<Record<string, unknown>> & { readonly id: number };

/** True when `item` already holds every field the edit writes. Pure. */
export function editApplied(edit: Pick<Edit, 'type' | 'fields'>, item: RemoteItem): boolean {
  const type = edit.type as CheckoutType;
  const current = fieldsFromItem(item, type);
  // `fieldsFromItem` gives `date` instead of a null `date_gmt`; compare both when both exist.
  if (typeof item.date === 'string') current.date ??= item.date;
  if (typeof item.slug === 'string') current.slug = decodeSlug(item.slug);
  const wanted: Record<string, unknown> = { ...edit.fields };
  if (typeof wanted.slug === 'string') wanted.slug = decodeSlug(wanted.slug);
  return Object.keys(changedFields(current, wanted)).length === 0;
}

function decodeSlug(slug: string): string {
  try {
    return decodeURIComponent(slug);
  } catch {
    return slug;
  }
}

/** The items with these ids as an editor sees them (any status, trash included), by id. */
export async function fetchItems(
  client: CmsClient,
  type: CheckoutType,
  ids: readonly number[],
  perPage: number,
): Promise<Map<number, RemoteItem>> {
  const found = new Map<number, RemoteItem>();
  for (const chunk of chunkIds(ids, perPage)) {
    const page = await client.listPage<Record<string, unknown>>(collectionRoute(type), {
      include: chunk,
      per_page: chunk.length,
      context: 'edit',
      status: lookupStatuses(type),
    });
    for (const item of page.items)
      if (typeof item.id === 'number') found.set(item.id, asItem(item));
  }
  return found;
}

/**
 * For each create edit, the site's item that is already that create, if any: looked up by
 * slug (one request for up to `perPage` edits) or, without a slug, by a search for the title.
 */
export async function findCreated(
  client: CmsClient,
  type: CheckoutType,
  creates: readonly Edit[],
  perPage: number,
): Promise<Map<number, RemoteItem>> {
  const adopted = new Map<number, RemoteItem>();
  const taken = new Set<number>();
  const adopt = (edit: Edit, candidates: readonly RemoteItem[]): void => {
    const match = candidates
      .filter((item) => !taken.has(item.id))
      .sort((a, b) => a.id - b.id)
      .find((item) => editApplied(edit, item));
    if (match === undefined) return;
    taken.add(match.id);
    adopted.set(edit.id, match);
  };
  const withSlug = creates.filter((edit) => typeof edit.fields.slug === 'string');
  for (let start = 0; start < withSlug.length; start += perPage) {
    const chunk = withSlug.slice(start, start + perPage);
    const candidates = await list(client, type, {
      slug: chunk.map((edit) => decodeSlug(String(edit.fields.slug))),
      per_page: perPage,
    });
    for (const edit of chunk) adopt(edit, candidates);
  }
  for (const edit of creates.filter((candidate) => typeof candidate.fields.slug !== 'string')) {
    const title = typeof edit.fields.title === 'string' ? edit.fields.title.trim() : '';
    if (title === '') continue;
    adopt(edit, await list(client, type, { search: title, per_page: perPage }));
  }
  return adopted;
}

async function list(
  client: CmsClient,
  type: CheckoutType,
  query: Record<string, string | number | string[]>,
): Promise<RemoteItem[]> {
  const page = await client.listPage<Record<string, unknown>>(collectionRoute(type), {
    ...query,
    context: 'edit',
    status: lookupStatuses(type),
  });
  return page.items.filter((item) => typeof item.id === 'number').map(asItem);
}

function asItem(item: Record<string, unknown>): RemoteItem {
  return item as RemoteItem;
}
