/**
 * A cheap check that the last build's output is still there: every top-level entry it wrote
 * (`index.html`, `2024`, `pagefind`...) still exists. One directory read instead of listing
 * every file: it notices a deleted or emptied output directory, not a single file deleted by
 * hand deep inside it (`cms-mirror build` lists every file and restores those).
 */
import fs from 'node:fs';

export function topLevelIntact(outDir: string, names: readonly string[]): boolean {
  let present: Set<string>;
  try {
    present = new Set(fs.readdirSync(outDir));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
    throw error;
  }
  return names.every((name) => present.has(name));
}
