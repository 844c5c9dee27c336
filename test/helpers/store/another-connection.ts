import Database from 'better-sqlite3';

/** Runs one statement on a cache file through a connection of its own, as another process would. */
export function runOnAnotherConnection(
  file: string,
  statement: string,
  ...params: unknown[]
): void {
  const db = new Database(file);
  try {
    db.prepare(statement).run(...params);
  } finally {
    db.close();
  }
}
