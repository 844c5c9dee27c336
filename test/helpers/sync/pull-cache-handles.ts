import { readdirSync, readlinkSync } from 'node:fs';
import { join } from 'node:path';

/**
 * File descriptors of this process open on `file` (Linux: /proc/self/fd): a command that
 * closes the cache when it is done leaves none, so the file can be moved, copied or removed.
 */
export function openHandles(file: string): number {
  let count = 0;
  for (const fd of readdirSync('/proc/self/fd')) {
    try {
      if (readlinkSync(join('/proc/self/fd', fd)) === file) count++;
    } catch {
      // closed between the listing and the read
    }
  }
  return count;
}
