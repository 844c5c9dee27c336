/**
 * A worker thread's young generation is its own (issue 17): a search worker, which allocates
 * little, is started with a small one while the render worker keeps a large one. Nothing a
 * build sets for the whole process (`limitHeapGrowth`) may override the limit a worker is
 * started with: V8's `--max-semi-space-size` would, for every thread.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { limitHeapGrowth } from '../../../src/site/heap-growth.js';
import { startWorkerCalls, type WorkerCalls } from '../../../src/worker-calls.js';

const entry = new URL('../../helpers/site/young-churn-worker.js', import.meta.url);
const MB = 1024 * 1024;
let started: WorkerCalls<undefined, number>[] = [];

afterEach(async () => {
  await Promise.all(started.map((worker) => worker.close()));
  started = [];
});

function churn(maxYoungGenerationSizeMb?: number): Promise<number> {
  const worker = startWorkerCalls<undefined, number>(
    entry,
    maxYoungGenerationSizeMb === undefined ? {} : { resourceLimits: { maxYoungGenerationSizeMb } },
  );
  started.push(worker);
  return worker.call(undefined);
}

describe('a worker started with a young generation limit', () => {
  it('keeps its young generation within it after the build limits heap growth', async () => {
    limitHeapGrowth();
    const [small, large] = await Promise.all([churn(6), churn(48)]);
    // 6 MB of young generation is two 2 MB semi-spaces (and room for large objects) in Node 20
    // and 22, whose new space then stays at 4 MB; Node 24's V8 sizes it in pages and was seen
    // at 4.25-6.25 MB. Unlimited, the same churn reaches 32 MB (Node 20, 22) or 128 MB (24).
    expect(small).toBeLessThanOrEqual(8 * MB);
    // The same churn grows a worker allowed more well past that.
    expect(large).toBeGreaterThanOrEqual(16 * MB);
  }, 60_000);
});
