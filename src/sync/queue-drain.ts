import type { ItemType, Store, SyncTask } from '../store/index.js';

/**
 * Works through the queued `task` rows of one language × collection, `chunkSize` ids at a
 * time in id order. `handle` processes a chunk and removes the rows it finished; rows it
 * leaves (failures) stay queued for the next pull and are not offered again in this one.
 * Returns how many ids were offered.
 */
export async function drainQueue(
  store: Store,
  lang: string,
  task: SyncTask,
  type: ItemType,
  handle: (ids: readonly number[]) => Promise<void>,
  options: { readonly chunkSize?: number; readonly signal?: AbortSignal | undefined } = {},
): Promise<number> {
  const chunkSize = options.chunkSize ?? 50;
  let after = 0;
  let offered = 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const ids = store.syncQueue.next(lang, task, type, after, chunkSize);
    const last = ids.at(-1);
    if (last === undefined) return offered;
    after = last;
    offered += ids.length;
    await handle(ids);
  }
}
