/**
 * How a build replaces a language's output without ever leaving a mix of two builds.
 *
 * Every file a build writes goes first into a staging directory beside the language's folder
 * (`{out}/.cms-mirror/{lang}.stage/`, the same file system, outside what is served). When
 * everything is staged, a small journal (`{lang}.journal`: the files to delete and the stamp
 * of the new build) is written through a temporary file, synced and renamed into place: that
 * rename is the commit point. The staged files are then renamed over the output, the deleted
 * files removed, the stamp written, and the staging directory and journal removed.
 *
 * Whatever writes the output first calls `recoverOutput`: a journal left by a killed build is
 * rolled forward (its switch is finished), staging without a journal is rolled back (deleted).
 * So a build killed before its commit point leaves the previous build's output exactly, and
 * one killed after it is finished by the next. The cost is one rename per changed file, or
 * one per staged directory whose place in the output is free (a first build moves the whole
 * staging directory): a directory is moved only where nothing was, so nothing is replaced
 * but what the build staged.
 *
 * The stamp (`{lang}.stamp`) names the build the language's folder holds; the cache's record
 * of the last build is trusted for this folder only when the stamps agree.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UnsafePathError } from '../errors.js';
import { traceFromEnvironment, type BuildTrace } from './build-trace.js';
import { digestOf } from './digest.js';
import { ensureDirectory, pruneEmptyDirectories } from './output-dirs.js';
import { safeRelativeFile } from './safe-output-path.js';
import { writeStaged } from './staged-file.js';

/** The directory beside the language folders that holds staging, journals and stamps. */
export const STATE_DIR = '.cms-mirror';

interface StatePaths {
  stage: string;
  journal: string;
  stamp: string;
}

function statePaths(root: string): StatePaths {
  const base = path.resolve(root);
  const dir = path.join(path.dirname(base), STATE_DIR);
  const name = path.basename(base);
  return {
    stage: path.join(dir, `${name}.stage`),
    journal: path.join(dir, `${name}.journal`),
    stamp: path.join(dir, `${name}.stamp`),
  };
}

/** What a build was made of, in one digest: equal stamps, equal output. */
export function stampOf(build: {
  buildVersion: string;
  templatesHash: string;
  modelDigest: string;
}): string {
  return digestOf(build.buildVersion, build.templatesHash, build.modelDigest);
}

/** The stamp of the build `root` holds, or undefined (never built, or by an older version). */
export function readStamp(root: string): string | undefined {
  try {
    return fs.readFileSync(statePaths(root).stamp, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

interface Journal {
  removed: string[];
  stamp: string;
}

function readJournal(file: string): Journal | undefined {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  try {
    const value = JSON.parse(text) as Partial<Journal>;
    if (
      Array.isArray(value.removed) &&
      value.removed.every((file) => typeof file === 'string') &&
      typeof value.stamp === 'string'
    )
      return { removed: value.removed, stamp: value.stamp };
  } catch {
    // Written by rename, a journal is whole or absent; anything else was not ours: ignored.
  }
  return undefined;
}

/**
 * Finishes or undoes what a killed build left for `root`: with a journal its switch is
 * finished, without one its staging is deleted. Cheap when there is nothing: two stats.
 */
export function recoverOutput(root: string, trace: BuildTrace = traceFromEnvironment()): void {
  const paths = statePaths(root);
  const journal = readJournal(paths.journal);
  if (journal) {
    trace(`recover ${path.basename(root)} forward`);
    applySwitch(root, paths, journal, trace);
    return;
  }
  fs.rmSync(paths.journal, { force: true });
  fs.rmSync(`${paths.journal}.tmp`, { force: true });
  if (fs.existsSync(paths.stage)) {
    trace(`recover ${path.basename(root)} back`);
    fs.rmSync(paths.stage, { recursive: true, force: true });
  }
}

/** Where one build of a language stages its files until it commits them. */
export interface Staging {
  readonly root: string;
  /** The staging directory: the root's image, which another thread may write into too. */
  readonly dir: string;
  /** Stages `bytes` as the file `file` (relative to the root, checked). */
  put(file: string, bytes: Uint8Array): void;
  /** Records `file` (relative to the root) as staged by another thread, written into `dir`. */
  recordStaged(file: string): void;
  /**
   * The commit point, then the switch: the staged files replace the output, `removed` go.
   * `staged` lists the staged files when the staging kept no list of its own (`openStaging`).
   */
  commit(removed: readonly string[], stamp: string, staged?: Iterable<string>): void;
  /** Deletes what was staged (a failed build): the output stays as it was. */
  discard(): void;
}

/**
 * Recovers `root` (see `recoverOutput`), then opens an empty staging directory for it. With
 * `keepList` false it keeps no list of what was staged (a large build lists it from the cache,
 * or the switch reads the staging directory back).
 */
export function openStaging(
  root: string,
  trace: BuildTrace = traceFromEnvironment(),
  keepList = true,
): Staging {
  recoverOutput(root, trace);
  const paths = statePaths(root);
  const base = path.resolve(root);
  const name = path.basename(base);
  fs.mkdirSync(paths.stage, { recursive: true });
  const made = new Set<string>([paths.stage]);
  // What was staged, in order: the switch needs not read the staging directory back.
  const stagedList = new Set<string>();
  const relativeOf = (file: string): string =>
    path.relative(base, safeRelativeFile(base, file)).split(path.sep).join('/');
  return {
    root: base,
    dir: paths.stage,
    put(file, bytes) {
      const relative = relativeOf(file);
      writeStaged(path.join(paths.stage, relative), bytes, made);
      if (keepList) stagedList.add(relative);
      trace(`stage ${name} ${file}`);
    },
    recordStaged(file) {
      if (keepList) stagedList.add(relativeOf(file));
      trace(`stage ${name} ${file}`);
    },
    commit(removed, stamp, staged) {
      const journal: Journal = { removed: [...removed], stamp };
      writeDurably(paths.journal, JSON.stringify(journal));
      trace(`commit ${name}`);
      applySwitch(base, paths, journal, trace, staged ?? (keepList ? stagedList : undefined));
    },
    discard() {
      fs.rmSync(paths.stage, { recursive: true, force: true });
    },
  };
}

/**
 * Renames every staged file over the output, deletes the journal's files, writes the stamp,
 * then removes the staging and the journal. Idempotent: run again after a kill, it finishes.
 */
function applySwitch(
  root: string,
  paths: StatePaths,
  journal: Journal,
  trace: BuildTrace,
  staged?: Iterable<string>,
): void {
  const base = path.resolve(root);
  const name = path.basename(base);
  if (moveWholeStage(base, paths.stage)) {
    trace(`switch ${name} ./`);
  } else {
    switchFiles(base, paths.stage, staged ?? stagedFiles(paths.stage), (file) =>
      trace(`switch ${name} ${file}`),
    );
  }
  const emptied = new Set<string>();
  for (const file of journal.removed) {
    let target: string;
    try {
      target = safeRelativeFile(base, file);
    } catch (error) {
      // A tampered journal or manifest must not make the build delete anything outside the root.
      if (error instanceof UnsafePathError) continue;
      throw error;
    }
    fs.rmSync(target, { force: true });
    emptied.add(path.dirname(target));
  }
  pruneEmptyDirectories(emptied, base);
  writeDurably(paths.stamp, journal.stamp);
  fs.rmSync(paths.stage, { recursive: true, force: true });
  fs.rmSync(paths.journal, { force: true });
  trace(`switched ${name}`);
}

/**
 * A first build (no folder for the language yet): the staging directory becomes the folder,
 * in one rename. False when the folder exists (or the rename cannot be done): file by file.
 */
function moveWholeStage(base: string, stage: string): boolean {
  try {
    fs.lstatSync(base);
    return false;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (!fs.existsSync(stage)) return false;
  fs.mkdirSync(path.dirname(base), { recursive: true });
  return tryRename(stage, base);
}

/**
 * Moves the staged `files` into `base`: a staged directory whose place in the output is free
 * is moved whole (with every file below it), any other file is renamed over its target.
 */
function switchFiles(
  base: string,
  stage: string,
  files: Iterable<string>,
  moved: (step: string) => void,
): void {
  fs.mkdirSync(base, { recursive: true });
  const realBase = fs.realpathSync.native(base);
  const checked = new Set<string>([base]);
  const movedDirectories = new Set<string>();
  for (const file of files) {
    const target = safeRelativeFile(base, file);
    const directory = placeDirectory(file, { base, stage, realBase, checked, movedDirectories });
    if (directory === 'placed') {
      moveInto(path.join(stage, file), target);
      moved(file);
    } else if (directory !== 'inside') {
      moved(`${directory}/`);
    }
  }
}

interface Placing {
  base: string;
  stage: string;
  realBase: string;
  checked: Set<string>;
  movedDirectories: Set<string>;
}

/**
 * Makes the directories of `file` in the output, top down. Where one is missing, the staged
 * directory is renamed there whole instead (returned: its relative path); `inside` when the
 * file went with a directory moved before; `placed` when the file itself is still to move.
 */
function placeDirectory(file: string, placing: Placing): string {
  const parts = file.split('/').slice(0, -1);
  for (let depth = 1; depth <= parts.length; depth++) {
    const relative = parts.slice(0, depth).join('/');
    if (placing.movedDirectories.has(relative)) return 'inside';
    const target = path.join(placing.base, relative);
    if (placing.checked.has(target)) continue;
    // Fails where anything is in the way (a file, a directory with content, a link).
    if (tryRename(path.join(placing.stage, relative), target)) {
      placing.movedDirectories.add(relative);
      return relative;
    }
    ensureDirectory(target, placing.realBase, placing.checked);
  }
  return 'placed';
}

function tryRename(from: string, to: string): boolean {
  try {
    fs.renameSync(from, to);
    return true;
  } catch {
    return false;
  }
}

/** Staged files relative to the staging directory, forward slashes; none when it is gone. */
function stagedFiles(stage: string): string[] {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(stage, { withFileTypes: true, recursive: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries) {
    if (!entry.isFile()) continue;
    const parent =
      (entry as fs.Dirent & { parentPath?: string; path?: string }).parentPath ?? entry.path;
    files.push(path.relative(stage, path.join(parent, entry.name)).split(path.sep).join('/'));
  }
  return files;
}

/**
 * Renames `staged` over `target`. Across file systems (a language folder mounted or linked
 * elsewhere) it copies next to the target and renames there: still never half a file.
 */
function moveInto(staged: string, target: string): void {
  try {
    fs.renameSync(staged, target);
    return;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EXDEV') throw error;
  }
  const temporary = `${target}.cms-mirror-switch.tmp`;
  fs.copyFileSync(staged, temporary);
  fs.renameSync(temporary, target);
  fs.rmSync(staged, { force: true });
}

/** Writes `file` through a synced temporary file and a rename: whole or absent, after a crash. */
function writeDurably(file: string, text: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const temporary = `${file}.tmp`;
  const descriptor = fs.openSync(temporary, 'w');
  try {
    fs.writeFileSync(descriptor, text);
    fs.fsyncSync(descriptor);
  } finally {
    fs.closeSync(descriptor);
  }
  fs.renameSync(temporary, file);
  syncDirectory(path.dirname(file));
}

function syncDirectory(directory: string): void {
  let descriptor: number | undefined;
  try {
    descriptor = fs.openSync(directory, 'r');
    fs.fsyncSync(descriptor);
  } catch {
    // Some systems cannot sync a directory; the rename is still atomic.
  } finally {
    if (descriptor !== undefined) fs.closeSync(descriptor);
  }
}
