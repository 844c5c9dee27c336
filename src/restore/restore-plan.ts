/**
 * What restore does, decided from the state wanted (a snapshot, the kept history, a revision)
 * and the state on the site, read just before. Pure. An item on the site (trashed or not)
 * gets one update of the fields that differ — taken out of the trash by that update's status,
 * its old slug back; an item deleted for good is created again (a file uploaded again), and
 * what names it (a page's parent, a featured file, links in content) is moved to the new id
 * once it exists; an item whose wanted state is the trash goes back to the trash. Items
 * created since (`--as-of`) are listed, and trashed with `removeNew` unless they are files.
 */
import { collectionOf, type ItemType } from '../collections.js';
import { relinkText, type LinkMap } from './relink-text.js';
import { refTypeOf, restoredFields, sameValue, valueOf } from './restore-fields.js';

type Json = Readonly<Record<string, unknown>>;

export interface WantedItem {
  readonly type: ItemType;
  /** The item's id in the state wanted (its old id when it was deleted for good since). */
  readonly id: number;
  /** The item as the state wanted holds it (as fetched in edit context). */
  readonly json: Json;
  /** Only these fields are put back (a revision: the text; a child: its parent). */
  readonly fields?: readonly string[];
  /** Put back only when deleted for good (a parent page or a featured file an item needs). */
  readonly ifGone?: boolean;
  /** Put back only when the item of this key (`type/id`) is created again (its children). */
  readonly ifRecreated?: string;
}

export interface NewItem {
  readonly type: ItemType;
  readonly id: number;
  readonly title: string;
}

export interface PlanInput {
  readonly wanted: readonly WantedItem[];
  /** The site now by `type/id`, trashed items included; a missing key: not on the site. */
  readonly site: ReadonlyMap<string, Json>;
  /** Items re-created by earlier runs: `type/oldId` → new id. */
  readonly mapped: ReadonlyMap<string, number>;
  /** Links to items re-created by earlier runs (the text wanted is compared relinked). */
  readonly links: LinkMap;
  /** Items created since the time restored to (`--as-of`); the restore's own copies left out. */
  readonly created?: readonly NewItem[];
  readonly removeNew?: boolean;
}

/** A field naming an item that this plan creates again: filled in once its new id is known. */
export interface Ref {
  readonly field: string;
  readonly type: ItemType;
  readonly oldId: number;
}

export type RestoreAction =
  | {
      readonly kind: 'update' | 'untrash';
      readonly type: ItemType;
      /** The item's id on the site (the new id of an item re-created earlier). */
      readonly id: number;
      readonly oldId: number;
      readonly body: Record<string, unknown>;
      readonly refs: readonly Ref[];
      /** `modified_gmt` on the site when planned: a later one is a conflict. */
      readonly modified: string | null;
      readonly title: string;
    }
  | {
      readonly kind: 'recreate';
      readonly type: ItemType;
      readonly oldId: number;
      readonly json: Json;
      readonly body: Record<string, unknown>;
      readonly refs: readonly Ref[];
      readonly title: string;
    }
  | {
      readonly kind: 'trash';
      readonly type: ItemType;
      readonly id: number;
      readonly oldId: number;
      readonly modified: string | null;
      readonly title: string;
      /** `wanted`: the state wanted is the trash; `new`: created since (`--remove-new`). */
      readonly why: 'wanted' | 'new';
    };

export interface RestorePlan {
  readonly actions: readonly RestoreAction[];
  /** Items already as wanted (`type/id`). */
  readonly unchanged: readonly string[];
  /** Items created since, left alone (files always; others without `removeNew`). */
  readonly leftNew: readonly NewItem[];
  /** Items that cannot be put back, one line each. */
  readonly notes: readonly string[];
}

export const keyOf = (type: ItemType, id: number): string => `${type}/${id}`;

export function planRestore(input: PlanInput): RestorePlan {
  const located = input.wanted.map((item) => ({ item, ...locate(input, item) }));
  const recreated = new Set(
    located
      .filter(({ item, site }) => site === undefined && item.ifRecreated === undefined)
      .filter(({ item }) => !leftBehind(item))
      .map(({ item }) => keyOf(item.type, item.id)),
  );
  const actions: RestoreAction[] = [];
  const unchanged: string[] = [];
  const notes: string[] = [];
  for (const { item, site, siteId } of located) {
    const key = keyOf(item.type, item.id);
    if (item.ifRecreated !== undefined && !recreated.has(item.ifRecreated)) {
      if (!input.mapped.has(item.ifRecreated)) continue;
    }
    if (item.ifGone === true && site !== undefined) continue;
    // A child deleted with its parent is put back only when asked for itself.
    if (item.ifRecreated !== undefined && site === undefined) continue;
    if (site === undefined) {
      if (leftBehind(item)) notes.push(`${key}: was ${statusOf(item.json)}; not created again`);
      else actions.push(recreate(input, item, recreated));
      continue;
    }
    const action = change(input, item, site, siteId, recreated);
    if (action === undefined) unchanged.push(key);
    else actions.push(action);
  }
  const { removed, left } = newItems(input);
  return { actions: [...order(actions), ...removed], unchanged, leftNew: left, notes };
}

/** The item on the site: under its own id, else under the id an earlier restore gave it. */
function locate(input: PlanInput, item: WantedItem): { site?: Json; siteId: number } {
  const own = input.site.get(keyOf(item.type, item.id));
  if (own !== undefined) return { site: own, siteId: item.id };
  const mapped = input.mapped.get(keyOf(item.type, item.id));
  const copy = mapped === undefined ? undefined : input.site.get(keyOf(item.type, mapped));
  return copy === undefined ? { siteId: item.id } : { site: copy, siteId: mapped! };
}

/** A status a create cannot carry (trash, auto-draft): such an item stays deleted. */
function leftBehind(item: WantedItem): boolean {
  return collectionOf(item.type).migrate.leftBehind.includes(statusOf(item.json));
}

function change(
  input: PlanInput,
  item: WantedItem,
  site: Json,
  siteId: number,
  recreated: ReadonlySet<string>,
): RestoreAction | undefined {
  const common = {
    type: item.type,
    id: siteId,
    oldId: item.id,
    modified: typeof site.modified_gmt === 'string' ? site.modified_gmt : null,
    title: titleOf(item.json),
  };
  const wantedStatus = statusOf(item.json);
  if (wantedStatus === 'trash' && (item.fields === undefined || item.fields.includes('status'))) {
    return statusOf(site) === 'trash' ? undefined : { kind: 'trash', why: 'wanted', ...common };
  }
  const { body, refs } = differing(input, item, site, recreated);
  const trashed = statusOf(site) === 'trash';
  if (trashed && body.status === undefined && wantedStatus !== '') body.status = wantedStatus;
  if (trashed && typeof item.json.slug === 'string' && item.json.slug !== '')
    body.slug = valueOf(item.json, 'slug');
  if (Object.keys(body).length === 0) return undefined;
  return { kind: trashed ? 'untrash' : 'update', body, refs, ...common };
}

/** The fields of `item` that differ on the site, with references to re-created items. */
function differing(
  input: PlanInput,
  item: WantedItem,
  site: Json,
  recreated: ReadonlySet<string>,
): { body: Record<string, unknown>; refs: Ref[] } {
  const body: Record<string, unknown> = {};
  const refs: Ref[] = [];
  for (const field of item.fields ?? restoredFields(item.type)) {
    const wanted = wantedValue(input, item, field, recreated);
    if (wanted.ref !== undefined) {
      refs.push(wanted.ref);
      body[field] = 0;
      continue;
    }
    if (wanted.value === undefined || wanted.value === null) continue;
    if (!sameValue(field, wanted.value, valueOf(site, field))) body[field] = wanted.value;
  }
  return { body, refs };
}

/** A field's wanted value, with ids of re-created items and links to them moved. */
function wantedValue(
  input: PlanInput,
  item: WantedItem,
  field: string,
  recreated: ReadonlySet<string>,
): { value?: unknown; ref?: Ref } {
  const value = valueOf(item.json, field);
  const refType = refTypeOf(item.type, field);
  if (refType !== undefined && typeof value === 'number' && value > 0) {
    const key = keyOf(refType, value);
    if (input.site.has(key)) return { value };
    const mapped = input.mapped.get(key);
    if (mapped !== undefined) return { value: mapped };
    if (recreated.has(key)) return { ref: { field, type: refType, oldId: value } };
    return { value };
  }
  if (typeof value === 'string' && (field === 'content' || field === 'excerpt'))
    return { value: relinkText(value, input.links) };
  return { value };
}

function recreate(
  input: PlanInput,
  item: WantedItem,
  recreated: ReadonlySet<string>,
): RestoreAction {
  const body: Record<string, unknown> = {};
  const refs: Ref[] = [];
  for (const field of [...restoredFields(item.type), 'date_gmt']) {
    const wanted = wantedValue(input, item, field, recreated);
    if (wanted.ref !== undefined) refs.push(wanted.ref);
    else if (wanted.value !== undefined && wanted.value !== null && wanted.value !== '')
      body[field] = wanted.value;
  }
  return {
    kind: 'recreate',
    type: item.type,
    oldId: item.id,
    json: item.json,
    body,
    refs,
    title: titleOf(item.json),
  };
}

function newItems(input: PlanInput): { removed: RestoreAction[]; left: NewItem[] } {
  const removed: RestoreAction[] = [];
  const left: NewItem[] = [];
  for (const item of input.created ?? []) {
    const site = input.site.get(keyOf(item.type, item.id));
    if (site !== undefined && statusOf(site) === 'trash') continue;
    if (input.removeNew !== true || collectionOf(item.type).file || site === undefined) {
      left.push(item);
      continue;
    }
    const modified = typeof site.modified_gmt === 'string' ? site.modified_gmt : null;
    removed.push({
      kind: 'trash',
      why: 'new',
      type: item.type,
      id: item.id,
      oldId: item.id,
      modified,
      title: item.title,
    });
  }
  return { removed, left };
}

/**
 * Files first (items point at them), then what is created again (by collection order, a page
 * tree parents first), then updates; the executor keeps this order.
 */
function order(actions: RestoreAction[]): RestoreAction[] {
  const rank = (action: RestoreAction): number =>
    action.kind === 'recreate'
      ? collectionOf(action.type).file
        ? 0
        : 1
      : action.kind === 'trash'
        ? 3
        : 2;
  return actions
    .map((action, index) => ({ action, index }))
    .sort((a, b) => rank(a.action) - rank(b.action) || a.index - b.index)
    .map(({ action }) => action);
}

function statusOf(json: Json): string {
  return typeof json.status === 'string' ? json.status : '';
}

function titleOf(json: Json): string {
  const value = valueOf(json, 'title');
  return typeof value === 'string' ? value : '';
}
