import type { ItemType, Store, SyncTask } from '../store/index.js';
import type { PullEvent } from './pull-summary.js';

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

/** What a drain that reports its progress needs: the queue's owner and where events go. */
export interface ReportingDrain {
  readonly store: Store;
  readonly lang: string;
  readonly type: ItemType;
  readonly emit: (event: PullEvent) => void;
  readonly signal?: AbortSignal | undefined;
}

/**
 * `drainQueue` of the `task` rows of `deps.lang` × `deps.type` that emits a progress event
 * (phase `task`, ids offered so far) before the first chunk and after each.
 */
export async function drainQueueReporting(
  deps: ReportingDrain,
  task: 'assets' | 'revisions',
  handle: (ids: readonly number[]) => Promise<void>,
  chunkSize: number,
): Promise<void> {
  const { lang, type } = deps;
  let done = 0;
  const progress = (): void =>
    deps.emit({ type: 'progress', lang, collection: type, phase: task, done, total: undefined });
  progress();
  await drainQueue(
    deps.store,
    lang,
    task,
    type,
    async (ids) => {
      await handle(ids);
      done += ids.length;
      progress();
    },
    { chunkSize, signal: deps.signal },
  );
}
