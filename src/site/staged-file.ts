/**
 * One file's bytes into a build's staging directory, from whichever thread made them (the
 * render thread's pages, a search worker's bundle files): hashed, and written only when the
 * last build's file on disk has other bytes. Loads nothing but the file system and a hash.
 */
import fs from 'node:fs';
import path from 'node:path';
import { sha256 } from './digest.js';
import type { StagedPage } from './page-staging.js';
import { safeRelativeFile } from './safe-output-path.js';

/**
 * Stages one file's bytes into `stage.dir` unless `previous` (the hash of the file on disk)
 * says they are the same; `made` holds the directories made so far by the caller.
 */
export function stageBytes(
  stage: { root: string; dir: string },
  file: string,
  bytes: Uint8Array,
  previous: string | undefined,
  made: Set<string>,
): StagedPage {
  const hash = sha256(bytes);
  if (previous === hash) return { hash, bytes: bytes.byteLength, written: false };
  const relative = path.relative(stage.root, safeRelativeFile(stage.root, file));
  writeStaged(path.join(stage.dir, relative), bytes, made);
  return { hash, bytes: bytes.byteLength, written: true };
}

/**
 * Writes a file into a build's staging directory, making its folder first unless `made` (the
 * folders made so far in this staging directory) has it: one `mkdir` per folder, not per file.
 */
export function writeStaged(target: string, bytes: Uint8Array, made: Set<string>): void {
  const directory = path.dirname(target);
  if (!made.has(directory)) {
    // The staging directory is this build's own, fresh: nothing in it can be a link.
    fs.mkdirSync(directory, { recursive: true });
    made.add(directory);
  }
  fs.writeFileSync(target, bytes);
}
