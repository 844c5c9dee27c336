import { describe, expect, it } from 'vitest';
import { earlyWorkers, type WorkersSource } from '../../../src/operations/early-workers.js';
import type { BuildWorkers, KeptBuildWorkers } from '../../../src/site/index.js';

/**
 * A `run`'s build workers: none made unless the pull changed something or the build asks;
 * made once; whatever was made is stopped at the end, even when the run ends (its pull
 * failed) right after the start was asked for.
 */
describe('earlyWorkers', () => {
  /** A site stage whose kept workers record what is done to them. */
  function fakeStage() {
    const log: string[] = [];
    const workers = { close: () => Promise.resolve() } as unknown as BuildWorkers;
    const source: WorkersSource = {
      keptBuildWorkers(): KeptBuildWorkers {
        log.push('made');
        return {
          warm: () => void log.push('warm'),
          take: () => {
            log.push('take');
            return workers;
          },
          close: () => {
            log.push('close');
            return Promise.resolve();
          },
        };
      },
    };
    return { log, source, workers };
  }

  it('makes nothing when neither started nor taken', async () => {
    const { log, source } = fakeStage();
    const early = earlyWorkers(Promise.resolve(source));
    await early.close();
    expect(log).toEqual([]);
  });

  it('warms the workers once when started (twice), hands them to the build, and stops them', async () => {
    const { log, source, workers } = fakeStage();
    const early = earlyWorkers(Promise.resolve(source));
    early.start();
    early.start();
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(log).toEqual(['made', 'warm']);
    expect(early.take()).toBe(workers);
    await early.close();
    expect(log).toEqual(['made', 'warm', 'take', 'close']);
  });

  it('makes the workers when the build asks without a start', async () => {
    const { log, source } = fakeStage();
    const early = earlyWorkers(Promise.resolve(source));
    await new Promise((resolve) => setTimeout(resolve, 0));
    early.take();
    await early.close();
    expect(log).toEqual(['made', 'take', 'close']);
  });

  it('stops workers started just before the run ended (the site stage still loading)', async () => {
    const { log, source } = fakeStage();
    let loadStage: (stage: WorkersSource) => void = () => undefined;
    const early = earlyWorkers(new Promise<WorkersSource>((resolve) => (loadStage = resolve)));
    early.start();
    const closed = early.close();
    loadStage(source);
    await closed;
    expect(log).toEqual(['made', 'warm', 'close']);
  });
});
