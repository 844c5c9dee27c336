/**
 * Every "can we skip?" decision of the build, in one place. Two levels:
 *
 * - A language (`runBuild`): skipped before anything of it is read when the cache says nothing
 *   of it changed since its last complete build (`isQuiet`), what every page shows is the same
 *   (`languageUnchanged`), and its folder still holds that build (`outputHoldsBuild`).
 * - A build from a model (`buildFromModel`): skipped before planning when the pull changed
 *   nothing and the theme and files are as the last build left them (`sameThemeAndFiles` and `pullChangedNothing`), or after
 *   planning when the plan digests the same (`modelUnchanged`).
 *
 * The decisions are pure; the two probes of the output folder (`outputHoldsBuild`,
 * `topLevelIntact`) are the only I/O here.
 */
import fs from 'node:fs';
import type { SavedState } from '../store/build-state-repo.js';
import { MANIFEST_VERSION, type ManifestHeader, type RecordedFiles } from './build-manifest.js';
import { readStamp, stampOf } from './output-switch.js';
import { BUILD_VERSION } from './build-version.js';
import type { ChangeSet } from './site-model.js';

/** When the cache last changed for a language (ISO timestamps; undefined: never). */
export interface CacheChanges {
  /** Last write of the language's `items`. */
  readonly itemsAt: string | undefined;
  /** Last write of the language's `transformed`. */
  readonly transformedAt: string | undefined;
}

/**
 * Whether nothing of a language changed since its last complete build: the record is of this
 * version and complete, the transform key is the same, nothing was written to `items` since
 * the build started reading, nor to `transformed` since it ended.
 */
export function isQuiet(
  state: SavedState | undefined,
  transformVersion: string,
  changes: CacheChanges,
): boolean {
  if (
    state === undefined ||
    state.manifestVersion !== MANIFEST_VERSION ||
    state.buildVersion !== BUILD_VERSION ||
    state.sourcesAt === null ||
    state.pathsDigest === null ||
    state.writingSince !== null ||
    state.transformVersion !== transformVersion
  ) {
    return false;
  }
  // Equal times count as a change: the clock may not have moved between a write and a read.
  if (changes.itemsAt !== undefined && changes.itemsAt >= state.sourcesAt) return false;
  // The build's own transform writes before it ends; anything written since is someone else's.
  return changes.transformedAt === undefined || changes.transformedAt < state.builtAt;
}

/**
 * Whether a quiet language's pages would show the same: same site, languages, translations
 * and settings (`siteDigest`), and the same theme.
 */
export function languageUnchanged(
  quiet: boolean,
  state: SavedState | undefined,
  now: { siteDigest: string; templatesHash: string },
): state is SavedState {
  return (
    quiet &&
    state !== undefined &&
    state.siteDigest === now.siteDigest &&
    state.templatesHash === now.templatesHash
  );
}

/**
 * Whether the last build's record may stand for the list of files on disk: it completed, the
 * caller is a run that pulled (a plain `build` lists every file and restores what is gone), and
 * nothing forces a full build. The caller also checks `topLevelIntact`.
 */
export function mayTrustRecord<Manifest extends ManifestHeader>(
  previous: Manifest | undefined,
  state: SavedState | undefined,
  run: { force: boolean; pulled: boolean },
): previous is Manifest {
  return previous !== undefined && !run.force && run.pulled && state?.writingSince === null;
}

/**
 * Whether a folder holds the build described (its stamp): another `--out`, or a build killed
 * between its switch and its record, holds something else.
 */
export function outputHoldsBuild(
  outDir: string,
  build: { buildVersion: string; templatesHash: string; modelDigest: string },
): boolean {
  return readStamp(outDir) === stampOf(build);
}

/**
 * A cheap check that the last build's output is still there: every top-level entry it wrote
 * (`index.html`, `2024`, `pagefind`...) still exists. One directory read instead of listing
 * every file: it notices a deleted or emptied output directory, not a single file deleted by
 * hand deep inside it (`cms-mirror build` lists every file and restores those).
 */
export function topLevelIntact(outDir: string, names: readonly string[]): boolean {
  let present: Set<string>;
  try {
    present = new Set(fs.readdirSync(outDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  return names.every((name) => present.has(name));
}

/**
 * The folder holds `previous` (or nothing is known), with the same theme, and every file of its
 * record (`RecordedFiles`, read a row at a time) is on disk; not walked when the record itself
 * stands for the files on disk.
 */
export function sameThemeAndFiles(
  previous: ManifestHeader | undefined,
  templatesHash: string,
  before: RecordedFiles,
  onDisk: { has(file: string): boolean },
): previous is ManifestHeader {
  if (previous === undefined || previous.templatesHash !== templatesHash) return false;
  if (onDisk === before) return true;
  for (const file of before.keys()) if (!onDisk.has(file)) return false;
  return true;
}

/** The pull says nothing of the language changed (undefined: nobody counted). */
export function pullChangedNothing(changed: ChangeSet | undefined): boolean {
  return changed !== undefined && changed.items === 0 && !changed.site;
}

/** After planning, with nobody's count of changes: the plan digests as the last build's did. */
export function modelUnchanged(previous: ManifestHeader, modelDigest: string): boolean {
  return previous.modelDigest === modelDigest;
}
