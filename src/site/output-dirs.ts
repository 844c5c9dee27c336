/**
 * Directories of a language's output: made one level at a time without ever writing through
 * a symbolic link that leads outside the root, and removed again when a build emptied them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { UnsafePathError } from '../errors.js';

/**
 * Makes `directory` one level at a time below the nearest directory known to lie inside the
 * root (`checked`: the root, and every directory checked or made so far). A directory made
 * here is a real one and needs no check; one that was there already may be a link, and is
 * resolved before anything is made or written below it.
 */
export function ensureDirectory(directory: string, realBase: string, checked: Set<string>): void {
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
export function pruneEmptyDirectories(directories: Iterable<string>, base: string): void {
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
