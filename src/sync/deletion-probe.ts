/**
 * The deletion probe of one collection stream: the live ids of the cache this pull has not
 * seen are asked of the site by `include` (100 per request) and the absent ones tombstoned.
 * The cache's ids are read `idChunk` at a time and each chunk's tombstones committed with it,
 * so a pull of a million items holds no list of them (it held three copies of every id, with
 * their status and date, in the pull's largest spike).
 */
import type { Query } from '../client/index.js';
import type { ItemType, Store } from '../store/index.js';
import type { ListClient } from './crawl-budget.js';
import { presentIds } from './list-fetch.js';

/** Cached ids read at a time. */
export const ID_CHUNK = 10_000;
/** Ids per `include` probe (at most the stream's `per_page`). */
const PROBE_CHUNK = 100;

export interface DeletionProbe {
  readonly store: Store;
  readonly lang: string;
  readonly type: ItemType;
  readonly lists: ListClient;
  readonly route: string;
  readonly filter: Query;
  readonly perPage: number;
  /** `runs.id` of this pull when it keeps the item history (backup mode). */
  readonly historyRun: number | undefined;
  /** Whether this pull listed `id` (then it is on the site: not probed). */
  readonly seen: (id: number) => boolean;
  /** @default ID_CHUNK */
  readonly idChunk?: number;
}

/** Probes the unseen live ids; returns how many items were tombstoned. */
export async function tombstoneUnseen(probe: DeletionProbe): Promise<number> {
  const { store, lang, type } = probe;
  const chunk = probe.idChunk ?? ID_CHUNK;
  let tombstoned = 0;
  let after = 0; // ids are positive (checked on upsert)
  for (;;) {
    const ids = store.items.liveIdsAfter(lang, type, after, chunk);
    const unseen = ids.filter((id) => !probe.seen(id));
    if (unseen.length > 0) tombstoned += await tombstoneAbsent(probe, unseen);
    const last = ids.at(-1);
    if (last === undefined || ids.length < chunk) return tombstoned;
    after = last;
  }
}

async function tombstoneAbsent(probe: DeletionProbe, unseen: readonly number[]): Promise<number> {
  const { store, lang, type, historyRun } = probe;
  const present = await presentIds(
    probe.lists,
    probe.route,
    probe.filter,
    unseen,
    Math.min(PROBE_CHUNK, probe.perPage),
  );
  const gone = unseen.filter((id) => !present.has(id));
  if (gone.length === 0) return 0;
  return store.transaction(() => {
    const count = store.items.tombstone(lang, type, gone);
    if (historyRun !== undefined) store.itemVersions.recordGone(lang, type, gone, historyRun);
    return count;
  });
}
