/**
 * What the last build of one language wrote: per file the sha256 of its bytes and the digest
 * of what it was made from. The next build renders only outputs whose input digest changed
 * (or whose file went missing), writes only files whose bytes changed, and deletes the files
 * it no longer produces. A plain JSON value; the cache keeps it (`build_state`, `build_outputs`).
 */
import { BUILD_VERSION } from './site-plan.js';

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
 * Where a build puts the rows of the files it makes, as it makes them: a `Map`, or the cache's
 * staged rows (`stored-manifest.ts`), which keep a large site's manifest out of memory.
 */
export interface ManifestRows extends Iterable<[string, ManifestFile]> {
  get(file: string): ManifestFile | undefined;
  has(file: string): boolean;
  /** `written`: the file's bytes were staged (else the file on disk is kept as it is). */
  set(file: string, row: ManifestFile, written: boolean): unknown;
}

/**
 * The last build's rows as a build reads them: one at a time, or all in path order. A `Map`,
 * or the cache's rows read a lookup (or a page of rows) at a time (`stored-manifest.ts`).
 */
export interface RecordedFiles extends Iterable<[string, ManifestFile]> {
  get(file: string): ManifestFile | undefined;
  has(file: string): boolean;
  keys(): Iterable<string>;
  readonly size: number;
}

/** The files of a manifest already checked with `isCurrentManifest`, or none. */
export function manifestFiles(manifest: BuildManifest | undefined): Map<string, ManifestFile> {
  return manifest === undefined ? new Map() : new Map(Object.entries(manifest.files));
}

/** A manifest this build can trust: right shape, same manifest and build version. */
export function isCurrentManifest(value: unknown): value is BuildManifest {
  if (typeof value !== 'object' || value === null) return false;
  const manifest = value as Partial<BuildManifest>;
  return (
    manifest.version === MANIFEST_VERSION &&
    manifest.buildVersion === BUILD_VERSION &&
    typeof manifest.templatesHash === 'string' &&
    typeof manifest.modelDigest === 'string' &&
    typeof manifest.files === 'object' &&
    manifest.files !== null &&
    Object.values(manifest.files).every(
      (file) => typeof file?.hash === 'string' && typeof file.input === 'string',
    )
  );
}
