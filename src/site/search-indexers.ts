/**
 * Where a build's search bundles are indexed: by a Pagefind process this thread drives, or by
 * the search worker thread. An edit build indexes one bundle or two; a worker thread's start
 * alone (Node compiling its internal modules again for the thread) cost more CPU than this
 * thread spends sending one bundle's ~620 records and reading its files back, and on 2 cores
 * every thread competes with the render worker and Pagefind. So an edit's bundles are indexed
 * from this thread, by a Pagefind process started when an edit build is expected
 * (`startPagefind`: the pull changed few items, so its start overlaps the transform and the
 * plan) or by the first bundle. A full build indexes every bundle while this thread writes
 * files: its signal (`startWorker`: the render worker's warm-up, sent for a full build, or its
 * first staged bundles) starts the search worker, and this thread starts no Pagefind process
 * (one already started stops once it has no bundle left), so that one process at a time holds
 * an index's memory.
 */
import type { WorkerCalls } from '../worker-calls.js';
import type { StagedBundle, BundleStage } from './bundle-staging.js';
import { startPagefind, type PagefindService } from './pagefind-service.js';
import { buildSearchShard, type ShardRequest } from './search-index.js';
import { plainShard } from './search-docs.js';
import type { SearchShard } from './search-plan.js';

/** The search worker's answer: a bundle's files, or what staging them did. */
export type SearchWorkerAnswer = Map<string, Uint8Array> | StagedBundle;

/** Starts the search worker thread. */
export type StartSearchWorker = () => WorkerCalls<ShardRequest, SearchWorkerAnswer>;

/** Indexes a bundle; the lanes of `drain` in `build-workers.ts`. */
export type IndexBundle = (shard: SearchShard) => Promise<Map<string, Uint8Array>>;

export interface SearchIndexers {
  /** Indexes a bundle on this thread, or in the worker once it is started. */
  indexer(lang: string): IndexBundle;
  /** Indexes a bundle and stages its files in the worker (started now if not yet). */
  stager(
    lang: string,
    stageOf: (shard: SearchShard) => BundleStage,
  ): (shard: SearchShard) => Promise<StagedBundle>;
  /** A full build is coming: starts the worker now; this thread's process stops when idle. */
  startWorker(): void;
  /** An edit build is coming: starts this thread's Pagefind process now, unless the worker is. */
  startPagefind(): void;
  /** Stops this thread's Pagefind process and the worker, whichever are running. */
  close(): Promise<void>;
}

export function searchIndexers(startSearchWorker: StartSearchWorker): SearchIndexers {
  let here: PagefindService | undefined;
  // A failure to start is reported by the first bundle asked for, as the build's own error.
  let failure: unknown;
  let pagefindStarted = false;
  /** Bundles this thread's process is indexing: it stops once they are done. */
  const busy = new Set<Promise<unknown>>();
  let stopped: Promise<void> | undefined;
  let worker: WorkerCalls<ShardRequest, SearchWorkerAnswer> | undefined;

  const hereStarted = (): PagefindService | undefined => {
    if (!pagefindStarted && worker === undefined) {
      pagefindStarted = true;
      ({ pagefind: here, failure } = startPagefind());
    }
    return here;
  };

  const startWorker = (): WorkerCalls<ShardRequest, SearchWorkerAnswer> => {
    if (worker !== undefined) return worker;
    worker = startSearchWorker();
    const last = here;
    here = undefined;
    stopped = Promise.allSettled([...busy]).then(() => last?.close());
    return worker;
  };

  const indexHere = (shard: SearchShard, lang: string): Promise<Map<string, Uint8Array>> => {
    const pagefind = hereStarted();
    if (pagefind === undefined) return Promise.reject(failure);
    const files = buildSearchShard(shard, lang, pagefind);
    busy.add(files);
    const done = (): boolean => busy.delete(files);
    files.then(done, done);
    return files;
  };

  return {
    indexer: (lang) => (shard) =>
      worker === undefined
        ? indexHere(shard, lang)
        : (startWorker().call({ shard: plainShard(shard), lang }) as Promise<
            Map<string, Uint8Array>
          >),
    stager: (lang, stageOf) => (shard) =>
      startWorker().call({
        shard: plainShard(shard),
        lang,
        stage: stageOf(shard),
      }) as Promise<StagedBundle>,
    startWorker: () => void startWorker(),
    startPagefind: () => void hereStarted(),
    async close() {
      const last = here;
      here = undefined;
      await Promise.all([stopped, last?.close(), worker?.close()]);
    },
  };
}
