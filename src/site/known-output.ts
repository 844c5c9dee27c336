/**
 * What a build knows of its output before it starts: the last build (when the folder holds
 * it), its rows, which files are on disk, and where this build's rows go — a `Map` for a
 * manifest given in memory, the cache's rows for a `StoredRecord`.
 */
import {
  isCurrentManifest,
  manifestFiles,
  type BuildManifest,
  type ManifestFile,
  type ManifestHeader,
} from './build-manifest.js';
import { outputHoldsBuild } from './freshness.js';
import { listOutputFiles } from './output-writer.js';
import type { KnownOutput, RowsTarget } from './staged-writes.js';
import type { StoredRecord } from './stored-manifest.js';

export interface KnownBuild {
  /** The last build, when the folder holds it. */
  previous: ManifestHeader | undefined;
  /** `previous` as a skipped build reports it (the one given, or a header without files). */
  manifest: BuildManifest | undefined;
  known: KnownOutput;
  /** Where this build's rows go. */
  rows: RowsTarget;
  stored: StoredRecord | undefined;
}

export interface KnownOptions {
  outDir: string;
  previous?: BuildManifest | undefined;
  filesOnDisk?: ReadonlySet<string> | undefined;
  stored?: StoredRecord | undefined;
}

/**
 * The previous build, when the folder holds it (its stamp), and the files on disk: listed,
 * unless the caller knows them. Files of a folder no manifest describes are all stale unless
 * made again.
 */
export function knownOutput(options: KnownOptions): KnownBuild {
  if (options.stored !== undefined) return knownStored(options.outDir, options.stored);
  const given = isCurrentManifest(options.previous) ? options.previous : undefined;
  const ours = given !== undefined && outputHoldsBuild(options.outDir, given);
  const previous = ours ? given : undefined;
  const onDisk = (ours ? options.filesOnDisk : undefined) ?? listOutputFiles(options.outDir);
  const before = given !== undefined && !ours ? unknownFiles(onDisk) : manifestFiles(previous);
  return {
    previous,
    manifest: previous,
    known: { before, onDisk },
    rows: { files: new Map<string, ManifestFile>(), listWritten: true },
    stored: undefined,
  };
}

/** As `knownOutput`, with the rows in the cache: a trusted record stands for the disk. */
function knownStored(outDir: string, stored: StoredRecord): KnownBuild {
  const given = stored.previous;
  const ours = given !== undefined && outputHoldsBuild(outDir, given);
  const previous = ours ? given : undefined;
  const common = {
    previous,
    manifest: previous && { ...previous, files: {} },
    rows: { files: stored.made, listWritten: false },
    stored,
  };
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
