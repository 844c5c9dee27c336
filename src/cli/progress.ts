/**
 * Pull progress on stderr: one bar per language × collection on a terminal (cli-progress),
 * one plain line per phase change otherwise (logs, CI). Warnings always get a line.
 */
import cliProgress from 'cli-progress';
import type { PullEvent } from '../index.js';

export interface ProgressReporter {
  readonly onProgress: (event: PullEvent) => void;
  /** Removes the bars (prints nothing more); a second call does nothing. */
  stop(): void;
}

type Stream = NodeJS.WritableStream & { isTTY?: boolean };

export function createProgressReporter(stderr: Stream): ProgressReporter {
  return stderr.isTTY === true ? barReporter(stderr) : lineReporter(stderr);
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

function barReporter(stderr: Stream): ProgressReporter {
  const multibar = new cliProgress.MultiBar(
    {
      stream: stderr as NodeJS.WriteStream,
      format: ' {stream} [{bar}] {value}/{total} {phase}',
      hideCursor: true,
      clearOnComplete: false,
      stopOnComplete: false,
      autopadding: true,
      forceRedraw: false,
    },
    cliProgress.Presets.shades_classic,
  );
  const bars = new Map<string, cliProgress.SingleBar>();
  let stopped = false;
  return {
    onProgress(event) {
      if (event.type === 'warning') {
        multibar.log(`warning: ${event.lang}: ${event.message}\n`);
        return;
      }
      const key = `${event.lang}/${event.collection}`.padEnd(12);
      let bar = bars.get(key);
      if (bar === undefined) {
        bar = multibar.create(1, 0, { stream: key, phase: event.phase });
        bars.set(key, bar);
      }
      if (event.phase === 'done') {
        bar.update(bar.getTotal(), { phase: 'done' });
        return;
      }
      const total = Math.max(event.total ?? 0, event.done, 1);
      bar.setTotal(total);
      bar.update(event.done, { phase: event.phase });
    },
    stop() {
      if (stopped) return;
      stopped = true;
      // Draw the final state (and warnings still buffered) before the bars stop redrawing.
      multibar.update();
      multibar.stop();
    },
  };
}
