/**
 * A build's search index as it streams: the stale bundles indexed while the pages render, each
 * staged as soon as it is built and recorded in the build's rows.
 */
import { performance } from 'node:perf_hooks';
import type { ManifestRows } from './build-manifest.js';
import type { BuildRun } from './build-site.js';
import type { SearchBundles } from './build-workers.js';
import type { WriteResult } from './output-writer.js';
import { secondsSince } from './phase-time.js';
import { bundleStageOf, filesByBundle, staleShards, type BundleFiles } from './search-outputs.js';
import type { SearchPlan } from './search-plan.js';
import { recordStagedBundle, type RowsTarget } from './staged-writes.js';

/** The search index of a build, its bundles staged one by one as Pagefind returns them. */
export interface StreamedSearch {
  searchFiles: Promise<SearchBundles>;
  bundleFiles: BundleFiles;
  /** The bundles staged as they came, and what staging each of them did. */
  streamed: { indexes: Set<number>; results: WriteResult<ManifestRows>[] };
  /** Stages nothing more (the build failed). */
  stop(): void;
}

/**
 * Starts indexing the stale bundles; each is staged as soon as it is built, by the thread that
 * built it (`bundle-staging.ts`), so that no bundle's files wait in memory for the pages or the
 * other bundles, and this thread only records what was staged.
 */
export function indexAndStage(
  run: Pick<BuildRun, 'workers' | 'known' | 'staging' | 'phases'> & { rows: RowsTarget },
  search: SearchPlan,
): StreamedSearch {
  const { known, staging, rows } = run;
  const bundleFiles = filesByBundle(known.before);
  const streamed = { indexes: new Set<number>(), results: [] as WriteResult<ManifestRows>[] };
  let stopped = false;
  const dirs = new Map(search.shards.map((shard) => [shard.index, shard]));
  const searchStarted = performance.now();
  const stageOf = bundleStageOf(staging, bundleFiles, known.onDisk);
  const searchFiles = run.workers
    .stageShards(staleShards(search, bundleFiles, known), search.lang, stageOf, (index, files) => {
      const shard = dirs.get(index);
      if (stopped || shard === undefined) return;
      streamed.results.push(recordStagedBundle({ staging, ...rows }, files, shard.digest));
      streamed.indexes.add(index);
    })
    .then((): SearchBundles => {
      run.phases.search = secondsSince(searchStarted);
      // Every bundle was staged as it came: none has files left to stage.
      return new Map();
    });
  // Keep a rejection from going unhandled while the rest is awaited.
  searchFiles.catch(() => undefined);
  return { searchFiles, bundleFiles, streamed, stop: () => (stopped = true) };
}
