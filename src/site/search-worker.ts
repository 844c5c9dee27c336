/**
 * Worker thread entry: builds search bundles. Each worker loads its own copy of Pagefind's
 * Node API, and with it a Pagefind process of its own, so two workers index two bundles on
 * two cores (one Pagefind process indexes one bundle at a time, whatever it is sent).
 */
import childProcess, { type ChildProcess, type SpawnOptions } from 'node:child_process';
import { once } from 'node:events';
import { setTimeout as delay } from 'node:timers/promises';
import { serveCalls } from '../worker-calls.js';
import { warmDateFormats } from './date-formats-warm-up.js';
import { pagefindEnv } from './pagefind-env.js';
import type { ShardRequest } from './search-index.js';

// Pagefind spawns its process through this thread's own `child_process` module object. Only
// this thread's event loop collects that process's exit status, so the thread must see it exit
// before it ends, or the process lingers as a zombie (many of them in a long `watch`).
// The same hook gives that process its allocator options (pagefind-env.ts): Pagefind's Node
// API passes no environment of its own, so the thread's is the one it would inherit.
const spawned: ChildProcess[] = [];
const spawn = childProcess.spawn.bind(childProcess);
childProcess.spawn = ((command: string, args: readonly string[], options: SpawnOptions = {}) => {
  const child = spawn(command, args, { ...options, env: pagefindEnv(options.env ?? process.env) });
  spawned.push(child);
  return child;
}) as typeof childProcess.spawn;

// As early as this thread can: it has ~0.5 s before an edit's bundle is sent (the site is
// placed first), while the main thread plans the edit soon after sending it.
warmDateFormats();

const { answerShardRequest } = await import('./search-index.js');
const { close, createIndex } = await import('pagefind');

// Pagefind's process starts with the first index: started now, while the main thread
// transforms and plans, so that a run's one stale bundle does not wait for it. A failure
// here fails again, reported, in the first real index.
createIndex()
  .then(({ index }) => index?.deleteIndex())
  .catch(() => undefined);

/** Longest wait for Pagefind to exit once told to; it takes milliseconds. */
const EXIT_WAIT_MS = 2000;

async function stopPagefind(): Promise<void> {
  const running = spawned.filter((child) => child.exitCode === null && child.signalCode === null);
  const exited = Promise.all(running.map((child) => once(child, 'exit')));
  await close();
  const timeout = new AbortController();
  await Promise.race([exited, delay(EXIT_WAIT_MS, undefined, { signal: timeout.signal })]);
  // The thread ends once nothing is pending: the timer must not hold it.
  timeout.abort();
}

serveCalls((request: ShardRequest) => answerShardRequest(request), stopPagefind);
