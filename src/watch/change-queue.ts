/**
 * The decisions of `watch`, kept apart from chokidar so they can be tested with a fake clock
 * (the shape of Eleventy's EleventyWatch): changes collect while the user is still saving,
 * go out together once things are quiet for `debounceMs` (or `maxWaitMs` after the first
 * change, so a constantly busy folder is still served), and never while the previous batch
 * is still running — those wait for the next one. Time is always passed in.
 */

export type ChangeKind = 'content' | 'template';

/** `ChangeQueueOptions.debounceMs` by default. */
export const DEFAULT_DEBOUNCE_MS = 80;

export interface ChangeQueueOptions {
  /**
   * Quiet time after the last change before a batch is due. Long enough for a burst (an
   * editor's "save all", a tool writing several files: tens of ms apart) to go out as one
   * batch, short enough not to be most of a save's way to its rebuilt page. @default 80
   */
  readonly debounceMs?: number;
  /** Longest a change may wait while changes keep coming. @default 2000 */
  readonly maxWaitMs?: number;
}

/** One batch of work: what to record (and push), and whether to rebuild. */
export interface ChangeBatch {
  /** Content files changed or added, each once, in first-seen order. */
  readonly files: string[];
  /** Content files removed. Never pushed as deletions: a missing file is not a delete request. */
  readonly removed: string[];
  /** True when a template changed: the whole site is rebuilt. */
  readonly templates: boolean;
}

/**
 * When a reported change happened, for {@link ChangeQueue.add}. The watcher reports a write
 * only once the file has been still for a while (chokidar's `awaitWriteFinish`), so the quiet
 * time is counted from the file's last modification (`mtimeMs`), not from the report: the
 * debounce is not waited a second time on top of the stillness. Never later than the report,
 * and at most `settleMs` (the longest the watcher's stillness check takes) before it: an mtime
 * set by hand (a copy that keeps times) is not when the file was written, and a burst of such
 * files must still be grouped as their reports come.
 */
export function changedAt(
  reportedAt: number,
  mtimeMs: number | undefined,
  settleMs: number,
): number {
  if (mtimeMs === undefined || !Number.isFinite(mtimeMs)) return reportedAt;
  return Math.min(reportedAt, Math.max(mtimeMs, reportedAt - settleMs));
}

export class ChangeQueue {
  readonly debounceMs: number;
  readonly maxWaitMs: number;
  /** Insertion-ordered so the batch lists files in the order they were saved. */
  #files = new Map<string, 'changed' | 'removed'>();
  #templates = false;
  #firstAt: number | undefined;
  #lastAt: number | undefined;
  /** A batch is being worked on; new changes wait for the next one. */
  #running = false;

  constructor(options: ChangeQueueOptions = {}) {
    this.debounceMs = options.debounceMs ?? DEFAULT_DEBOUNCE_MS;
    this.maxWaitMs = options.maxWaitMs ?? 2000;
    for (const [name, value] of [
      ['debounceMs', this.debounceMs],
      ['maxWaitMs', this.maxWaitMs],
    ] as const) {
      if (!Number.isFinite(value) || value < 0) {
        throw new RangeError(`${name} must be a number of milliseconds ≥ 0, got ${String(value)}`);
      }
    }
  }

  /** Records one file event at time `now` (ms). */
  add(file: string, kind: ChangeKind, now: number, event: 'change' | 'remove' = 'change'): void {
    if (kind === 'template') this.#templates = true;
    else {
      // A re-save after a remove (editors that write via delete + create) is a change again.
      this.#files.delete(file);
      this.#files.set(file, event === 'remove' ? 'removed' : 'changed');
    }
    this.#firstAt ??= now;
    // Times may come from the files' mtimes (`changedAt`): not always in the order reported.
    this.#lastAt = Math.max(this.#lastAt ?? now, now);
  }

  get pending(): boolean {
    return this.#files.size > 0 || this.#templates;
  }

  get running(): boolean {
    return this.#running;
  }

  /**
   * Milliseconds from `now` until a batch is due: 0 = due now, undefined = nothing to do
   * (empty, or a batch is running — call again after {@link done}).
   */
  delay(now: number): number | undefined {
    if (!this.pending || this.#running || this.#firstAt === undefined || this.#lastAt === undefined)
      return undefined;
    const due = Math.min(this.#lastAt + this.debounceMs, this.#firstAt + this.maxWaitMs);
    return Math.max(0, due - now);
  }

  /** Takes the due batch and marks it running; undefined when none is due at `now`. */
  take(now: number): ChangeBatch | undefined {
    if (this.delay(now) !== 0) return undefined;
    const files: string[] = [];
    const removed: string[] = [];
    for (const [file, state] of this.#files) (state === 'removed' ? removed : files).push(file);
    const batch: ChangeBatch = { files, removed, templates: this.#templates };
    this.#files = new Map();
    this.#templates = false;
    this.#firstAt = undefined;
    this.#lastAt = undefined;
    this.#running = true;
    return batch;
  }

  /**
   * The running batch finished. Changes that arrived meanwhile become due a debounce after
   * now at the earliest, so a burst that straddled the batch is still grouped.
   */
  done(now: number): void {
    this.#running = false;
    if (this.pending) {
      this.#firstAt = Math.max(this.#firstAt ?? now, now - this.maxWaitMs + this.debounceMs);
      this.#lastAt = Math.max(this.#lastAt ?? now, now);
    }
  }
}
