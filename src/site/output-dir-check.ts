/**
 * The output directory is checked before a build reads or renders anything: a file given as
 * `--out`, or a directory that cannot be written (read-only mount, permissions), is the
 * user's to fix and gets one line naming it (exit 2), not a failure halfway through.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { dirname } from 'node:path';
import { UsageError } from '../errors.js';

const REASONS: Readonly<Record<string, string>> = {
  EROFS: 'the file system is read-only',
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
};

export function checkOutputDir(dir: string): void {
  // The directory itself, or the nearest part of its path that exists.
  let existing = dir;
  for (;;) {
    try {
      if (!statSync(existing).isDirectory()) {
        throw new UsageError(
          existing === dir
            ? `output directory ${dir} is a file, not a directory: give --out a directory (each language is built in <dir>/<lang>/)`
            : `output directory ${dir} cannot be made: ${existing} is a file`,
        );
      }
      break;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT' || dirname(existing) === existing) throw error;
      existing = dirname(existing);
    }
  }
  try {
    accessSync(existing, constants.W_OK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? '';
    throw new UsageError(
      `output directory ${dir} cannot be written: ${REASONS[code] ?? code} (${existing})`,
      { cause: error },
    );
  }
}
