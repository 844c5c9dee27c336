/**
 * The state restore puts back, read from the cache's kept history, a snapshot or a revision:
 * one `WantedItem` per item, plus what such an item needs (a parent page or featured file
 * deleted with it, put back only if gone) and its children (moved back under it once it is
 * created again). Reads the cache only.
 */
import { collectionOf, isItemType, ITEM_TYPES, type ItemType } from '../collections.js';
import { InputError, UsageError } from '../errors.js';
import type { ItemVersion, Store } from '../store/index.js';
import { keyOf, type NewItem, type WantedItem } from './restore-plan.js';
import { REVISION_FIELDS, refTypeOf, valueOf } from './restore-fields.js';

type Json = Readonly<Record<string, unknown>>;

/** Where the state of an item wanted at a time comes from: a snapshot or the kept history. */
type StateAt = (type: ItemType, id: number) => Json | undefined;

export interface WantedSet {
  readonly wanted: WantedItem[];
  readonly created: NewItem[];
}

/** `posts/123` as a type and an id; anything else is a one-line usage error. */
export function parseItemArg(text: string): { type: ItemType; id: number } {
  const match = /^([a-z_-]+)\/(\d+)$/.exec(text.trim());
  if (match === null || !isItemType(match[1]) || Number(match[2]) < 1) {
    throw new UsageError(
      `--item: expected a collection and an id such as ${ITEM_TYPES[0]}/123 (collections: ${ITEM_TYPES.join(', ')}), got "${text}"`,
    );
  }
  return { type: match[1], id: Number(match[2]) };
}

function parse(json: string | null): Json | undefined {
  if (json === null) return undefined;
  const value: unknown = JSON.parse(json);
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Json)
    : undefined;
}

const isTrash = (row: ItemVersion): boolean => row.status === 'trash';

/** `--as-of`: every item changed since `at` back to its state at `at`; new items listed. */
export function wantedAsOf(cache: Store, lang: string, at: string): WantedSet {
  const copies = new Set(cache.restoreMap.list(lang).map((row) => keyOf(row.type, row.newId)));
  const wanted: WantedItem[] = [];
  const created: NewItem[] = [];
  for (const { type, id } of cache.itemVersions.changedAfter(lang, at)) {
    const then = cache.itemVersions.versionAt(lang, type, id, at);
    if (then === undefined) {
      if (copies.has(keyOf(type, id))) continue;
      const rows = cache.itemVersions.versionsOf(lang, type, id);
      const last = [...rows].reverse().find((row) => row.json !== null);
      const title = valueOf(parse(last?.json ?? null) ?? {}, 'title');
      if (rows.at(-1)?.gone !== true)
        created.push({ type, id, title: typeof title === 'string' ? title : '' });
      continue;
    }
    const json = then.gone ? undefined : parse(then.json);
    if (json !== undefined) wanted.push({ type, id, json });
  }
  const stateAt: StateAt = (type, id) => {
    const then = cache.itemVersions.versionAt(lang, type, id, at);
    return then === undefined || then.gone ? undefined : parse(then.json);
  };
  return { wanted: withRelated(wanted, stateAt, childrenInHistory(cache, lang, at)), created };
}

/** `--deleted-since`: every item trashed or deleted by a pull after `at`, as it was before. */
export function wantedDeletedSince(cache: Store, lang: string, at: string): WantedSet {
  const wanted: WantedItem[] = [];
  for (const { type, id } of cache.itemVersions.changedAfter(lang, at)) {
    const rows = cache.itemVersions.versionsOf(lang, type, id);
    let first = rows.length;
    while (first > 0 && (rows[first - 1]!.gone || isTrash(rows[first - 1]!))) first -= 1;
    const lost = rows[first];
    if (lost === undefined || lost.seenAt <= at || first === 0) continue;
    const json = parse(rows[first - 1]!.json);
    if (json !== undefined) wanted.push({ type, id, json });
  }
  const stateAt: StateAt = (type, id) => lastKnown(cache, lang, type, id);
  return { wanted: withRelated(wanted, stateAt, childrenInHistory(cache, lang, at)), created: [] };
}

/** `--item` with `--snapshot`: each item as the snapshot holds it. */
export function wantedFromSnapshot(
  snapshot: Store,
  cache: Store,
  lang: string,
  items: readonly { type: ItemType; id: number }[],
): WantedSet {
  const stateAt: StateAt = (type, id) => {
    const item = snapshot.items.get(lang, type, id);
    return item === undefined || item.deletedAt !== null ? undefined : parse(item.json);
  };
  const wanted = items.map(({ type, id }): WantedItem => {
    const json = stateAt(type, id);
    if (json === undefined)
      throw new InputError(
        snapshot.file,
        `${type}/${id}: no such item in the snapshot ${snapshot.file} (${lang})`,
      );
    return { type, id, json };
  });
  const children = (type: ItemType, id: number): number[] => [
    ...new Set([...childrenIn(snapshot, lang, type, id), ...childrenIn(cache, lang, type, id)]),
  ];
  return { wanted: withRelated(wanted, stateAt, children), created: [] };
}

/** `--item` alone: each item as it was before its latest change in the kept history. */
export function wantedBeforeLatest(
  cache: Store,
  lang: string,
  items: readonly { type: ItemType; id: number }[],
): WantedSet {
  const wanted = items.map(({ type, id }): WantedItem => {
    const rows = cache.itemVersions.versionsOf(lang, type, id);
    if (rows.length === 0) throw unknownItem(cache, lang, type, id);
    const latest = rows.at(-1)!;
    const earlier = rows
      .slice(0, -1)
      .reverse()
      .find(
        (row) =>
          !row.gone && row.json !== null && (latest.gone || row.contentHash !== latest.contentHash),
      );
    const json = parse(earlier?.json ?? null);
    if (json === undefined)
      throw new InputError(
        cache.file,
        `${type}/${id}: the kept history of ${cache.file} holds no earlier version of it (${lang})`,
      );
    return { type, id, json };
  });
  const stateAt: StateAt = (type, id) => lastKnown(cache, lang, type, id);
  const children = (type: ItemType, id: number): number[] => childrenIn(cache, lang, type, id);
  return { wanted: withRelated(wanted, stateAt, children), created: [] };
}

/** `--item --revision`: title, content and excerpt of a revision the backup holds. */
export function wantedRevision(
  cache: Store,
  lang: string,
  item: { type: ItemType; id: number },
  revisionId: number,
): WantedSet {
  const revision = cache.revisions.get(lang, revisionId);
  if (
    revision === undefined ||
    revision.parentType !== item.type ||
    revision.parentId !== item.id
  ) {
    throw new InputError(
      cache.file,
      `--revision ${revisionId}: the backup ${cache.file} holds no revision ${revisionId} of ${item.type}/${item.id} (${lang})`,
    );
  }
  const current = lastKnown(cache, lang, item.type, item.id);
  if (current === undefined) throw unknownItem(cache, lang, item.type, item.id);
  const text = parse(revision.json) ?? {};
  const json: Json = {
    ...current,
    ...Object.fromEntries(REVISION_FIELDS.map((f) => [f, text[f]])),
  };
  return { wanted: [{ ...item, json, fields: REVISION_FIELDS }], created: [] };
}

function unknownItem(cache: Store, lang: string, type: ItemType, id: number): InputError {
  return new InputError(
    cache.file,
    `${type}/${id}: no such item in the cache ${cache.file} or its kept history (${lang})`,
  );
}

/** The item as the cache last knew it: its row, else its latest version before it went. */
function lastKnown(cache: Store, lang: string, type: ItemType, id: number): Json | undefined {
  const item = cache.items.get(lang, type, id);
  if (item !== undefined && item.deletedAt === null) return parse(item.json);
  const rows = cache.itemVersions.versionsOf(lang, type, id);
  return parse([...rows].reverse().find((row) => row.json !== null)?.json ?? null);
}

/** Items of a page tree whose parent is `id` in the cache now. */
function childrenIn(store: Store, lang: string, type: ItemType, id: number): number[] {
  if (!collectionOf(type).hierarchical) return [];
  const out: number[] = [];
  for (const item of store.items.iterate(lang, type)) {
    if (item.deletedAt === null && item.parent === id) out.push(item.id);
  }
  return out;
}

/**
 * Children now, and those whose parent was `id` at `at` (a site may move them up when their
 * parent is deleted). The history is read once, on the first page-tree item asked about.
 */
function childrenInHistory(cache: Store, lang: string, at: string) {
  let movedFrom: Map<string, number[]> | undefined;
  return (type: ItemType, id: number): number[] => {
    if (!collectionOf(type).hierarchical) return [];
    movedFrom ??= parentsAt(cache, lang, at);
    const moved = movedFrom.get(keyOf(type, id)) ?? [];
    return [...new Set([...childrenIn(cache, lang, type, id), ...moved])];
  };
}

/** `type/parent` → items of a page tree changed since `at` whose parent then it was. */
function parentsAt(cache: Store, lang: string, at: string): Map<string, number[]> {
  const out = new Map<string, number[]>();
  for (const { type, id } of cache.itemVersions.changedAfter(lang, at)) {
    if (!collectionOf(type).hierarchical) continue;
    const parent = parse(cache.itemVersions.versionAt(lang, type, id, at)?.json ?? null)?.parent;
    if (typeof parent !== 'number' || parent < 1) continue;
    const list = out.get(keyOf(type, parent)) ?? [];
    list.push(id);
    out.set(keyOf(type, parent), list);
  }
  return out;
}

/**
 * The wanted items, then what they point at (put back only if gone) and their children (their
 * parent moved to the new id only if the item is created again).
 */
function withRelated(
  wanted: WantedItem[],
  stateAt: StateAt,
  childrenOf: (type: ItemType, id: number) => number[],
): WantedItem[] {
  const out = [...wanted];
  const seen = new Set(wanted.map((item) => keyOf(item.type, item.id)));
  for (let i = 0; i < out.length; i += 1) {
    const item = out[i]!;
    if (item.ifRecreated !== undefined) continue;
    for (const field of ['parent', 'featured_media']) {
      const refType = refTypeOf(item.type, field);
      const id = item.json[field];
      if (refType === undefined || typeof id !== 'number' || id < 1) continue;
      const json = seen.has(keyOf(refType, id)) ? undefined : stateAt(refType, id);
      if (json === undefined) continue;
      seen.add(keyOf(refType, id));
      out.push({ type: refType, id, json, ifGone: true });
    }
    for (const child of childrenOf(item.type, item.id)) {
      if (seen.has(keyOf(item.type, child))) continue;
      seen.add(keyOf(item.type, child));
      const json: Json = { parent: item.id };
      const ifRecreated = keyOf(item.type, item.id);
      out.push({ type: item.type, id: child, json, fields: ['parent'], ifRecreated });
    }
  }
  return out;
}
