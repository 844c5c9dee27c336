import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface TempCache {
  /** A cache path that does not exist yet, inside `dir`. */
  readonly file: string;
  /** A fresh temporary directory owned by this test. */
  readonly dir: string;
  /** Removes `dir` and everything in it. Close stores first. */
  cleanup(): void;
}

/** A temporary directory with a cache path in it, for tests that use real SQLite files. */
export function tempCache(prefix = 'cms-mirror-test-'): TempCache {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return {
    file: join(dir, 'cache.sqlite'),
    dir,
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  };
}
