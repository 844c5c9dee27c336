import path from 'node:path';
import { watch as chokidarWatch, type FSWatcher } from 'chokidar';
import type { Settings } from '../config/settings.js';
import { locateCheckoutFile, recordFileEdits, runPush, type RunPushReport } from '../push/index.js';
import { openStore } from '../store/index.js';
import { ChangeQueue, type ChangeBatch, type ChangeKind } from './change-queue.js';

/**
 * `watch`: chokidar is only the ears. Every decision (what to group, when to act) is the
 * ChangeQueue's; every action (record, push, rebuild, pull) runs on one serial chain, so two
 * never overlap and a stop waits for the running one: nothing is left half-written (files are
 * renamed into place, the cache is written in transactions).
 */

export interface WatchOptions {
  readonly settings: Settings;
  /** The checkout dir. */
  readonly dir: string;
  /** A theme dir whose changes rebuild the site. @default none */
  readonly templatesDir?: string;
  /** Push each batch of saved edits (else only record them). @default false */
  readonly push?: boolean;
  /** Pull every this many ms (needs `pull`). @default no periodic pull */
  readonly pullEveryMs?: number;
  /** @default 300 */
  readonly debounceMs?: number;
  /** @default 2000 */
  readonly maxWaitMs?: number;
  /** Rebuild the output after content or template changes. @default none (reported once) */
  readonly rebuild?: (reason: { templates: boolean; languages: string[] }) => Promise<void>;
  /** One pull through the sync library. @default none */
  readonly pull?: () => Promise<string>;
  readonly onLine: (line: string) => void;
  /** Stops the watch; the returned promise resolves once the running action has finished. */
  readonly signal: AbortSignal;
  /** Called once the file watcher is ready (tests wait for it). */
  readonly onReady?: () => void;
}

export async function watchCheckouts(options: WatchOptions): Promise<void> {
  const dir = path.resolve(options.dir);
  const templates =
    options.templatesDir === undefined ? undefined : path.resolve(options.templatesDir);
  const queue = new ChangeQueue({
    ...(options.debounceMs !== undefined ? { debounceMs: options.debounceMs } : {}),
    ...(options.maxWaitMs !== undefined ? { maxWaitMs: options.maxWaitMs } : {}),
  });
  let chain: Promise<void> = Promise.resolve();
  let timer: NodeJS.Timeout | undefined;
  let pullTimer: NodeJS.Timeout | undefined;
  let stopped = false;
  let rebuildGapReported = false;

  const enqueue = (task: () => Promise<void>) => {
    chain = chain.then(task).catch((error: unknown) => {
      // One failed action must not end the watch: report it and keep listening.
      options.onLine(`error: ${error instanceof Error ? error.message : String(error)}`);
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

  const handleBatch = async (batch: ChangeBatch) => {
    const languages = new Set<string>();
    for (const file of batch.files) {
      const place = locateCheckoutFile(dir, file);
      if (place) languages.add(place.lang);
    }
    for (const file of batch.removed) {
      options.onLine(
        `removed ${file}: not a delete request (use status: trash or push --delete); nothing sent`,
      );
    }
    if (batch.files.length > 0) {
      if (options.push) {
        const report = await runPush(options.settings, { dir, files: batch.files });
        options.onLine(describePush(report));
      } else {
        const store = openStore(options.settings.cache);
        try {
          const recorded = recordFileEdits({ store, dir, files: batch.files });
          for (const problem of recorded.problems) options.onLine(problem.message);
          options.onLine(
            `recorded ${recorded.recorded.length} edit(s), ${recorded.unchanged} unchanged`,
          );
        } finally {
          store.close();
        }
      }
    }
    if (batch.templates || batch.files.length > 0) {
      if (options.rebuild) {
        await options.rebuild({ templates: batch.templates, languages: [...languages] });
        options.onLine(
          batch.templates ? 'rebuilt (templates changed)' : `rebuilt ${[...languages].join(', ')}`,
        );
      } else if (!rebuildGapReported) {
        rebuildGapReported = true;
        options.onLine(
          'note: no build step is wired into watch; run `cms-mirror build` to refresh output/',
        );
      }
    }
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
  options.onReady?.();
  options.onLine(
    `watching ${dir}${templates ? ` and ${templates}` : ''}${options.push ? ' (pushing saved edits)' : ''}`,
  );

  if (options.pull !== undefined && options.pullEveryMs !== undefined) {
    const pull = options.pull;
    pullTimer = setInterval(
      () => enqueue(async () => options.onLine(await pull())),
      options.pullEveryMs,
    );
  }

  await new Promise<void>((resolve) => {
    if (options.signal.aborted) resolve();
    else options.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  stopped = true;
  if (timer !== undefined) clearTimeout(timer);
  if (pullTimer !== undefined) clearInterval(pullTimer);
  await watcher.close();
  // Let the running action finish; changes still waiting are left for the next push.
  await chain;
  if (queue.pending)
    options.onLine('stopped with unsaved changes queued: run `cms-mirror push` to send them');
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
