/**
 * The search index in a build: which bundles are stale (re-indexed by Pagefind while the pages
 * render), and the files the build writes for each bundle once indexing is done.
 */
import type { ManifestFile, RecordedFiles } from './build-manifest.js';
import type { SearchBundles } from './build-workers.js';
import type { OutputSpec } from './output-writer.js';
import { SEARCH_DIR, type SearchPlan, type SearchShard } from './search-plan.js';
import type { KnownOutput } from './staged-writes.js';
import type { BundleStage } from './bundle-staging.js';
import type { Staging } from './output-switch.js';

/** The previous build's search files of a bundle, by its directory (`pagefind/s0`). */
export interface BundleFiles {
  get(dir: string): readonly [string, ManifestFile][] | undefined;
}

/**
 * The previous build's search files by bundle directory (`pagefind/s0`): looked up bundle by
 * bundle when the rows are the cache's (`RecordedRows.under`), else grouped once.
 */
export function filesByBundle(
  before: RecordedFiles & { under?: (dir: string) => [string, ManifestFile][] },
): BundleFiles {
  const { under } = before;
  if (under !== undefined) return { get: (dir) => under.call(before, `${dir}/`) };
  const bundles = new Map<string, [string, ManifestFile][]>();
  const prefix = `${SEARCH_DIR}/`;
  for (const [file, entry] of before) {
    if (!file.startsWith(prefix)) continue;
    const slash = file.indexOf('/', prefix.length);
    if (slash < 0) continue;
    const dir = file.slice(0, slash);
    const files = bundles.get(dir) ?? [];
    files.push([file, entry]);
    bundles.set(dir, files);
  }
  return bundles;
}

/**
 * Where a search worker stages each bundle (`bundle-staging.ts`), with the hash of each of the
 * bundle's last files still on disk: a file built again with the same bytes is not staged.
 */
export function bundleStageOf(
  staging: Pick<Staging, 'root' | 'dir'>,
  bundleFiles: BundleFiles,
  onDisk: KnownOutput['onDisk'],
): (shard: SearchShard) => BundleStage {
  return (shard) => {
    const previous = new Map<string, string>();
    for (const [file, entry] of bundleFiles.get(shard.dir) ?? [])
      if (onDisk.has(file)) previous.set(file, entry.hash);
    return { root: staging.root, dir: staging.dir, previous };
  };
}

/** Bundles whose documents changed, or whose files are not all on disk. */
export function staleShards(
  search: SearchPlan,
  bundleFiles: BundleFiles,
  known: KnownOutput,
): SearchShard[] {
  return search.shards.filter(
    (shard) => !shardIsCurrent(shard, bundleFiles.get(shard.dir) ?? [], known.onDisk),
  );
}

function shardIsCurrent(
  shard: SearchShard,
  files: readonly [string, ManifestFile][],
  onDisk: KnownOutput['onDisk'],
): boolean {
  if (files.length === 0) return false;
  return files.every(([file, entry]) => entry.input === shard.digest && onDisk.has(file));
}

/** Every bundle's files: those indexed again with their bytes, the others kept. */
export function searchOutputs(
  search: SearchPlan,
  rebuilt: SearchBundles,
  bundleFiles: BundleFiles,
): OutputSpec[] {
  const outputs: OutputSpec[] = [];
  for (const shard of search.shards) {
    const files = rebuilt.get(shard.index);
    if (files) {
      for (const [file, content] of files) outputs.push({ file, input: shard.digest, content });
    } else {
      for (const [file] of bundleFiles.get(shard.dir) ?? [])
        outputs.push({ file, input: shard.digest });
    }
  }
  return outputs;
}
