/**
 * Disk trouble for the reliability suite: a small tmpfs that can be filled up or remounted
 * read-only (root can mount; CI runs as root), and, where mounting is not allowed, the
 * closest simulation that still makes real writes fail: the child runs with a file-size limit
 * (`ulimit -f`, SIGXFSZ ignored, so a write past it fails with EFBIG) or as an unprivileged
 * user on a write-protected file.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, openSync, rmSync, writeSync, closeSync } from 'node:fs';
import path from 'node:path';

export interface SmallDisk {
  readonly dir: string;
  /** True for a real tmpfs; false when mounting is not allowed (then `dir` is a plain dir). */
  readonly mounted: boolean;
  remount(mode: 'ro' | 'rw'): void;
  /** Writes a file until the disk is full; returns its path (delete it to free the space). */
  fill(): string;
  unmount(): void;
}

function tryMount(dir: string, bytes: number): boolean {
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${bytes}`, 'tmpfs', dir], {
      stdio: 'ignore',
    });
    return true;
  } catch {
    return false;
  }
}

/** A tmpfs of `bytes` at `parent/disk`, or a plain directory when mounting fails. */
export function smallDisk(parent: string, bytes: number): SmallDisk {
  const dir = path.join(parent, 'disk');
  mkdirSync(dir, { recursive: true });
  const mounted = process.env.CMS_MIRROR_TEST_NO_MOUNT ? false : tryMount(dir, bytes);
  return {
    dir,
    mounted,
    remount(mode) {
      if (!mounted) throw new Error('not a mounted disk');
      execFileSync('mount', ['-o', `remount,${mode}`, dir], { stdio: 'ignore' });
    },
    fill() {
      const file = path.join(dir, 'filler.bin');
      const fd = openSync(file, 'w');
      const chunk = Buffer.alloc(64 * 1024, 0x5a);
      try {
        // Down to single bytes, so not even one more page of the cache fits.
        for (let size = chunk.length; size >= 1; size = Math.floor(size / 2)) {
          for (;;) {
            try {
              writeSync(fd, chunk, 0, size);
            } catch (error) {
              if ((error as { code?: string }).code === 'ENOSPC') break;
              throw error;
            }
          }
        }
      } finally {
        closeSync(fd);
      }
      return file;
    },
    unmount() {
      if (mounted) execFileSync('umount', ['-l', dir], { stdio: 'ignore' });
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Shell prefix for the fallback "disk full": a file-size limit of `blocks` × 1024 bytes, with
 * SIGXFSZ ignored (ignored signals survive exec) so the write fails instead of killing node.
 */
export function withFileSizeLimit(
  blocks: number,
): (command: readonly string[]) => { file: string; args: string[] } {
  return (command) => {
    const quoted = command.map((arg) => `'${arg.replace(/'/g, `'\\''`)}'`).join(' ');
    return { file: '/bin/sh', args: ['-c', `trap '' XFSZ; ulimit -f ${blocks}; exec ${quoted}`] };
  };
}
