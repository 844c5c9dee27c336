/**
 * The two sides of `diff --snapshot` and `diff --since`, read from caches. Only items whose
 * content hash differs are parsed: a diff of two caches of 10,000 unchanged posts reads ids
 * and hashes.
 */
import { ITEM_TYPES, type ItemType, type Store } from '../store/index.js';
import { stateFromJson, type ItemPair, type ItemState } from './item-state.js';

/** Live items of one side, id → content hash. */
function hashesOf(store: Store, lang: string, type: ItemType): Map<number, string> {
  const hashes = new Map<number, string>();
  for (const item of store.items.iterate(lang, type)) hashes.set(item.id, item.contentHash);
  return hashes;
}

/** An item of `store` as a state; undefined when it is not there or is a tombstone. */
export function liveState(
  store: Store,
  lang: string,
  type: ItemType,
  id: number,
): ItemState | undefined {
  const item = store.items.get(lang, type, id);
  if (item === undefined || item.deletedAt !== null) return undefined;
  return stateFromJson(type, id, item.status, item.contentHash, item.json);
}

/** Snapshot (before) against cache (after): every item whose content differs. */
export function snapshotPairs(snapshot: Store, cache: Store, lang: string): ItemPair[] {
  const pairs: ItemPair[] = [];
  for (const type of ITEM_TYPES) {
    const before = hashesOf(snapshot, lang, type);
    const after = hashesOf(cache, lang, type);
    const ids = new Set([...before.keys(), ...after.keys()]);
    for (const id of [...ids].sort((x, y) => x - y)) {
      if (before.get(id) === after.get(id)) continue;
      pairs.push({
        type,
        id,
        before: liveState(snapshot, lang, type, id),
        after: liveState(cache, lang, type, id),
      });
    }
  }
  return pairs;
}

/**
 * The state at `at` (ISO 8601 UTC) from the kept history (before) against the cache (after),
 * for every item with a history row after `at`: only those can have changed since.
 */
export function historyPairs(cache: Store, lang: string, at: string): ItemPair[] {
  return cache.itemVersions.changedAfter(lang, at).map(({ type, id }) => {
    const then = cache.itemVersions.versionAt(lang, type, id, at);
    const before =
      then === undefined || then.gone || then.json === null
        ? undefined
        : stateFromJson(type, id, then.status, then.contentHash ?? undefined, then.json);
    return { type, id, before, after: liveState(cache, lang, type, id) };
  });
}
