/**
 * Where a build renders its pages and indexes them for search: on the calling thread, or in
 * worker threads. `runBuild` starts workers before it reads the cache: the render worker loads
 * Eleventy while this thread transforms and plans; a full build's search worker drives a
 * Pagefind process of its own, so that indexing (the longest part of a full build) uses both
 * cores while this thread writes files, and an edit's bundle is indexed by a Pagefind process
 * this thread drives (`search-indexers.ts`).
 */
import os from 'node:os';
import path from 'node:path';
import {
  renderAndStage,
  type RenderWorkerRequest,
  type StagedRenderInput,
  type StagedRenderResult,
} from './page-staging.js';
import type { RenderTarget } from './eleventy-run.js';
import { startWorkerCalls, type WorkerCalls } from '../worker-calls.js';
import { oneAtATime } from './one-at-a-time.js';
import { buildSearchShard, type ShardRequest } from './search-index.js';
import { stageBundle, type BundleStage, type StagedBundle } from './bundle-staging.js';
import type { CompileStore } from './stored-compiles.js';
import { PagefindService } from './pagefind-service.js';
import { searchIndexers, type SearchWorkerAnswer } from './search-indexers.js';
import type { SearchShard } from './search-plan.js';
import {
  limitHeapGrowth,
  RENDER_YOUNG_GENERATION_MB,
  SEARCH_YOUNG_GENERATION_MB,
} from './heap-growth.js';

/**
 * The files of each rebuilt search bundle, by shard index (none for a bundle handed to the
 * caller's `onBundle` as it was built).
 */
export type SearchBundles = Map<number, Map<string, Uint8Array>>;

/** Takes a bundle's files as soon as it is built, so that no bundle waits for the others. */
export type OnBundle = (index: number, files: Map<string, Uint8Array>) => void;

export interface BuildWorkers {
  /** Renders a chunk of pages and stages them (`page-staging.ts`). */
  render(input: StagedRenderInput): Promise<StagedRenderResult>;
  indexShards(
    shards: readonly SearchShard[],
    lang: string,
    onBundle?: OnBundle,
  ): Promise<SearchBundles>;
  /**
   * Indexes the bundles as `indexShards` does, but the thread that built each bundle stages its
   * files where `stageOf` says (`bundle-staging.ts`); `onStaged` gets what staging did.
   */
  stageShards(
    shards: readonly SearchShard[],
    lang: string,
    stageOf: (shard: SearchShard) => BundleStage,
    onStaged: (index: number, staged: StagedBundle) => void,
  ): Promise<void>;
  /**
   * Has the renderer run the theme once with no pages while this thread reads the cache: the
   * first Eleventy run of a thread costs ~0.15 s more than later ones (code loaded and
   * optimised on first use), which a full plan's first chunk would otherwise wait for. An
   * edit build's pages would wait for the warm-up instead: `runBuild` sends none before one.
   */
  warmUp(templatesDir: string): void;
  /**
   * An edit build is likely (the pull changed a few items): the Pagefind process that indexes
   * its bundle from this thread starts now, so that its start overlaps the transform and the
   * plan. A full build, which indexes in the search worker, starts none on this thread.
   */
  expectEdits(): void;
  /**
   * Has the renderer start its next Eleventy run for `target` now, so that the edit build's
   * render request, a few hundred ms later, only gives it its pages (`JobRenderer.prepare`).
   */
  prepare(target: RenderTarget): void;
  /**
   * Has the renderer take the theme's code compiled by earlier runs from `compiles` with its
   * next request (the warm-up or the first render), and keep there what it compiles from then
   * on, so that a run after an edit compiles none of a theme that did not change.
   */
  useCompiles(compiles: CompileStore): void;
  /**
   * No page is rendered after this: the render worker stops now, while the build waits for
   * Pagefind and commits (`close` waits for it). Its teardown (~30–60 ms of the thread's heap
   * freed) was on the run's last steps, after the switch.
   */
  rendersDone(): void;
  /** No bundle is indexed after this: the search worker and Pagefind stop now, as above. */
  indexingDone(): void;
  /** Stops the workers, if any; calls still pending are rejected. */
  close(): Promise<void>;
}

/**
 * Bundles indexed at once by one Pagefind process: it answers two callers in about 0.65 of
 * the time it takes for one after the other on two cores; more at once was slower there.
 */
const BUNDLES_PER_PROCESS = 2;

/**
 * Everything on this thread, one Pagefind process started by the first bundle and kept for the
 * process's life, as Pagefind's own Node API keeps its one (Eleventy stays loaded too).
 */
export const inProcessWorkers: BuildWorkers = inThisThread();

function inThisThread(): BuildWorkers {
  let started: PagefindService | undefined;
  const pagefind = (): PagefindService => (started ??= new PagefindService());
  return {
    render: oneAtATime(renderAndStage),
    indexShards: (shards, lang, onBundle) =>
      drain(
        shards,
        Array.from(
          { length: BUNDLES_PER_PROCESS },
          () => (shard: SearchShard) => buildSearchShard(shard, lang, pagefind()),
        ),
        onBundle,
      ),
    stageShards: async (shards, lang, stageOf, onStaged) => {
      const lane = async (shard: SearchShard): Promise<StagedBundle> =>
        stageBundle(await buildSearchShard(shard, lang, pagefind()), stageOf(shard));
      await drain(
        shards,
        Array.from({ length: BUNDLES_PER_PROCESS }, () => lane),
        onStaged,
      );
    },
    // On this thread a warm-up would only delay what this thread does next, and a prepared
    // run would wait for its pages on the thread that plans them.
    warmUp: () => undefined,
    prepare: () => undefined,
    // Pagefind's process here starts with the first bundle and lives as long as this process
    // (nothing runs beside this thread for an edit's early start to overlap, nor to let go).
    expectEdits: () => undefined,
    rendersDone: () => undefined,
    indexingDone: () => undefined,
    // `renderAndStage` here renders with a fresh Eleventy run that keeps no compiled code.
    useCompiles: () => undefined,
    close: () => Promise.resolve(),
  };
}

/**
 * Starts the render worker now; a Pagefind process on this thread is started by an expected
 * edit build (`expectEdits`) or its first bundle, the search worker by a full build's first
 * signal (`search-indexers.ts`). One search worker, and so one Pagefind
 * process, indexes `BUNDLES_PER_PROCESS` bundles at once. A second process (one a core) would
 * index up to ~1.3x as fast (two bundles at once take one process ~0.65 of the time of one
 * after the other), but each holds ~35 MB before its first document and grows with its
 * bundles: at 100,000 posts the second was most of what the build's process tree held past
 * 400 MB at its peak, beside the render (issue 17). Since Pagefind's zeroed allocations were
 * cut (`pagefind-env.ts`), one process kept up with the render in a 100,000-post build.
 */
export function startBuildWorkers(): BuildWorkers {
  // Before the threads start and this thread reads the cache: the build's peak is mostly heap.
  limitHeapGrowth();
  const renderer = startWorkerCalls<RenderWorkerRequest, StagedRenderResult | null>(
    // `../site/`: the same file from the bundled CLI (`dist/cli/`, scripts/bundle-cli.mjs).
    new URL('../site/render-worker.js', import.meta.url),
    { resourceLimits: { maxYoungGenerationSizeMb: RENDER_YOUNG_GENERATION_MB } },
  );
  const search = searchIndexers(startSearchWorker);
  let rendererStopped: Promise<void> | undefined;
  let searchStopped: Promise<void> | undefined;
  let compiles: CompileStore | undefined;
  let unsent = false;
  const render = async (input: StagedRenderInput): Promise<StagedRenderResult> => {
    const stored = unsent ? compiles?.read() : undefined;
    unsent = false;
    const result = await renderer.call(
      stored === undefined ? input : { ...input, compiled: stored },
    );
    if (result === null) throw new Error('Internal error: the render worker answered no pages.');
    if (result.compiled !== undefined && result.compiled.size > 0) compiles?.keep(result.compiled);
    return result;
  };
  return {
    render,
    warmUp(templatesDir) {
      // Sent only for a full build: its bundles are indexed in the search worker.
      search.startWorker();
      // Whatever fails here fails again, reported, in the build's own render.
      render(warmUpInput(templatesDir)).catch(() => undefined);
    },
    expectEdits() {
      search.startPagefind();
    },
    prepare(target) {
      // Whatever fails here fails again, reported, in the build's own render.
      renderer.call({ prepare: target }).catch(() => undefined);
    },
    useCompiles(store) {
      compiles = store;
      unsent = true;
    },
    indexShards(shards, lang, onBundle) {
      const lanes = Array.from({ length: BUNDLES_PER_PROCESS }, () => search.indexer(lang));
      return drain(shards, lanes, onBundle);
    },
    async stageShards(shards, lang, stageOf, onStaged) {
      const lane = search.stager(lang, stageOf);
      await drain(
        shards,
        Array.from({ length: BUNDLES_PER_PROCESS }, () => lane),
        onStaged,
      );
    },
    rendersDone() {
      rendererStopped ??= renderer.close();
      // Awaited by `close`.
      rendererStopped.catch(() => undefined);
    },
    indexingDone() {
      searchStopped ??= search.close();
      searchStopped.catch(() => undefined);
    },
    async close() {
      await Promise.all([rendererStopped ?? renderer.close(), searchStopped ?? search.close()]);
    },
  };
}

/**
 * The search worker. Graceful: it stops its Pagefind process before it ends. It answers with a
 * bundle's files, or with what staging them did when the request says where to stage them
 * (`ShardRequest.stage`).
 */
function startSearchWorker(): WorkerCalls<ShardRequest, SearchWorkerAnswer> {
  return startWorkerCalls<ShardRequest, SearchWorkerAnswer>(
    new URL('../site/search-worker.js', import.meta.url),
    {
      graceful: true,
      resourceLimits: { maxYoungGenerationSizeMb: SEARCH_YOUNG_GENERATION_MB },
    },
  );
}

/** Workers shared by the builds of one session; see `keptBuildWorkers`. */
export interface KeptBuildWorkers {
  /**
   * The session's workers for one more build; closing what it gets does not stop them. The
   * session's last build (`last`: a `run`'s only one) stops each worker once it is done with
   * it (`rendersDone`, `indexingDone`); another build leaves them for the next.
   * @default not last
   */
  take(options?: { last?: boolean }): BuildWorkers;
  /** Starts the workers now, so that the first build does not wait for them. */
  warm(): void;
  /** Stops the workers (at the end of the session). */
  close(): Promise<void>;
}

/**
 * Workers kept across the builds of a session (`watch`), so that a saved edit renders without
 * waiting for Eleventy's import and Pagefind's start again. Started on first use, and replaced
 * by fresh ones every `buildsPerSet` builds, so that whatever Eleventy keeps between runs of
 * one process cannot grow for the whole session. Builds take them one after the other.
 */
export function keptBuildWorkers(buildsPerSet = 50): KeptBuildWorkers {
  let current: { workers: BuildWorkers; builds: number } | undefined;
  const retired: Promise<void>[] = [];
  return {
    warm() {
      current ??= { workers: startBuildWorkers(), builds: 0 };
    },
    take(options) {
      if (current && current.builds >= buildsPerSet) {
        retired.push(current.workers.close());
        current = undefined;
      }
      current ??= { workers: startBuildWorkers(), builds: 0 };
      current.builds++;
      const { workers, builds } = current;
      return {
        ...workers,
        // Warm after its first build.
        warmUp: builds === 1 ? workers.warmUp : () => undefined,
        rendersDone: () => (options?.last === true ? workers.rendersDone() : undefined),
        indexingDone: () => (options?.last === true ? workers.indexingDone() : undefined),
        close: () => Promise.resolve(),
      };
    },
    async close() {
      const last = current?.workers.close();
      current = undefined;
      await Promise.all([...retired, last]);
    },
  };
}

/** A render of the theme with no pages; its output is not used. */
function warmUpInput(templatesDir: string): StagedRenderInput {
  const outDir = path.join(os.tmpdir(), 'cms-mirror-warm-up');
  return {
    templatesDir,
    global: {
      lang: 'en',
      locale: 'en',
      site: { name: '', description: '', publicUrl: 'http://127.0.0.1/' },
    },
    jobs: [],
    outDir,
    // No jobs: nothing is staged.
    stage: { root: outDir, dir: outDir, files: [], previous: [] },
  };
}

type Lane<T> = (shard: SearchShard) => Promise<T>;

/** Each lane takes the next bundle as soon as it is done with one. */
async function drain<T>(
  shards: readonly SearchShard[],
  lanes: readonly Lane<T>[],
  onBundle?: (index: number, built: T) => void,
): Promise<Map<number, T>> {
  const queue = [...shards];
  const built = new Map<number, T>();
  await Promise.all(
    lanes.map(async (lane) => {
      for (let shard = queue.shift(); shard; shard = queue.shift()) {
        const files = await lane(shard);
        if (onBundle === undefined) built.set(shard.index, files);
        else onBundle(shard.index, files);
      }
    }),
  );
  return built;
}
