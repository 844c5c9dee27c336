/**
 * What a build knows of its output before it starts: the last build (when the folder holds
 * it), its rows, which files are on disk, and where this build's rows go — all in the cache
 * (`StoredRecord`, `stored-manifest.ts`), so that no manifest is held in memory (issue 17).
 */
import type { ManifestFile, ManifestHeader } from './build-manifest.js';
import { outputHoldsBuild } from './freshness.js';
import { listOutputFiles } from './output-writer.js';
import type { KnownOutput, RowsTarget } from './staged-writes.js';
import type { StoredRecord } from './stored-manifest.js';

export interface KnownBuild {
  /** The last build, when the folder holds it. */
  previous: ManifestHeader | undefined;
  known: KnownOutput;
  /** Where this build's rows go. */
  rows: RowsTarget;
  stored: StoredRecord;
}

/**
 * The previous build, when the folder holds it (its stamp), and the files on disk: a trusted
 * record stands for the disk, else they are listed. Files of a folder no record describes are
 * all stale unless made again.
 */
export function knownOutput(outDir: string, stored: StoredRecord): KnownBuild {
  const given = stored.previous;
  const ours = given !== undefined && outputHoldsBuild(outDir, given);
  const previous = ours ? given : undefined;
  const common = { previous, rows: { files: stored.made, listWritten: false }, stored };
  if (ours && stored.trusted) {
    return { ...common, known: { before: stored.before, onDisk: stored.before } };
  }
  const onDisk = listOutputFiles(outDir);
  const before = ours
    ? stored.before
    : given !== undefined
      ? unknownFiles(onDisk)
      : new Map<string, ManifestFile>();
  return { ...common, known: { before, onDisk } };
}

/** Every file of a folder no manifest describes, as a previous output nothing is known of. */
function unknownFiles(onDisk: ReadonlySet<string>): Map<string, ManifestFile> {
  return new Map([...onDisk].map((file) => [file, { hash: '', input: '', bytes: 0 }]));
}
