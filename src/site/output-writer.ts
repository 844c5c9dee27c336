/**
 * Writes a build's files under the language root and deletes the ones it no longer makes,
 * touching only files whose bytes changed. Every path goes through `safeRelativeFile`; a
 * directory that resolves (through a symbolic link) outside the root is refused, and files
 * are replaced by rename, which never writes through a link.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UnsafePathError } from '../errors.js';
import type { ManifestFile } from './build-manifest.js';
import { sha256 } from './digest.js';
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

export interface WriteResult {
  written: number;
  unchanged: number;
  removed: number;
  /** Files written, relative to the root (for reports and tests). */
  writtenFiles: string[];
  removedFiles: string[];
  /** The manifest entries of every output. */
  files: Map<string, ManifestFile>;
  /** With `createOnly`: outputs whose file already exists, not written (nor in `files`). */
  deferred: OutputSpec[];
}

/** The temporary file of a replacing write (`{target}.{pid}.tmp`, in `writeOutputs`). */
const LEFTOVER_TEMPORARY = /\.\d+\.tmp$/;

/**
 * Every file under `root`, relative with forward slashes; empty when `root` does not exist.
 * Temporary files a killed build left between writing and renaming are removed, not listed:
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

export interface WriteOptions {
  /** Delete the previous build's files that are not produced. @default true */
  removeStale?: boolean;
  /** Files an earlier call of the same build produced: not stale, and not produced twice. */
  alsoProduced?: ReadonlyMap<string, ManifestFile>;
  /**
   * Only create files: an output whose file exists is not written and comes back in
   * `deferred`, so every file in `writtenFiles` is one this call created. @default false
   */
  createOnly?: boolean;
}

/**
 * Writes `outputs` under `root`. A build may call it more than once (pages first, then the
 * search bundles); the last call removes stale files, told what the earlier calls produced.
 */
export function writeOutputs(
  root: string,
  outputs: readonly OutputSpec[],
  previous: ReadonlyMap<string, ManifestFile>,
  onDisk: ReadonlySet<string>,
  options: WriteOptions = {},
): WriteResult {
  const alsoProduced = options.alsoProduced ?? new Map<string, ManifestFile>();
  const base = path.resolve(root);
  fs.mkdirSync(base, { recursive: true });
  const realBase = fs.realpathSync.native(base);
  const checkedDirectories = new Set<string>([base]);
  const result: WriteResult = {
    written: 0,
    unchanged: 0,
    removed: 0,
    writtenFiles: [],
    removedFiles: [],
    files: new Map(),
    deferred: [],
  };

  for (const output of outputs) {
    if (result.files.has(output.file))
      throw new Error(`Internal error: ${output.file} is produced twice.`);
    const before = previous.get(output.file);
    if (output.content === undefined) {
      if (before === undefined || !onDisk.has(output.file)) {
        throw new Error(`Internal error: ${output.file} kept but not on disk.`);
      }
      result.files.set(output.file, { ...before, input: output.input });
      result.unchanged++;
      continue;
    }
    const target = safeRelativeFile(base, output.file);
    const raw = typeof output.content === 'function' ? output.content() : output.content;
    const bytes = typeof raw === 'string' ? Buffer.from(raw, 'utf8') : raw;
    const hash = sha256(bytes);
    if (before?.hash === hash && onDisk.has(output.file)) {
      result.files.set(output.file, { hash, input: output.input, bytes: bytes.byteLength });
      result.unchanged++;
      continue;
    }
    ensureDirectory(path.dirname(target), realBase, checkedDirectories);
    // A file not there yet is created in place, two system calls cheaper than a rename.
    const created = !onDisk.has(output.file) && createFile(target, bytes);
    if (!created) {
      if (options.createOnly) {
        result.deferred.push({ ...output, content: bytes });
        continue;
      }
      const temporary = `${target}.${process.pid}.tmp`;
      fs.writeFileSync(temporary, bytes);
      fs.renameSync(temporary, target);
    }
    result.files.set(output.file, { hash, input: output.input, bytes: bytes.byteLength });
    result.written++;
    result.writtenFiles.push(output.file);
  }

  if (options.removeStale === false) return result;
  const emptied = new Set<string>();
  for (const file of previous.keys()) {
    if (result.files.has(file) || alsoProduced.has(file)) continue;
    let target: string;
    try {
      target = safeRelativeFile(base, file);
    } catch (error) {
      // A tampered manifest must not make the build delete anything outside the root.
      if (error instanceof UnsafePathError) continue;
      throw error;
    }
    if (!onDisk.has(file)) continue;
    fs.rmSync(target, { force: true });
    result.removed++;
    result.removedFiles.push(file);
    emptied.add(path.dirname(target));
  }
  pruneEmptyDirectories(emptied, base);
  return result;
}

/**
 * Creates `target` with `bytes` unless something is there already: exclusive creation never
 * follows a symbolic link. A file left incomplete by a failed write (a full disk) is removed.
 * @returns false when `target` exists
 */
function createFile(target: string, bytes: Uint8Array): boolean {
  let descriptor: number;
  try {
    descriptor = fs.openSync(target, 'wx');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw error;
  }
  try {
    fs.writeFileSync(descriptor, bytes);
  } catch (error) {
    fs.closeSync(descriptor);
    fs.rmSync(target, { force: true });
    throw error;
  }
  fs.closeSync(descriptor);
  return true;
}

/**
 * Removes files a failed build created (relative to `root`, as `writtenFiles` of a
 * `createOnly` call gives them), and the directories left empty.
 */
export function removeCreated(root: string, files: readonly string[]): void {
  const base = path.resolve(root);
  const emptied = new Set<string>();
  for (const file of files) {
    const target = safeRelativeFile(base, file);
    fs.rmSync(target, { force: true });
    emptied.add(path.dirname(target));
  }
  pruneEmptyDirectories(emptied, base);
}

/**
 * Makes `directory` one level at a time below the nearest directory known to lie inside the
 * root (`checked`: the root, and every directory checked or made so far). A directory made
 * here is a real one and needs no check; one that was there already may be a link, and is
 * resolved before anything is made or written below it.
 */
function ensureDirectory(directory: string, realBase: string, checked: Set<string>): void {
  const missing: string[] = [];
  for (let known = directory; !checked.has(known); known = path.dirname(known)) {
    if (path.dirname(known) === known)
      throw new Error(`Internal error: ${directory} is outside the root.`);
    missing.push(known);
  }
  for (const level of missing.reverse()) {
    try {
      fs.mkdirSync(level);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // The system's realpath(3): one call, where the JavaScript one lstat()s every component.
      const real = fs.realpathSync.native(level);
      if (real !== realBase && !real.startsWith(`${realBase}${path.sep}`)) {
        throw new UnsafePathError(
          directory,
          `The directory ${directory} resolves outside ${realBase}; nothing is written there.`,
        );
      }
    }
    checked.add(level);
  }
}

/** Removes directories left empty by deletions, up to (not including) the root. */
function pruneEmptyDirectories(directories: Iterable<string>, base: string): void {
  const sorted = [...directories].sort((a, b) => b.length - a.length);
  for (const start of sorted) {
    for (
      let directory = start;
      directory !== base && directory.startsWith(`${base}${path.sep}`);
      directory = path.dirname(directory)
    ) {
      try {
        fs.rmdirSync(directory);
      } catch {
        break;
      }
    }
  }
}

/** The results of several `writeOutputs` calls of one build, as one. */
export function mergeResults(...results: readonly WriteResult[]): WriteResult {
  const merged: WriteResult = {
    written: 0,
    unchanged: 0,
    removed: 0,
    writtenFiles: [],
    removedFiles: [],
    files: new Map(),
    deferred: [],
  };
  for (const result of results) {
    merged.written += result.written;
    merged.unchanged += result.unchanged;
    merged.removed += result.removed;
    merged.writtenFiles.push(...result.writtenFiles);
    merged.removedFiles.push(...result.removedFiles);
    for (const [file, entry] of result.files) merged.files.set(file, entry);
    merged.deferred.push(...result.deferred);
  }
  return merged;
}
