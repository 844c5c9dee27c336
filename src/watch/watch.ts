import { existsSync } from 'node:fs';
import path from 'node:path';
import { watch as chokidarWatch, type FSWatcher } from 'chokidar';
import { keptBuildWorkers } from '../site/build-workers.js';
import { defaultTemplatesDir } from '../site/templates-dir.js';
import type { Settings } from '../config/settings.js';
import { InputError, InterruptedError } from '../errors.js';
import { locateCheckoutFile } from '../push/index.js';
import { KeptSessions } from '../push/kept-sessions.js';
import { changedAt, ChangeQueue, type ChangeBatch, type ChangeKind } from './change-queue.js';
import { pushFiles, recordFiles } from './saved-files.js';
import {
  pullHook,
  rebuildHook,
  type PullHook,
  type RebuildHook,
  type RebuildRequest,
} from './site-actions.js';

/**
 * `watch`: chokidar is only the ears. Every decision (what to group, when to act) is the
 * ChangeQueue's; every action (record, push, rebuild, pull) runs on one serial chain, so two
 * never overlap and a stop waits for the running one: nothing is left half-written (files are
 * renamed into place, the cache is written in transactions, a build finishes its writes).
 */

export interface WatchOptions {
  readonly settings: Settings;
  /** The checkout dir (must exist: `checkout` writes it). */
  readonly dir: string;
  /**
   * A theme dir whose changes rebuild the site; false: watch no theme.
   * @default settings.templates, else the built-in theme (only when rebuilding)
   */
  readonly templatesDir?: string | false;
  /** Push each batch of saved edits (else only record them). @default false */
  readonly push?: boolean;
  /** Pull every this many ms; a pull that changed items rebuilds. @default no periodic pull */
  readonly pullEveryMs?: number;
  /** @default 80 (`DEFAULT_DEBOUNCE_MS`) */
  readonly debounceMs?: number;
  /** @default 2000 */
  readonly maxWaitMs?: number;
  /**
   * Rebuilds the output after pushed, pulled or template changes; false: never rebuild.
   * @default an incremental build of settings.output through the build library
   */
  readonly rebuild?: RebuildHook | false;
  /** One pull, for `pullEveryMs`. @default a pull of settings through the sync library */
  readonly pull?: PullHook;
  readonly onLine: (line: string) => void;
  /** Stops the watch; the returned promise resolves once the running action has finished. */
  readonly signal: AbortSignal;
  /** Called once the file watcher is ready (tests wait for it). */
  readonly onReady?: () => void;
}

export async function watchCheckouts(options: WatchOptions): Promise<void> {
  const dir = existingCheckoutDir(options.dir);
  // The watch's own rebuilds keep their render and search workers for the whole session: a
  // save then renders without waiting for Eleventy's import again.
  const kept = options.rebuild === undefined ? keptBuildWorkers() : undefined;
  const actions = resolveActions(options, kept);
  const watch = new CheckoutWatch(options, dir, actions);
  const watcher = await startFileWatcher(dir, actions.templates, (kind, file, mtimeMs) =>
    watch.fileEvent(kind, file, mtimeMs),
  );
  kept?.warm();
  options.onReady?.();
  options.onLine(
    `watching ${dir}${actions.templates ? ` and ${actions.templates}` : ''}${options.push ? ' (pushing saved edits)' : ''}` +
      (options.pullEveryMs !== undefined ? `, pulling every ${options.pullEveryMs} ms` : ''),
  );
  if (options.pullEveryMs !== undefined) watch.pullEvery(options.pullEveryMs);

  await new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  await watch.stop(watcher);
  await kept?.close();
  if (watch.queue.pending)
    options.onLine('stopped with saved files not yet recorded: `cms-mirror push` picks them up');
}

function existingCheckoutDir(given: string): string {
  const dir = path.resolve(given);
  if (!existsSync(dir)) {
    throw new InputError(
      dir,
      `${dir} does not exist: run "cms-mirror checkout" first (or give --dir)`,
    );
  }
  return dir;
}

/** What a watch does besides recording: rebuild (and which theme it follows) and pull. */
interface WatchActions {
  readonly rebuild: RebuildHook | undefined;
  /** The theme dir whose changes rebuild the site, absolute; undefined: no theme watched. */
  readonly templates: string | undefined;
  readonly pull: PullHook;
}

function resolveActions(
  options: WatchOptions,
  kept: ReturnType<typeof keptBuildWorkers> | undefined,
): WatchActions {
  const { settings } = options;
  const rebuild =
    options.rebuild === false ? undefined : (options.rebuild ?? rebuildHook(settings, kept?.take));
  const templatesOption =
    options.templatesDir ?? (rebuild ? (settings.templates ?? defaultTemplatesDir()) : false);
  const templates = templatesOption === false ? undefined : path.resolve(templatesOption);
  return { rebuild, templates, pull: options.pull ?? pullHook(settings) };
}

/**
 * Our own atomic writes (and editors') land as a rename: a change is reported once the file
 * is still. The queue's debounce then groups a burst; this only has to see one file settle.
 */
const STILLNESS = { stabilityThreshold: 30, pollInterval: 10 } as const;

/**
 * The longest from a file's last write to its report: the stillness, a poll to notice it
 * started and one to see it end (`changedAt`).
 */
const SETTLE_MS = STILLNESS.stabilityThreshold + 2 * STILLNESS.pollInterval;

/**
 * Chokidar, once ready: every add, change and removal under the dirs, reported as it comes,
 * with the file's modification time when it has one (see `changedAt`).
 */
async function startFileWatcher(
  dir: string,
  templates: string | undefined,
  onEvent: (kind: 'change' | 'remove', file: string, mtimeMs?: number) => void,
): Promise<FSWatcher> {
  const watcher: FSWatcher = chokidarWatch(templates === undefined ? [dir] : [dir, templates], {
    ignoreInitial: true,
    awaitWriteFinish: STILLNESS,
    ignored: (file) => path.basename(file).startsWith('.'),
  });
  watcher
    .on('add', (file, stats) => onEvent('change', file, stats?.mtimeMs))
    .on('change', (file, stats) => onEvent('change', file, stats?.mtimeMs))
    .on('unlink', (file) => onEvent('remove', file));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return watcher;
}

/**
 * A running watch: file events go to the queue; due batches and periodic pulls run on one
 * serial chain, so no two actions overlap and a stop waits for the running one.
 */
class CheckoutWatch {
  readonly queue: ChangeQueue;
  readonly #options: WatchOptions;
  readonly #dir: string;
  readonly #actions: WatchActions;
  // Aborts a running pull on stop (between requests: what it committed stays).
  readonly #pullAbort = new AbortController();
  // The site's index read, the credentials checked and the connection opened once per watch,
  // not before every save (see KeptSessions for when they are read again).
  readonly #sessions = new KeptSessions();
  #chain: Promise<void> = Promise.resolve();
  #timer: NodeJS.Timeout | undefined;
  #pullTimer: NodeJS.Timeout | undefined;
  #pullWaiting = false;
  #stopped = false;

  constructor(options: WatchOptions, dir: string, actions: WatchActions) {
    this.#options = options;
    this.#dir = dir;
    this.#actions = actions;
    this.queue = new ChangeQueue({
      ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
      ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
    });
  }

  /**
   * A content file or a template changed (or went): queued as changed when it was last
   * written (`changedAt`), and the batch timer set.
   */
  fileEvent(kind: 'change' | 'remove', file: string, mtimeMs?: number): void {
    const absolute = path.resolve(file);
    const templates = this.#actions.templates;
    let type: ChangeKind | undefined;
    if (templates !== undefined && isInside(templates, absolute)) type = 'template';
    else if (locateCheckoutFile(this.#dir, absolute) !== undefined) type = 'content';
    if (type === undefined) return;
    this.queue.add(absolute, type, changedAt(Date.now(), mtimeMs, SETTLE_MS), kind);
    this.#schedule();
  }

  pullEvery(ms: number): void {
    this.#pullTimer = setInterval(() => {
      // A slow pull (or build) must not pile pulls up behind it: one waits at most.
      if (this.#pullWaiting) return;
      this.#pullWaiting = true;
      this.#enqueue(() => this.#pullOnce());
    }, ms);
  }

  /** Stops listening; resolves once the running action has finished (later ones are dropped). */
  async stop(watcher: FSWatcher): Promise<void> {
    this.#stopped = true;
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    if (this.#pullTimer !== undefined) clearInterval(this.#pullTimer);
    this.#pullAbort.abort(new InterruptedError('watch stopped during a pull'));
    await watcher.close();
    // Let the running action finish (actions not started yet are dropped: files stay saved).
    await this.#chain;
    await this.#sessions.forget();
  }

  #enqueue(task: () => Promise<void>): void {
    this.#chain = this.#chain
      .then(() => (this.#stopped ? undefined : task()))
      .catch((error: unknown) => {
        // One failed action must not end the watch: report it and keep listening.
        this.#options.onLine(`error: ${error instanceof Error ? error.message : String(error)}`);
      });
  }

  /** Sets the timer for the queue's next due batch, which then runs on the chain. */
  #schedule(): void {
    if (this.#timer !== undefined) clearTimeout(this.#timer);
    this.#timer = undefined;
    if (this.#stopped) return;
    const delay = this.queue.delay(Date.now());
    if (delay === undefined) return;
    this.#timer = setTimeout(() => {
      this.#timer = undefined;
      const batch = this.queue.take(Date.now());
      if (batch === undefined) return this.#schedule();
      this.#enqueue(async () => {
        try {
          await this.#handleBatch(batch);
        } finally {
          this.queue.done(Date.now());
          this.#schedule();
        }
      });
    }, delay);
  }

  async #handleBatch(batch: ChangeBatch): Promise<void> {
    const { settings, onLine } = this.#options;
    for (const file of batch.removed) {
      onLine(
        `removed ${file}: not a delete request (use status: trash or push --delete); nothing sent`,
      );
    }
    let changes: Map<string, number> | undefined;
    if (batch.files.length > 0) {
      changes = this.#options.push
        ? await pushFiles(settings, this.#dir, batch.files, onLine, this.#sessions)
        : recordFiles(settings, this.#dir, batch.files, onLine);
    }
    if (batch.templates) await this.#rebuild({ templates: true });
    else if (changes !== undefined && changes.size > 0)
      await this.#rebuild({ templates: false, changes });
  }

  async #rebuild(request: RebuildRequest): Promise<void> {
    if (this.#actions.rebuild) await this.#actions.rebuild(request, this.#options.onLine);
  }

  async #pullOnce(): Promise<void> {
    const { onLine } = this.#options;
    this.#pullWaiting = false;
    let outcome;
    try {
      outcome = await this.#actions.pull(this.#pullAbort.signal);
    } catch (error) {
      if (this.#pullAbort.signal.aborted) {
        onLine('pull stopped; what it fetched is kept and the next pull resumes from there');
        return;
      }
      throw error;
    }
    if (outcome.line !== undefined) onLine(outcome.line);
    const changed = [...outcome.changes.values()].some((count) => count > 0);
    if (changed) await this.#rebuild({ templates: false, changes: new Map(outcome.changes) });
  }
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
