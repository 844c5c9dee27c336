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
 * rendered with every run.
 */
export async function* renderInChunks(
  render: (input: StagedRenderInput) => Promise<StagedRenderResult>,
  base: Omit<RenderInput, 'jobs'>,
  jobs: readonly PlannedJob[],
  stageOf: (chunk: readonly PlannedJob[]) => StageTarget,
  chunkSize: number = RENDER_CHUNK,
): AsyncGenerator<RenderedChunk> {
  const chunks: PlannedJob[][] = [];
  for (let start = 0; start < jobs.length; start += chunkSize) {
    chunks.push(jobs.slice(start, start + chunkSize));
  }
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
  // A queue, not a list kept whole: a chunk's rendered pages are let go once handed out, so
  // no more than CHUNKS_AHEAD + 1 chunks of HTML are held whatever the site's size.
  const inFlight = chunks.slice(0, CHUNKS_AHEAD).map(send);
  try {
    for (let index = 0; index < chunks.length; index++) {
      const result = await (inFlight.shift() as Promise<StagedRenderResult>);
      const ahead = chunks[index + CHUNKS_AHEAD];
      if (ahead) inFlight.push(send(ahead));
      yield { jobs: chunks[index] as PlannedJob[], result };
    }
  } finally {
    // A chunk queued behind one that failed still renders and stages its pages: the build
    // discards its staging only once nothing can write there any more (nor into the staging
    // of the next build, which has the same place).
    await Promise.allSettled(inFlight);
  }
}
