/**
 * What the last build of one language wrote: per file the sha256 of its bytes and the digest
 * of what it was made from. The next build renders only outputs whose input digest changed
 * (or whose file went missing), writes only files whose bytes changed, and deletes the files
 * it no longer produces. The cache keeps it (`build_state`, `build_outputs`); a build reads and
 * stages its rows there (`stored-manifest.ts`).
 */
export const MANIFEST_VERSION = 1;

export interface ManifestFile {
  /** sha256 (hex) of the bytes written. */
  hash: string;
  /** Digest of what the file was made from. */
  input: string;
  bytes: number;
}

/** What a manifest says besides its files. */
export interface ManifestHeader {
  version: typeof MANIFEST_VERSION;
  /** `BUILD_VERSION` of the code that wrote it; another version re-renders everything. */
  buildVersion: string;
  templatesHash: string;
  /** Everything the output depended on, in one digest. */
  modelDigest: string;
}

export interface BuildManifest extends ManifestHeader {
  /** By file relative to the language root, forward slashes. */
  files: Record<string, ManifestFile>;
}

/**
 * Where a build puts the rows of the files it makes, as it makes them: the cache's staged rows
 * (`stored-manifest.ts`), which keep a large site's manifest out of memory, or the `Map` of an
 * edit build (a few pages: `edit-build.ts`).
 */
export interface ManifestRows extends Iterable<[string, ManifestFile]> {
  get(file: string): ManifestFile | undefined;
  has(file: string): boolean;
  /** `written`: the file's bytes were staged (else the file on disk is kept as it is). */
  set(file: string, row: ManifestFile, written: boolean): unknown;
  /**
   * True when `set` itself refuses a file set twice (at the latest when its rows are written:
   * before a build can commit), so that a caller need not look every file up first. @default false
   */
  readonly refusesTwice?: boolean;
}

/** Refuses a file the build's rows hold already, unless setting it again is refused anyway. */
export function refuseProducedTwice(rows: ManifestRows, file: string): void {
  if (rows.refusesTwice !== true && rows.has(file))
    throw new Error(`Internal error: ${file} is produced twice.`);
}

/**
 * The last build's rows as a build reads them: one at a time, or all in path order. The cache's
 * rows read a lookup (or a page of rows) at a time (`stored-manifest.ts`), or a `Map` (an edit
 * build's few rows, or the files of a folder no record describes).
 */
export interface RecordedFiles extends Iterable<[string, ManifestFile]> {
  get(file: string): ManifestFile | undefined;
  has(file: string): boolean;
  keys(): Iterable<string>;
  readonly size: number;
}
