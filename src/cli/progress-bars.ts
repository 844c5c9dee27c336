/** Pull progress as bars on a terminal: one per language × collection (see progress.ts). */
import cliProgress from 'cli-progress';
import type { ProgressReporter, Stream } from './progress.js';

export function barReporter(stderr: Stream): ProgressReporter {
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
      if (event.type !== 'progress') return;
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
