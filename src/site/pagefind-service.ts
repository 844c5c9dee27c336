/**
 * A Pagefind process driven through its service protocol (`pagefind --service`, what Pagefind's
 * own Node API speaks): each message is the base64 of its JSON followed by a comma, each answer
 * the same with the request's `message_id`. Pagefind handles the messages one after the other,
 * in the order they came, so a bundle's records, the request for its files and the index's
 * deletion can all be sent in one write: Pagefind's Node API writes each message on its own
 * and waits for every record before asking for the files (~625 writes and as many wake-ups
 * of Pagefind's reader for one bundle at 10,000 posts, a third of the calling thread's time).
 * Answers are cut from the bytes as they come, without a string per chunk.
 *
 * The process is started here, with the environment `pagefind-env.ts` gives it, and ended by
 * `close`, which waits for it to exit: only the thread that spawned it collects its exit
 * status. It does not keep the thread alive while no answer is awaited.
 */
import type { ChildProcessByStdio } from 'node:child_process';
import { once } from 'node:events';
import fs from 'node:fs';
import type { Readable, Writable } from 'node:stream';
import { setTimeout as delay } from 'node:timers/promises';
import { SearchIndexError } from '../errors.js';
import { pagefindBinary } from './pagefind-binary.js';
import { pagefindEnv } from './pagefind-env.js';

/** A request, as Pagefind's service reads it (`type` names the action). */
export interface ServiceRequest {
  readonly type: string;
  readonly [field: string]: unknown;
}

/** An answer's payload (`type` names it: `NewIndex`, `IndexedFile`, `GetFiles`, ...). */
export interface ServiceAnswer {
  readonly type: string;
  readonly [field: string]: unknown;
}

interface Waiting {
  resolve(answer: ServiceAnswer): void;
  reject(error: Error): void;
  /** For a `NewIndex`: the id it was sent expecting (`nextIndexId`). */
  indexId?: number;
}

/** The byte that ends each message. */
const COMMA = 0x2c;

/** Longest wait for Pagefind to exit once its input is closed; it takes milliseconds. */
const EXIT_WAIT_MS = 2000;

/** How long a write waits for Pagefind to empty a full pipe before it tries again. */
const PIPE_FULL_WAIT_MS = 1;

/** The longest a write waits for the pipe before it leaves the rest to the event loop. */
const WRITE_WAIT_MS = 500;

/** Where a write waits (nothing ever wakes it: it waits its time out). */
const PAUSE = new Int32Array(new SharedArrayBuffer(4));

/** `ref`/`unref` of the sockets under the process's pipes. */
interface Referable {
  ref?(): void;
  unref?(): void;
}

export class PagefindService {
  /** The process; its stdin and stdout are the service's pipes. */
  readonly #child: ChildProcessByStdio<Writable, Readable, null>;
  /** Answers awaited, by message id. */
  readonly #waiting = new Map<number, Waiting>();
  /** Bytes of an answer not yet ended by its comma. */
  #partial: Buffer[] = [];
  #nextId = 0;
  /** The id Pagefind gives the next index made (`nextIndexId`). */
  #nextIndexId = 0;
  /** Why the process can no longer answer, once it cannot. */
  #failure: Error | undefined;

  /** Starts Pagefind's process now: its start overlaps whatever the caller does next. */
  constructor(env: NodeJS.ProcessEnv = process.env) {
    // Node's child_process loaded here: this module is in the chunk of the build's workers,
    // which a no-op run loads without starting any of them (bundled-cli.test.ts).
    const { spawn } = process.getBuiltinModule('node:child_process');
    this.#child = spawn(pagefindBinary(env), ['--service'], {
      stdio: ['pipe', 'pipe', 'inherit'],
      env: pagefindEnv(env),
      windowsHide: true,
    });
    this.#child.stdout.on('data', (chunk: Buffer) => this.#receive(chunk));
    this.#child.on('error', (error) => this.#fail(error));
    this.#child.stdin.on('error', (error) => this.#fail(error));
    this.#child.on('exit', (code, signal) =>
      this.#fail(new Error(`Pagefind's process ended (${signal ?? `exit code ${code}`})`)),
    );
    this.#setReferenced(false);
  }

  /**
   * The id Pagefind will give the index of the next `NewIndex` sent. Its service numbers
   * indexes 0, 1, 2… in the order it is asked for them (a counter: an id is not given again
   * after `DeleteIndex`), so a bundle's records can name their index in the write that makes
   * it, rather than after its answer comes back: the thread that drives an edit's bundle plans
   * for hundreds of milliseconds before it reads answers again, and the records waited for
   * that (test/bench/RESULTS.md, i-edit13). Each `NewIndex` answer is checked against the id
   * expected; any other id (or an error) stops the service, so that no bundle is built from
   * records sent to another index.
   */
  get nextIndexId(): number {
    return this.#nextIndexId;
  }

  /**
   * Sends `requests` in one write; one answer for each, in order. An `Error` answer rejects
   * with `SearchIndexError`.
   */
  send(requests: readonly ServiceRequest[]): Promise<ServiceAnswer>[] {
    const encoded: string[] = [];
    const answers = requests.map((payload) => {
      const id = ++this.#nextId;
      encoded.push(Buffer.from(JSON.stringify({ message_id: id, payload })).toString('base64'));
      const indexId = payload.type === 'NewIndex' ? this.#nextIndexId++ : undefined;
      return new Promise<ServiceAnswer>((resolve, reject) => {
        if (this.#failure) reject(this.#failure);
        else
          this.#waiting.set(id, { resolve, reject, ...(indexId === undefined ? {} : { indexId }) });
      });
    });
    if (this.#failure === undefined && encoded.length > 0) {
      this.#setReferenced(true);
      this.#write(Buffer.from(`${encoded.join(',')},`, 'latin1'));
    }
    return answers;
  }

  /** Ends the process (it exits when its input closes) and waits for it to exit. */
  async close(): Promise<void> {
    const child = this.#child;
    this.#fail(new SearchIndexError("Pagefind's process was closed"));
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, 'exit').catch(() => undefined);
    child.stdin.end();
    const timeout = new AbortController();
    const late = delay(EXIT_WAIT_MS, 'late', { signal: timeout.signal }).catch(() => undefined);
    if ((await Promise.race([exited, late])) === 'late') {
      child.kill('SIGKILL');
      await exited;
    }
    // The thread ends once nothing is pending: the timer must not hold it.
    timeout.abort();
  }

  /**
   * Writes `bytes` now, all of them, when the pipe's descriptor can be had: a stream write
   * leaves what the pipe does not take at once (~200 KB; one bundle's records at 10,000 posts
   * are ~250 KB) until this thread's event loop turns again, and the thread that drives an
   * edit's bundle then plans for hundreds of milliseconds while Pagefind waits. Pagefind's
   * reader takes its input as it comes, so a full pipe empties within milliseconds.
   */
  #write(bytes: Buffer): void {
    const stdin = this.#child.stdin;
    const fd = (stdin as unknown as { _handle?: { fd?: unknown } })._handle?.fd;
    if (typeof fd !== 'number' || fd < 0 || stdin.writableLength > 0) {
      stdin.write(bytes);
      return;
    }
    let written = 0;
    const deadline = performance.now() + WRITE_WAIT_MS;
    while (written < bytes.length) {
      try {
        written += fs.writeSync(fd, bytes, written);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') {
          this.#fail(error as Error);
          return;
        }
        // A process that does not read (stopped, say) must not hold this thread.
        if (performance.now() > deadline) {
          stdin.write(bytes.subarray(written));
          return;
        }
        Atomics.wait(PAUSE, 0, 0, PIPE_FULL_WAIT_MS);
      }
    }
  }

  #receive(chunk: Buffer): void {
    let start = 0;
    for (let comma = chunk.indexOf(COMMA); comma >= 0; comma = chunk.indexOf(COMMA, start)) {
      const tail = chunk.subarray(start, comma);
      const message = this.#partial.length === 0 ? tail : Buffer.concat([...this.#partial, tail]);
      this.#partial = [];
      start = comma + 1;
      this.#answer(message);
    }
    if (start < chunk.length) this.#partial.push(chunk.subarray(start));
  }

  #answer(message: Buffer): void {
    let answer: { message_id?: number | null; payload: ServiceAnswer & { message?: string } };
    try {
      answer = JSON.parse(Buffer.from(message.toString('latin1'), 'base64').toString('utf8'));
    } catch (error) {
      // Unreadable: no later answer can be matched to its request either.
      this.#fail(searchError(`an unreadable answer (${String(error)})`));
      return;
    }
    const { message_id: id, payload } = answer;
    // An answer without an id: Pagefind could not read a message at all.
    if (typeof id !== 'number') {
      this.#fail(searchError(payload.message));
      return;
    }
    const waiting = this.#waiting.get(id);
    if (waiting === undefined) return;
    if (waiting.indexId !== undefined && payload.index_id !== waiting.indexId) {
      // Records already sent name the expected id: none of this process's answers can be trusted.
      this.#fail(
        searchError(
          `Pagefind made index ${String(payload.index_id ?? payload.type)} where ${waiting.indexId} was expected`,
        ),
      );
      return;
    }
    this.#waiting.delete(id);
    if (this.#waiting.size === 0) this.#setReferenced(false);
    if (payload.type === 'Error') waiting.reject(searchError(payload.message));
    else waiting.resolve(payload);
  }

  #fail(error: Error): void {
    this.#failure ??= error;
    for (const waiting of this.#waiting.values()) waiting.reject(this.#failure);
    this.#waiting.clear();
    this.#setReferenced(false);
  }

  /** Held alive only while answers are awaited. */
  #setReferenced(held: boolean): void {
    // The pipes are sockets underneath (`ref`/`unref`), though typed as plain streams.
    const handles = [this.#child, this.#child.stdin, this.#child.stdout] as Referable[];
    for (const handle of handles) {
      if (held) handle.ref?.();
      else handle.unref?.();
    }
  }
}

/**
 * Starts Pagefind's process, or holds why it could not be started (no binary for this
 * platform, say): a build reports that with the first bundle it asks for, as its own error,
 * not when its workers start.
 */
export function startPagefind(): { pagefind?: PagefindService; failure?: unknown } {
  try {
    return { pagefind: new PagefindService() };
  } catch (error) {
    return { failure: error };
  }
}

function searchError(message: string | undefined): SearchIndexError {
  return new SearchIndexError(
    `The search index could not be built: ${message ?? 'no answer from Pagefind'}`,
  );
}
