/**
 * Pull progress on stderr: one bar per language × collection on a terminal (cli-progress,
 * `progress-bars.ts`), one plain line per phase change otherwise (logs, CI, a scheduled run).
 * Warnings always get a line.
 */
import type { PullEvent } from '../index.js';

export interface ProgressReporter {
  readonly onProgress: (event: PullEvent) => void;
  /** Removes the bars (prints nothing more); a second call does nothing. */
  stop(): void;
}

export type Stream = NodeJS.WritableStream & { isTTY?: boolean };

/**
 * The bars' code (cli-progress and the string-width modules it loads, ~43 KB of the bundle and
 * Node's readline) is loaded only for a terminal: a scheduled run has none, and loading it cost
 * ~0.02 s of CPU there (test/bench/RESULTS.md, i-noop3).
 */
export async function createProgressReporter(stderr: Stream): Promise<ProgressReporter> {
  if (stderr.isTTY !== true) return lineReporter(stderr);
  const { barReporter } = await import('./progress-bars.js');
  return barReporter(stderr);
}

function lineReporter(stderr: Stream): ProgressReporter {
  const phases = new Map<string, string>();
  const stored = new Map<string, number>();
  return {
    onProgress(event) {
      if (event.type === 'warning') {
        stderr.write(`warning: ${event.lang}: ${event.message}\n`);
        return;
      }
      if (event.type !== 'progress') return;
      const key = `${event.lang}/${event.collection}`;
      if (event.phase === 'crawl') stored.set(key, event.done);
      if (phases.get(key) === event.phase) return;
      phases.set(key, event.phase);
      const detail =
        event.phase === 'done'
          ? ` (${stored.get(key) ?? 0} items read)`
          : event.phase === 'crawl' && event.total !== undefined
            ? ` (${event.total} to read)`
            : '';
      stderr.write(`${key}: ${event.phase}${detail}\n`);
    },
    stop() {},
  };
}
