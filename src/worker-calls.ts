/**
 * Calls into a worker thread: one request, one answer, errors rebuilt on this side. The build
 * renders and indexes in workers so that Eleventy's import overlaps the reading of the cache,
 * and so that each search worker drives a Pagefind process of its own; the transform does a
 * second language in one while this thread does the first.
 *
 * The published package runs compiled JavaScript; the tests run the TypeScript sources, which
 * Node 20 cannot load in a worker on its own (a worker ignores the parent's loader hooks), so
 * there the entry is loaded through tsx, a development dependency.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type * as WorkerThreads from 'node:worker_threads';
import type { ResourceLimits, Worker } from 'node:worker_threads';
import { CmsMirrorError, InputError, rebuildError, WorkerError, type ErrorCode } from './errors.js';

type Request<P> = { id: number; payload: P } | { shutdown: true };

type Reply<R> = { id: number; result: R } | { id: number; error: SerializedError };

interface SerializedError {
  name: string;
  message: string;
  stack?: string | undefined;
  code?: ErrorCode | undefined;
  /** `InputError.file`. */
  file?: string | undefined;
}

/** A worker that answers calls; see `serveCalls` for the other side. */
export interface WorkerCalls<P, R> {
  call(payload: P): Promise<R>;
  /** Stops the worker; calls still pending are rejected. */
  close(): Promise<void>;
}

export interface WorkerCallsOptions {
  /**
   * `close` asks the worker to shut down and waits for it to end (up to a grace period), so
   * that the worker can stop child processes it started; otherwise `close` stops it at once.
   * @default false
   */
  readonly graceful?: boolean;
  /**
   * The worker's heap limits (`Worker`'s `resourceLimits`): a thread that allocates little can
   * be given a young generation smaller than the one the process's flags give every thread.
   * @default the process's
   */
  readonly resourceLimits?: ResourceLimits;
}

/**
 * Starts a worker on the module `entry` (its compiled URL: `new URL('./x-worker.js',
 * import.meta.url)`, so that each stage starts the workers beside its own files). An idle
 * worker does not keep the process alive.
 */
export function startWorkerCalls<P, R>(
  entry: URL,
  options: WorkerCallsOptions = {},
): WorkerCalls<P, R> {
  const name = path.basename(fileURLToPath(entry), '.js');
  const worker = startModuleWorker(entry, options.resourceLimits);
  const pending = new Map<number, { resolve: (result: R) => void; reject: (e: Error) => void }>();
  let nextId = 0;
  let failure: Error | undefined;
  worker.unref();

  const failAll = (error: Error): void => {
    failure ??= error;
    for (const entry of pending.values()) entry.reject(error);
    pending.clear();
  };
  worker.on('message', (reply: Reply<R>) => {
    const entry = pending.get(reply.id);
    if (!entry) return;
    pending.delete(reply.id);
    if (pending.size === 0) worker.unref();
    if ('error' in reply) entry.reject(deserializeError(reply.error));
    else entry.resolve(reply.result);
  });
  worker.on('error', (error) => failAll(error));
  worker.on('exit', (code) =>
    failAll(new WorkerError(`The ${name} thread stopped (exit code ${code})`)),
  );

  return {
    call(payload) {
      if (failure) return Promise.reject(failure);
      const id = nextId++;
      return new Promise<R>((resolve, reject) => {
        pending.set(id, { resolve, reject });
        if (pending.size === 1) worker.ref();
        worker.postMessage({ id, payload } satisfies Request<P>);
      });
    },
    async close() {
      failAll(new WorkerError(`The ${name} thread was closed`));
      if (!options.graceful) {
        await worker.terminate();
        return;
      }
      // Asked first, so that the worker can stop what it started (a child process must be
      // waited for by the thread that spawned it); stopped by force if it does not end soon.
      const ended = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
      worker.ref();
      worker.postMessage({ shutdown: true } satisfies Request<P>);
      const timer = setTimeout(() => void worker.terminate(), SHUTDOWN_GRACE_MS);
      await ended;
      clearTimeout(timer);
    },
  };
}

/** How long `close` waits for a worker to end on its own before stopping it. */
const SHUTDOWN_GRACE_MS = 2000;

/**
 * The worker's side: answers every call with `handler`. On shutdown `onShutdown` runs, then
 * the thread ends once nothing of its own is pending.
 */
export function serveCalls<P, R>(
  handler: (payload: P) => Promise<R>,
  onShutdown: () => Promise<void> = () => Promise.resolve(),
): void {
  const port = workerThreads().parentPort;
  if (!port) throw new Error('serveCalls must run in a worker thread');
  port.on('message', (request: Request<P>) => {
    if ('shutdown' in request) {
      void onShutdown().finally(() => port.close());
      return;
    }
    handler(request.payload).then(
      (result) => port.postMessage({ id: request.id, result } satisfies Reply<R>),
      (error: unknown) =>
        port.postMessage({ id: request.id, error: serializeError(error) } satisfies Reply<R>),
    );
  });
}

function startModuleWorker(compiled: URL, resourceLimits?: ResourceLimits): Worker {
  const { Worker } = workerThreads();
  const limits = resourceLimits === undefined ? {} : { resourceLimits };
  if (fs.existsSync(fileURLToPath(compiled))) return new Worker(compiled, limits);
  const source = compiled.href.replace(/\.js$/, '.ts');
  const boot = `import('tsx/esm/api').then(({ tsImport }) => tsImport(${JSON.stringify(source)}, ${JSON.stringify(import.meta.url)}))`;
  return new Worker(boot, { eval: true, ...limits });
}

/**
 * Node's `worker_threads`, loaded when a worker is started or serves: a no-op `run` imports
 * this module (the transform's and the build's chunks) but starts none, and the module with
 * its internals cost ~2 ms of CPU to load (test/bench/RESULTS.md, i-noop8 and i-noop9).
 */
function workerThreads(): typeof WorkerThreads {
  return process.getBuiltinModule('node:worker_threads');
}

/** Typed errors cross the thread boundary as data and come back as the same class. */
function serializeError(error: unknown): SerializedError {
  if (error instanceof InputError) {
    return { name: error.name, message: error.message, code: error.code, file: error.file };
  }
  if (error instanceof CmsMirrorError) {
    return { name: error.name, message: error.message, code: error.code };
  }
  if (error instanceof Error) {
    return { name: error.name, message: error.message, stack: error.stack };
  }
  return { name: 'Error', message: String(error) };
}

function deserializeError(error: SerializedError): Error {
  if (error.code === 'E_INPUT' && error.file !== undefined) {
    return new InputError(error.file, error.message);
  }
  if (error.code !== undefined) return rebuildError(error.code, error.message);
  const rebuilt = new Error(error.message);
  rebuilt.name = error.name;
  if (error.stack !== undefined) rebuilt.stack = error.stack;
  return rebuilt;
}
