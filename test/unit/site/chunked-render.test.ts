/**
 * Rendering in chunks keeps a bounded number of chunks' pages in memory: a chunk's rendered
 * HTML is let go once it has been handed out, whatever the number of chunks (issue 17: every
 * page of a 100,000-post site was held until the last chunk was written).
 */
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { renderInChunks } from '../../../src/site/chunked-render.js';
import type { RenderInput } from '../../../src/site/eleventy-renderer.js';
import type {
  StagedRenderInput,
  StagedRenderResult,
  StageTarget,
} from '../../../src/site/page-staging.js';
import type { PlannedJob } from '../../../src/site/site-plan.js';
import type { Job } from '../../../src/site/template-data.js';

setFlagsFromString('--expose-gc');
const collect = runInNewContext('gc') as () => void;

function plannedJobs(count: number): PlannedJob[] {
  return Array.from({ length: count }, (_, index) => ({
    kind: 'post' as const,
    file: `p/${index}/index.html`,
    digest: String(index),
    job: () => ({ file: `p/${index}/index.html` }) as unknown as Job,
  }));
}

const base: Omit<RenderInput, 'jobs'> = {
  templatesDir: '/nowhere',
  global: { lang: 'pl', locale: 'pl', site: { name: '', description: '', publicUrl: 'http://x/' } },
  outDir: '/nowhere',
};

/** Where the chunks' pages would be staged: nothing is written by these fake renders. */
const stageOf = (chunk: readonly PlannedJob[]): StageTarget => ({
  root: '/nowhere',
  dir: '/nowhere',
  files: chunk.map((planned) => planned.file),
  previous: chunk.map(() => undefined),
});

describe('renderInChunks', () => {
  it('yields every page in order, chunk by chunk', async () => {
    const render = (input: StagedRenderInput): Promise<StagedRenderResult> =>
      Promise.resolve({
        pages: input.stage.files.map((file) => ({ hash: file, bytes: 1, written: true })),
        extras: new Map(),
        warnings: [],
      });
    const pages: string[] = [];
    for await (const { jobs, result } of renderInChunks(
      render,
      base,
      plannedJobs(25),
      stageOf,
      10,
    )) {
      expect(result.pages).toHaveLength(jobs.length);
      pages.push(...result.pages.map((page) => page.hash));
    }
    expect(pages).toEqual(Array.from({ length: 25 }, (_, i) => `p/${i}/index.html`));
  });

  it('lets go of a chunk once handed out: earlier chunks can be collected', async () => {
    const results: WeakRef<object>[] = [];
    const render = (input: StagedRenderInput): Promise<StagedRenderResult> => {
      const result: StagedRenderResult = {
        pages: input.jobs.map(() => ({ hash: 'x'.repeat(1000), bytes: 1000, written: true })),
        extras: new Map(),
        warnings: [],
      };
      results.push(new WeakRef(result));
      return Promise.resolve(result);
    };
    const chunks = 12;
    let seen = 0;
    for await (const _chunk of renderInChunks(render, base, plannedJobs(chunks * 5), stageOf, 5)) {
      seen++;
      if (seen !== chunks - 1) continue;
      // Past this turn, only the chunk in hand and those queued ahead may still be held.
      await new Promise((resolve) => setImmediate(resolve));
      collect();
      const alive = results.filter((ref) => ref.deref() !== undefined).length;
      expect(results).toHaveLength(chunks);
      expect(alive).toBeLessThanOrEqual(3);
    }
    expect(seen).toBe(chunks);
  });
});
