/**
 * Renders a build's pages in chunks, so that this thread writes one chunk's pages while the
 * renderer works on the next: one Eleventy run over every page returns nothing until the
 * last page is done, and writing would wait for all of it. Chunks are small Eleventy runs of
 * their own (its fixed cost per run is a few milliseconds; smaller heaps even collect faster),
 * and the next chunk is always queued before the current one is handed out, so the renderer
 * never waits for this thread.
 */
import type { RenderInput, RenderResult } from './eleventy-renderer.js';
import type { PlannedJob } from './site-plan.js';

/** Pages per Eleventy run. */
export const RENDER_CHUNK = 1000;

/** Chunks sent to the renderer before the first comes back. */
const CHUNKS_AHEAD = 2;

export interface RenderedChunk {
  jobs: readonly PlannedJob[];
  result: RenderResult;
}

/**
 * Yields every chunk's rendered pages in order (`result.pages[i]` is `jobs[i]`'s page). Each
 * chunk's result also carries the theme's own pages (`extras`), rendered with every run.
 */
export async function* renderInChunks(
  render: (input: RenderInput) => Promise<RenderResult>,
  base: Omit<RenderInput, 'jobs'>,
  jobs: readonly PlannedJob[],
  chunkSize: number = RENDER_CHUNK,
): AsyncGenerator<RenderedChunk> {
  const chunks: PlannedJob[][] = [];
  for (let start = 0; start < jobs.length; start += chunkSize) {
    chunks.push(jobs.slice(start, start + chunkSize));
  }
  const send = (chunk: readonly PlannedJob[]): Promise<RenderResult> => {
    const result = render({ ...base, jobs: chunk.map((planned) => planned.job()) });
    // Awaited in order below; a chunk that fails while an earlier one is awaited must not
    // count as unhandled.
    result.catch(() => undefined);
    return result;
  };
  // A queue, not a list kept whole: a chunk's rendered pages are let go once handed out, so
  // no more than CHUNKS_AHEAD + 1 chunks of HTML are held whatever the site's size.
  const inFlight = chunks.slice(0, CHUNKS_AHEAD).map(send);
  for (let index = 0; index < chunks.length; index++) {
    const result = await (inFlight.shift() as Promise<RenderResult>);
    const ahead = chunks[index + CHUNKS_AHEAD];
    if (ahead) inFlight.push(send(ahead));
    yield { jobs: chunks[index] as PlannedJob[], result };
  }
}
