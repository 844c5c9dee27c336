/**
 * Where a build's search bundles are indexed (`search-indexers.ts`): an edit's bundle by a
 * Pagefind process this thread drives, started when an edit build is expected, with no search
 * worker started (a thread's start costs more than the bundle's messages); once a full build
 * signals, the worker indexes every later bundle, and this thread's process ends when its
 * bundle is done, not before; a full build starts no Pagefind process on this thread at all.
 * The worker here is a stand-in that records what it is asked.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import {
  searchIndexers,
  type SearchIndexers,
  type SearchWorkerAnswer,
} from '../../../src/site/search-indexers.js';
import type { ShardRequest } from '../../../src/site/search-index.js';
import type { SearchShard } from '../../../src/site/search-plan.js';
import type { WorkerCalls } from '../../../src/worker-calls.js';
import { pagefindChildren } from '../../helpers/pagefind-children.js';

let indexers: SearchIndexers | undefined;
afterEach(async () => {
  await indexers?.close();
  indexers = undefined;
});

function shardOf(count: number, index = 0): SearchShard {
  const docs = Array.from({ length: count }, (_, at) => ({
    key: `post:${at + 1}`,
    url: `/wpis-${at + 1}/`,
    title: `Wpis ${at + 1}`,
    html: `<p>Tekst ${at + 1}</p>`,
    digest: `d${at}`,
  }));
  return { index, dir: `pagefind/s${index}`, digest: 'x', docs } as unknown as SearchShard;
}

/** A stand-in for the search worker: answers each bundle with one file named after it. */
function standInWorker() {
  const asked: ShardRequest[] = [];
  let started = 0;
  const start = (): WorkerCalls<ShardRequest, SearchWorkerAnswer> => {
    started++;
    return {
      call: (request) => {
        asked.push(request);
        return Promise.resolve(new Map([[`${request.shard.dir}/from-worker`, new Uint8Array()]]));
      },
      close: () => Promise.resolve(),
    };
  };
  return { start, asked, started: () => started };
}

describe('search indexers', () => {
  it("index an edit's bundle on this thread, with no search worker started", async () => {
    const before = pagefindChildren();
    const worker = standInWorker();
    indexers = searchIndexers(worker.start);
    indexers.startPagefind();
    // Started when an edit build is expected, before any bundle is asked for.
    expect(pagefindChildren().filter((pid) => !before.includes(pid))).toHaveLength(1);
    const files = await indexers.indexer('pl')(shardOf(12));
    expect(files.has('pagefind/s0/pagefind.js')).toBe(true);
    expect([...files.keys()].filter((file) => file.includes('/fragment/'))).toHaveLength(12);
    expect(worker.started()).toBe(0);
  }, 60_000);

  it("hand later bundles to the worker once a full build signals, this thread's process ending after its bundle", async () => {
    const before = pagefindChildren();
    const started = (): string[] => pagefindChildren().filter((pid) => !before.includes(pid));
    const worker = standInWorker();
    indexers = searchIndexers(worker.start);
    const here = indexers.indexer('pl')(shardOf(200));
    indexers.startWorker();
    indexers.startWorker();
    expect(worker.started()).toBe(1);
    // The bundle already sent is finished by this thread's process, not cut off.
    const files = await here;
    expect([...files.keys()].filter((file) => file.includes('/fragment/'))).toHaveLength(200);
    const later = await indexers.indexer('pl')(shardOf(3, 5));
    expect([...later.keys()]).toEqual(['pagefind/s5/from-worker']);
    const staged = await indexers.stager('pl', () => ({
      root: '/r',
      dir: '/d',
      previous: new Map(),
    }))(shardOf(3, 6));
    expect([...staged.keys()]).toEqual(['pagefind/s6/from-worker']);
    expect(worker.asked.map((request) => [request.shard.index, request.stage?.dir])).toEqual([
      [5, undefined],
      [6, '/d'],
    ]);
    // One process at a time: this thread's ends once its bundle is done (waited for, not timed).
    for (let tries = 0; tries < 200 && started().length > 0; tries++) await delay(50);
    expect(started()).toEqual([]);
  }, 60_000);

  it('start no Pagefind process on this thread for a full build', async () => {
    const before = pagefindChildren();
    const started = (): string[] => pagefindChildren().filter((pid) => !before.includes(pid));
    const worker = standInWorker();
    indexers = searchIndexers(worker.start);
    // Spawning is synchronous: a process started here would be listed at once.
    expect(started()).toEqual([]);
    indexers.startWorker();
    const files = await indexers.indexer('pl')(shardOf(3, 2));
    await indexers.stager('pl', () => ({ root: '/r', dir: '/d', previous: new Map() }))(
      shardOf(2, 4),
    );
    expect([...files.keys()]).toEqual(['pagefind/s2/from-worker']);
    expect(worker.asked.map((request) => request.shard.index)).toEqual([2, 4]);
    expect(started()).toEqual([]);
  });

  it('start the worker for staged bundles even without the signal', async () => {
    const worker = standInWorker();
    indexers = searchIndexers(worker.start);
    await indexers.stager('pl', () => ({ root: '/r', dir: '/d', previous: new Map() }))(
      shardOf(2, 1),
    );
    expect(worker.started()).toBe(1);
  });
});
