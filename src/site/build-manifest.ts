/**
 * What the last build of one language wrote: per file the sha256 of its bytes and the digest
 * of what it was made from. The next build renders only outputs whose input digest changed
 * (or whose file went missing), writes only files whose bytes changed, and deletes the files
 * it no longer produces. A plain JSON value, so the caller decides where it lives (a file next
 * to the output, or the cache).
 */
import fs from 'node:fs';
import path from 'node:path';
import { InputError } from '../errors.js';
import { BUILD_VERSION } from './site-plan.js';

export const MANIFEST_VERSION = 1;

export interface ManifestFile {
  /** sha256 (hex) of the bytes written. */
  hash: string;
  /** Digest of what the file was made from. */
  input: string;
  bytes: number;
}

export interface BuildManifest {
  version: typeof MANIFEST_VERSION;
  /** `BUILD_VERSION` of the code that wrote it; another version re-renders everything. */
  buildVersion: string;
  templatesHash: string;
  /** Everything the output depended on, in one digest. */
  modelDigest: string;
  /** By file relative to the language root, forward slashes. */
  files: Record<string, ManifestFile>;
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

/**
 * The manifest saved at `file`, or undefined when there is none or it was written by another
 * version (the next build is then a full one).
 *
 * @throws {InputError} `E_INPUT` when the file exists but is not JSON.
 */
export function readManifestFile(file: string): BuildManifest | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new InputError(file, `The build manifest ${file} cannot be read.`, { cause: error });
  }
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw new InputError(
      file,
      `The build manifest ${file} is not JSON; delete it to rebuild everything.`,
      {
        cause: error,
      },
    );
  }
  return isCurrentManifest(value) ? value : undefined;
}

/** Saves a manifest through a temporary file, so a crash never leaves half of one. */
export function writeManifestFile(file: string, manifest: BuildManifest): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, JSON.stringify(manifest));
  fs.renameSync(temporary, file);
}
