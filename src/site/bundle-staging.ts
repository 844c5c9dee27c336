/**
 * Stages a search bundle's files from the thread that built it, as the render thread stages its
 * pages (`page-staging.ts`): each file is hashed and, unless the last build's file on disk has
 * the same bytes, written into the build's staging directory. Only each file's hash and size
 * go back to the build's thread: it no longer receives every file's bytes (a copy across
 * threads) to write them itself, which was ~10,000 files and a tenth of its time at 10,000
 * posts.
 */
import type { StagedPage } from './page-staging.js';
import { stageBytes } from './staged-file.js';

/** Where a bundle's files go: plain values, sent to a search worker with its bundle. */
export interface BundleStage {
  /** The language root, against which every file is checked. */
  root: string;
  /** The build's staging directory (`Staging.dir`). */
  dir: string;
  /** The hash of each of the bundle's files the last build left on disk, by file. */
  previous: ReadonlyMap<string, string>;
}

/** What staging a bundle did, by file (relative to the root). */
export type StagedBundle = Map<string, StagedPage>;

export function stageBundle(
  files: ReadonlyMap<string, Uint8Array>,
  stage: BundleStage,
): StagedBundle {
  const made = new Set<string>();
  const staged: StagedBundle = new Map();
  for (const [file, bytes] of files) {
    staged.set(file, stageBytes(stage, file, bytes, stage.previous.get(file), made));
  }
  return staged;
}
