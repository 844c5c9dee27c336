/**
 * The build workers of one `run`: started as soon as its pull stores a changed item (so that
 * the render worker's import of Eleventy, ~1 s of CPU, overlaps the rest of the pull and the
 * transform), or by the build when it first needs them; stopped once the run is over.
 */
import type { KeptBuildWorkers, BuildWorkers } from '../site/index.js';

/** What the workers are made from: the site stage, loading (only `keptBuildWorkers` is used). */
export interface WorkersSource {
  readonly keptBuildWorkers: () => KeptBuildWorkers;
}

/** The run's build workers: started early by `start`, or by the build when it needs them. */
export interface EarlyWorkers {
  /** Starts the workers once the site stage is loaded (at most once). */
  start(): void;
  /** The workers for the build (started now if `start` has not yet). */
  readonly take: () => BuildWorkers;
  /** Stops whatever was started, once the build is over (or the pull failed). */
  close(): Promise<void>;
}

export function earlyWorkers(siteStage: Promise<WorkersSource>): EarlyWorkers {
  let stage: WorkersSource | undefined;
  const loaded = siteStage.then((module) => {
    stage = module;
  });
  loaded.catch(() => undefined);
  let kept: KeptBuildWorkers | undefined;
  const keptWorkers = (): KeptBuildWorkers => {
    // The build has loaded the site stage (the same module) before it asks for workers.
    if (stage === undefined) throw new Error('the site stage is not loaded');
    return (kept ??= stage.keptBuildWorkers());
  };
  let starting: Promise<void> | undefined;
  return {
    start() {
      // A failure to load fails again, reported, in the build.
      starting ??= loaded.then(() => keptWorkers().warm()).catch(() => undefined);
    },
    // A run builds once: its render worker stops as soon as the build's pages are rendered.
    take: () => keptWorkers().take({ last: true }),
    async close() {
      await starting;
      await kept?.close();
    },
  };
}
