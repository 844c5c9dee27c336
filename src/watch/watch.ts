import { existsSync } from 'node:fs';
import path from 'node:path';
import { watch as chokidarWatch, type FSWatcher } from 'chokidar';
import { keptBuildWorkers } from '../site/build-workers.js';
import { defaultTemplatesDir } from '../site/templates-dir.js';
import type { Settings } from '../config/settings.js';
import { InputError, InterruptedError } from '../errors.js';
import { locateCheckoutFile, recordFileEdits, runPush, type RunPushReport } from '../push/index.js';
import { openStore } from '../store/index.js';
import { ChangeQueue, type ChangeBatch, type ChangeKind } from './change-queue.js';
import { pullHook, rebuildHook, type PullHook, type RebuildHook } from './site-actions.js';

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
  /** @default 300 */
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
  const { settings, onLine } = options;
  const dir = path.resolve(options.dir);
  if (!existsSync(dir)) {
    throw new InputError(
      dir,
      `${dir} does not exist: run "cms-mirror checkout" first (or give --dir)`,
    );
  }
  // The watch's own rebuilds keep their render and search workers for the whole session: a
  // save then renders without waiting for Eleventy's import again.
  const kept = options.rebuild === undefined ? keptBuildWorkers() : undefined;
  const rebuild =
    options.rebuild === false ? undefined : (options.rebuild ?? rebuildHook(settings, kept?.take));
  const templatesOption =
    options.templatesDir ?? (rebuild ? (settings.templates ?? defaultTemplatesDir()) : false);
  const templates = templatesOption === false ? undefined : path.resolve(templatesOption);
  const pull = options.pull ?? pullHook(settings);
  const queue = new ChangeQueue({
    ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
    ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
  });
  // Aborts a running pull on stop (between requests: what it committed stays).
  const pullAbort = new AbortController();
  let chain: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let pullTimer: NodeJS.Timeout | undefined;
  let pullWaiting = false;
  let stopped = false;

  const enqueue = (task: () => Promise<void>) => {
    chain = chain
      .then(() => (stopped ? undefined : task()))
      .catch((error: unknown) => {
        // One failed action must not end the watch: report it and keep listening.
        onLine(`error: ${error instanceof Error ? error.message : String(error)}`);
      });
  };

  const schedule = () => {
    if (timer !== undefined) clearTimeout(timer);
    timer = undefined;
    if (stopped) return;
    const delay = queue.delay(Date.now());
    if (delay === undefined) return;
    timer = setTimeout(() => {
      timer = undefined;
      const batch = queue.take(Date.now());
      if (batch === undefined) return schedule();
      enqueue(async () => {
        try {
          await handleBatch(batch);
        } finally {
          queue.done(Date.now());
          schedule();
        }
      });
    }, delay);
  };

  const runRebuild = async (request: { templates: boolean; changes?: Map<string, number> }) => {
    if (rebuild) await rebuild(request, onLine);
  };

  const handleBatch = async (batch: ChangeBatch) => {
    for (const file of batch.removed) {
      onLine(
        `removed ${file}: not a delete request (use status: trash or push --delete); nothing sent`,
      );
    }
    let changes: Map<string, number> | undefined;
    if (batch.files.length > 0) {
      changes = options.push ? await pushFiles(batch.files) : recordFiles(batch.files);
    }
    if (batch.templates) await runRebuild({ templates: true });
    else if (changes !== undefined && changes.size > 0)
      await runRebuild({ templates: false, changes });
  };

  /** Records the files' edits; nothing reaches the cache's items, so nothing to rebuild. */
  const recordFiles = (files: readonly string[]): undefined => {
    const store = openStore(settings.cache);
    try {
      const recorded = recordFileEdits({ store, dir, files, ...languagesOf(settings) });
      for (const problem of recorded.problems) onLine(problem.message);
      if (recorded.recorded.length > 0 || recorded.problems.length > 0)
        onLine(`recorded ${recorded.recorded.length} edit(s), ${recorded.unchanged} unchanged`);
    } finally {
      store.close();
    }
    return undefined;
  };

  /** Records and pushes; returns the items written per language (for the rebuild). */
  const pushFiles = async (files: readonly string[]): Promise<Map<string, number>> => {
    const store = openStore(settings.cache);
    try {
      // A file push itself rewrote (the site's version, already recorded as the base) is
      // not an edit: no push run, no line, when nothing is queued.
      const recorded = recordFileEdits({ store, dir, files, ...languagesOf(settings) });
      const queued =
        store.edits.list({ state: 'pending' }).length +
        store.edits.list({ state: 'failed' }).length;
      if (recorded.problems.length === 0 && queued === 0) return new Map();
      const report = await runPush(settings, { dir, files, store });
      onLine(describePush(report));
      const written = report.created + report.updated + report.trashed;
      const changes = new Map<string, number>();
      if (written === 0) return changes;
      for (const file of files) {
        const place = locateCheckoutFile(dir, file);
        if (place) changes.set(place.lang, written);
      }
      return changes;
    } finally {
      store.close();
    }
  };

  const pullOnce = async () => {
    pullWaiting = false;
    let outcome;
    try {
      outcome = await pull(pullAbort.signal);
    } catch (error) {
      if (pullAbort.signal.aborted) {
        onLine('pull stopped; what it fetched is kept and the next pull resumes from there');
        return;
      }
      throw error;
    }
    if (outcome.line !== undefined) onLine(outcome.line);
    const changed = [...outcome.changes.values()].some((count) => count > 0);
    if (changed) await runRebuild({ templates: false, changes: new Map(outcome.changes) });
  };

  const onEvent = (kind: 'change' | 'remove') => (file: string) => {
    const absolute = path.resolve(file);
    let type: ChangeKind | undefined;
    if (templates !== undefined && isInside(templates, absolute)) type = 'template';
    else if (locateCheckoutFile(dir, absolute) !== undefined) type = 'content';
    if (type === undefined) return;
    queue.add(absolute, type, Date.now(), kind);
    schedule();
  };

  const watcher: FSWatcher = chokidarWatch(templates === undefined ? [dir] : [dir, templates], {
    ignoreInitial: true,
    // Our own atomic writes (and editors') land as a rename: wait until the file is still.
    awaitWriteFinish: { stabilityThreshold: 50, pollInterval: 20 },
    ignored: (file) => path.basename(file).startsWith('.'),
  });
  watcher
    .on('add', onEvent('change'))
    .on('change', onEvent('change'))
    .on('unlink', onEvent('remove'));
  await new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  kept?.warm();
  options.onReady?.();
  onLine(
    `watching ${dir}${templates ? ` and ${templates}` : ''}${options.push ? ' (pushing saved edits)' : ''}` +
      (options.pullEveryMs !== undefined ? `, pulling every ${options.pullEveryMs} ms` : ''),
  );

  if (options.pullEveryMs !== undefined) {
    pullTimer = setInterval(() => {
      // A slow pull (or build) must not pile pulls up behind it: one waits at most.
      if (pullWaiting) return;
      pullWaiting = true;
      enqueue(pullOnce);
    }, options.pullEveryMs);
  }

  await new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  stopped = true;
  if (timer !== undefined) clearTimeout(timer);
  if (pullTimer !== undefined) clearInterval(pullTimer);
  pullAbort.abort(new InterruptedError('watch stopped during a pull'));
  await watcher.close();
  // Let the running action finish (actions not started yet are dropped: files stay saved).
  await chain;
  await kept?.close();
  if (queue.pending)
    onLine('stopped with saved files not yet recorded: `cms-mirror push` picks them up');
}

function languagesOf(settings: Settings): { languages?: readonly string[] } {
  return settings.languages.length > 0 ? { languages: settings.languages } : {};
}

function describePush(report: RunPushReport): string {
  if (report.fileProblems.length + report.invalid.length > 0) {
    const lines = [
      ...report.fileProblems.map((p) => p.message),
      ...report.invalid.map((p) => `${p.file}: ${p.message}`),
    ];
    return `${lines.join('\n')}\nnothing sent`;
  }
  const parts = [
    `pushed: ${report.updated} updated, ${report.created} created, ${report.trashed} trashed`,
  ];
  for (const conflict of report.conflicts) parts.push(`conflict: ${conflict.message}`);
  for (const failure of report.failed)
    parts.push(`failed: ${failure.label}: ${failure.code}: ${failure.message}`);
  return parts.join('\n');
}

function isInside(root: string, file: string): boolean {
  const relative = path.relative(root, file);
  return relative !== '' && !relative.startsWith('..') && !path.isAbsolute(relative);
}
