/**
 * Decides which of a build's files changed and stages those (see `output-switch.ts`), touching
 * nothing whose bytes are the same; lists the previous build's files it no longer makes, for
 * the switch to delete. Every path goes through `safeRelativeFile`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UnsafePathError } from '../errors.js';
import {
  refuseProducedTwice,
  type ManifestFile,
  type ManifestRows,
  type RecordedFiles,
} from './build-manifest.js';
import { sha256 } from './digest.js';
import type { Staging } from './output-switch.js';
import { safeRelativeFile } from './safe-output-path.js';

export type OutputContent = string | Uint8Array;

export interface OutputSpec {
  /** Relative to the root, forward slashes. */
  file: string;
  /** Digest of what the file is made from (recorded for the next build). */
  input: string;
  /**
   * The bytes, or a function giving them; undefined means the file on disk is current
   * (its input digest did not change) and is kept as it is.
   */
  content?: OutputContent | (() => OutputContent);
}

/** What staging some outputs did; `Rows` is where their rows went (`WriteOptions.files`). */
export interface WriteResult<Rows extends ManifestRows = Map<string, ManifestFile>> {
  written: number;
  unchanged: number;
  removed: number;
  /** Files written, relative to the root (for reports and tests; see `listWritten`). */
  writtenFiles: string[];
  removedFiles: string[];
  /** The manifest entries of every output (`WriteOptions.files`, else a `Map` of its own). */
  files: Rows;
}

/** Which files are on disk: a listed set, or the last build's record when it can be trusted. */
export interface FilesOnDisk {
  has(file: string): boolean;
}

/** The temporary file of a replacing write by versions before staging (`{target}.{pid}.tmp`). */
const LEFTOVER_TEMPORARY = /\.\d+\.tmp$/;

/**
 * Every file under `root`, relative with forward slashes; empty when `root` does not exist.
 * Temporary files that a killed build of an earlier version left are removed, not listed:
 * no later build would otherwise ever take them away.
 */
export function listOutputFiles(root: string): Set<string> {
  const files = new Set<string>();
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(root, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return files;
    throw error;
  }
  const base = path.resolve(root);
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const parent =
      (entry as fs.Dirent & { parentPath?: string; path?: string }).parentPath ?? entry.path;
    if (LEFTOVER_TEMPORARY.test(entry.name)) {
      fs.rmSync(path.join(parent, entry.name), { force: true });
      continue;
    }
    files.add(path.relative(base, path.join(parent, entry.name)).split(path.sep).join('/'));
  }
  return files;
}

export interface WriteOptions<Rows extends ManifestRows = Map<string, ManifestFile>> {
  /** List the previous build's files that are not produced, in `removedFiles`. @default true */
  removeStale?: boolean;
  /** Files an earlier call of the same build produced: not stale, and not produced twice. */
  alsoProduced?: { has(file: string): boolean };
  /**
   * Where the rows of the outputs go; several calls of one build may share it (the cache's
   * staged rows keep a large site's manifest out of memory). @default a new `Map`
   */
  files?: Rows;
  /** List the written files in `writtenFiles` (a large build does not). @default true */
  listWritten?: boolean;
}

/**
 * Stages the outputs of `outputs` whose bytes changed. A build may call it more than once
 * (pages first, then the search bundles); the last call lists the stale files, told what the
 * earlier calls produced. Nothing under the root changes until `staging.commit`.
 */
export function writeOutputs<Rows extends ManifestRows>(
  staging: Staging,
  outputs: readonly OutputSpec[],
  previous: RecordedFiles,
  onDisk: FilesOnDisk,
  options: WriteOptions<Rows> & { files: Rows },
): WriteResult<Rows>;
export function writeOutputs(
  staging: Staging,
  outputs: readonly OutputSpec[],
  previous: RecordedFiles,
  onDisk: FilesOnDisk,
  options?: WriteOptions,
): WriteResult;
export function writeOutputs<Rows extends ManifestRows>(
  staging: Staging,
  outputs: readonly OutputSpec[],
  previous: RecordedFiles,
  onDisk: FilesOnDisk,
  options: WriteOptions<Rows> = {},
): WriteResult<Rows> {
  const alsoProduced = options.alsoProduced ?? new Set<string>();
  const result = emptyResult<Rows>(options.files);
  for (const output of outputs) {
    refuseProducedTwice(result.files, output.file);
    const before = previous.get(output.file);
    if (output.content === undefined) {
      if (before === undefined || !onDisk.has(output.file)) {
        throw new Error(`Internal error: ${output.file} kept but not on disk.`);
      }
      result.files.set(output.file, { ...before, input: output.input }, false);
      result.unchanged++;
      continue;
    }
    safeRelativeFile(staging.root, output.file);
    const raw = typeof output.content === 'function' ? output.content() : output.content;
    const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    const hash = sha256(bytes);
    const row = { hash, input: output.input, bytes: bytes.byteLength };
    if (before?.hash === hash && onDisk.has(output.file)) {
      result.files.set(output.file, row, false);
      result.unchanged++;
      continue;
    }
    staging.put(output.file, bytes);
    result.files.set(output.file, row, true);
    result.written++;
    if (options.listWritten !== false) result.writtenFiles.push(output.file);
  }

  if (options.removeStale === false) return result;
  for (const file of previous.keys()) {
    if (result.files.has(file) || alsoProduced.has(file) || !onDisk.has(file)) continue;
    // A tampered manifest must not make the build delete anything outside the root.
    if (!isSafe(staging.root, file)) continue;
    result.removed++;
    result.removedFiles.push(file);
  }
  return result;
}

function isSafe(root: string, file: string): boolean {
  try {
    safeRelativeFile(root, file);
    return true;
  } catch (error) {
    if (error instanceof UnsafePathError) return false;
    throw error;
  }
}

/** An empty result whose rows go to `files`, or to a new `Map` (the default `Rows`). */
function emptyResult<Rows extends ManifestRows>(files?: Rows): WriteResult<Rows> {
  return {
    written: 0,
    unchanged: 0,
    removed: 0,
    writtenFiles: [],
    removedFiles: [],
    files: files ?? (new Map<string, ManifestFile>() as ManifestRows as Rows),
  };
}

/**
 * The results of several `writeOutputs` calls of one build, as one. Calls that shared their
 * rows (`WriteOptions.files`) share them with the result; other rows are copied.
 */
export function mergeResults<Rows extends ManifestRows = Map<string, ManifestFile>>(
  ...results: readonly WriteResult<Rows>[]
): WriteResult<Rows> {
  const shared = results[0]?.files;
  const same = shared !== undefined && results.every((result) => result.files === shared);
  const merged = emptyResult<Rows>(same ? shared : undefined);
  for (const result of results) {
    merged.written += result.written;
    merged.unchanged += result.unchanged;
    merged.removed += result.removed;
    merged.writtenFiles.push(...result.writtenFiles);
    merged.removedFiles.push(...result.removedFiles);
    if (!same) for (const [file, entry] of result.files) merged.files.set(file, entry, false);
  }
  return merged;
}
