import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Hex SHA-256 of a file's text (what `checkouts.file_hash` records). */
export function textHash(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

/** The file's text and hash, or undefined when it does not exist. */
export function readTextIfExists(file: string): { text: string; hash: string } | undefined {
  try {
    const text = readFileSync(file, 'utf8');
    return { text, hash: textHash(text) };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
}

/**
 * Writes through a temporary file in the same folder and renames it into place, so a reader
 * (an editor, `watch`, a killed run) sees the old file or the new one, never half of one.
 */
export function writeFileAtomic(file: string, text: string): void {
  mkdirSync(path.dirname(file), { recursive: true });
  const temp = path.join(
    path.dirname(file),
    `.${path.basename(file)}.${randomBytes(6).toString('hex')}.tmp`,
  );
  try {
    writeFileSync(temp, text, { encoding: 'utf8', flush: true });
    renameSync(temp, file);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
