/**
 * Issue 17: a one-edit run waits for its one search bundle, so the build workers start a
 * Pagefind process as soon as an edit build is expected (`expectEdits`: while the main thread
 * transforms and plans; an edit's bundle is indexed by it from the main thread,
 * `search-indexers.ts`), not with the first bundle, and none before (a full build indexes in
 * the search worker); closing the workers still leaves no Pagefind process behind.
 * That process runs with jemalloc's thread cache raised to 64 KB in its environment (pagefind-env.ts).
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { startBuildWorkers, type BuildWorkers } from '../../../src/site/build-workers.js';

let workers: BuildWorkers | undefined;
afterEach(async () => {
  await workers?.close();
  workers = undefined;
});

/** Pagefind processes that are children of this process (exited ones included). */
function pagefindChildren(): string[] {
  const out = execFileSync('ps', ['-o', 'pid=,stat=,comm=', '--ppid', String(process.pid)], {
    encoding: 'utf8',
  });
  return out.split('\n').filter((line) => line.includes('pagefind'));
}

describe('the build workers', () => {
  it('starts Pagefind when an edit build is expected, before it is given a bundle, and stops it on close', async () => {
    expect(pagefindChildren()).toEqual([]);
    workers = startBuildWorkers();
    // Spawning is synchronous: a process started with the workers would be listed at once.
    expect(pagefindChildren(), 'no Pagefind process before an edit build is expected').toEqual([]);
    workers.expectEdits?.();
    // No bundle is asked for: only the expected edit build may start Pagefind. (A loaded
    // machine may take seconds; this waits for the process, not a time.)
    let children: string[] = [];
    for (let tries = 0; tries < 300 && children.length === 0; tries++) {
      await delay(100);
      children = pagefindChildren();
    }
    expect(children, 'a Pagefind process started for the edit build').toHaveLength(1);
    const pid = children[0]!.trim().split(/\s+/)[0]!;
    const environ = fs.readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0');
    expect(environ).toContain('_RJEM_MALLOC_CONF=tcache_max:65536');
    await workers.close();
    workers = undefined;
    expect(pagefindChildren()).toEqual([]);
  }, 180_000);
});
