import { StoreError } from '../errors.js';

/**
 * Maps what SQLite and the file system say about the cache file to a one-line `StoreError`
 * that names the file and says what to do. Anything else (a constraint violation, a
 * TypeError) is a bug in the caller and is returned unchanged so that it prints its stack.
 */
export function toStoreError(file: string, error: unknown, doing: string): unknown {
  if (error instanceof StoreError) return error;
  const code = (error as { code?: unknown } | null)?.code;
  if (typeof code !== 'string') return error;
  const detail = oneLine(error instanceof Error ? error.message : String(error));
  const message = describe(file, code, doing, detail);
  return message === undefined ? error : new StoreError(file, message, { cause: error });
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function describe(file: string, code: string, doing: string, detail: string): string | undefined {
  if (code === 'SQLITE_NOTADB') {
    return `${file} is not a SQLite database (${detail}); it was left untouched: point the cache setting at another file`;
  }
  if (code.startsWith('SQLITE_CORRUPT')) {
    return `${file} is corrupt (${detail}); it was left untouched: restore it from a backup, or move it away and pull again`;
  }
  if (
    code.startsWith('SQLITE_READONLY') ||
    code === 'EACCES' ||
    code === 'EPERM' ||
    code === 'EROFS'
  ) {
    return `cannot write ${file} while ${doing}: the file or its directory is read-only (${detail}); fix the permissions or choose another cache path`;
  }
  if (
    code.startsWith('SQLITE_CANTOPEN') ||
    code === 'ENOENT' ||
    code === 'ENOTDIR' ||
    code === 'EISDIR' ||
    code === 'EEXIST'
  ) {
    return `cannot open ${file} while ${doing} (${detail}); check that the path is a file in a writable directory`;
  }
  if (code.startsWith('SQLITE_BUSY') || code.startsWith('SQLITE_LOCKED')) {
    return `${file} is locked by another process while ${doing} (${detail}); wait for it to finish and try again`;
  }
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') {
    return `the disk holding ${file} is full while ${doing} (${detail})`;
  }
  if (code.startsWith('SQLITE_IOERR') || code === 'EIO') {
    return `input/output error on ${file} while ${doing} (${detail})`;
  }
  return undefined;
}
