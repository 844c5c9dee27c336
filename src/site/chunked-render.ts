/**
 * Renders a build's pages in chunks, each staged by the thread that rendered it
 * (`page-staging.ts`): one Eleventy run over every page would hold every page until the last
 * is done. Chunks are small Eleventy runs of their own (smaller heaps collect faster), and the
 * next chunk is always queued before the current one is handed out, so the renderer
 * never waits for this thread.
 */
import type { RenderInput } from './eleventy-renderer.js';
import type { StagedRenderInput, StagedRenderResult, StageTarget } from './page-staging.js';
import type { PlannedJob } from './site-plan.js';

/**
 * Pages per Eleventy run. The render worker's heap grows with a run's pages (its peak ~140 MB
 * at 500 against ~160–190 MB at 1,000; the build's peak RSS at 49,595 posts 446 against
 * ~506 MB, for ~8 % more CPU: test/bench/RESULTS.md, i-stream2).
 */
export const RENDER_CHUNK = 500;

/** Chunks sent to the renderer before the first comes back. */
const CHUNKS_AHEAD = 2;

export interface RenderedChunk {
  jobs: readonly PlannedJob[];
  result: StagedRenderResult;
}

/**
 * Yields every chunk's staged pages in order (`result.pages[i]` is `jobs[i]`'s page), staged
 * where `stageOf` says. Each chunk's result also carries the theme's own pages (`extras`),
 * rendered with every run. The jobs are taken from `jobs` a chunk at a time, as the renderer
 * asks for them: a plan's jobs are made as they are walked (`planned-jobs.ts`), and only the
 * chunks in flight are held.
 */
export async function* renderInChunks(
  render: (input: StagedRenderInput) => Promise<StagedRenderResult>,
  base: Omit<RenderInput, 'jobs'>,
  jobs: Iterable<PlannedJob>,
  stageOf: (chunk: readonly PlannedJob[]) => StageTarget,
  chunkSize: number = RENDER_CHUNK,
): AsyncGenerator<RenderedChunk> {
  const pending = jobs[Symbol.iterator]();
  const nextChunk = (): PlannedJob[] => {
    const chunk: PlannedJob[] = [];
    while (chunk.length < chunkSize) {
      const next = pending.next();
      if (next.done === true) break;
      chunk.push(next.value);
    }
    return chunk;
  };
  const send = (chunk: readonly PlannedJob[]): Promise<StagedRenderResult> => {
    const result = render({
      ...base,
      jobs: chunk.map((planned) => planned.job()),
      stage: stageOf(chunk),
    });
    // Awaited in order below; a chunk that fails while an earlier one is awaited must not
    // count as unhandled.
    result.catch(() => undefined);
    return result;
  };
  // A queue, not a list kept whole: a chunk's jobs and rendered pages are let go once handed
  // out, so no more than CHUNKS_AHEAD + 1 chunks are held whatever the site's size.
  const inFlight: { jobs: PlannedJob[]; result: Promise<StagedRenderResult> }[] = [];
  const queue = (): void => {
    const chunk = nextChunk();
    if (chunk.length > 0) inFlight.push({ jobs: chunk, result: send(chunk) });
  };
  try {
    for (let ahead = 0; ahead < CHUNKS_AHEAD; ahead++) queue();
    for (let head = inFlight.shift(); head !== undefined; head = inFlight.shift()) {
      const result = await head.result;
      queue();
      yield { jobs: head.jobs, result };
    }
  } finally {
    // A chunk queued behind one that failed still renders and stages its pages: the build
    // discards its staging only once nothing can write there any more (nor into the staging
    // of the next build, which has the same place).
    await Promise.allSettled(inFlight.map((chunk) => chunk.result));
  }
}
