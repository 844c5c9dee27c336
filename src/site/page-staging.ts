/**
 * Stages a chunk of rendered pages from the thread that rendered them: each page is encoded,
 * hashed and, unless the previous build's file on disk has the same bytes, written into the
 * build's staging directory (`output-switch.ts`). Only what the manifest needs (hash, size,
 * written or not) goes back to the build's thread: cloning every page's HTML across threads
 * cost more than writing it, and the build's thread then encoded and hashed it again.
 */
import { renderJobs, type RenderInput, type RenderJobs } from './eleventy-renderer.js';
import type { RenderTarget } from './eleventy-run.js';
import { stageBytes } from './staged-file.js';
import type { CompiledTemplates } from './nunjucks-compile-cache.js';

/** Where a chunk's pages go. */
export interface StageTarget {
  /** The language root, against which every file is checked. */
  root: string;
  /** The build's staging directory (`Staging.dir`): the root's image until the commit. */
  dir: string;
  /** Each job's file, relative to the root, forward slashes. */
  files: readonly string[];
  /** Each job's previous bytes' hash, when the previous build's file is on disk. */
  previous: readonly (string | undefined)[];
}

export interface StagedRenderInput extends RenderInput {
  stage: StageTarget;
}

export interface StagedPage {
  hash: string;
  bytes: number;
  /** False when the previous file on disk has the same bytes: nothing was written. */
  written: boolean;
}

export interface StagedRenderResult {
  /** By index into `jobs`. */
  pages: StagedPage[];
  /** The theme's own pages (see `RenderResult.extras`), returned as rendered. */
  extras: Map<string, string>;
  warnings: string[];
  /** See `RenderResult.compiled`. */
  compiled?: CompiledTemplates | undefined;
}

/**
 * What the render worker is asked: a chunk to render and stage, or to start its next Eleventy
 * run for a target before that chunk comes (`JobRenderer.prepare`), answered with null at once.
 */
export type RenderWorkerRequest = StagedRenderInput | { prepare: RenderTarget };

/**
 * Renders the jobs (with `render`: by default `renderJobs`, a fresh Eleventy run that keeps
 * nothing) and stages their pages.
 *
 * @throws {InputError} as `renderJobs`; nothing is staged then.
 */
export async function renderAndStage(
  input: StagedRenderInput,
  render: RenderJobs = renderJobs,
): Promise<StagedRenderResult> {
  const { stage, ...jobs } = input;
  const result = await render(jobs);
  const made = new Set<string>();
  const pages: StagedPage[] = [];
  for (let index = 0; index < result.pages.length; index++) {
    pages.push(stagePage(stage, index, result.pages[index] as string, made));
    // The page's text is garbage from here on.
    result.pages[index] = '';
  }
  return {
    pages,
    extras: result.extras,
    warnings: result.warnings,
    compiled: result.compiled,
  };
}

function stagePage(stage: StageTarget, index: number, html: string, made: Set<string>): StagedPage {
  const file = stage.files[index];
  if (file === undefined) throw new Error(`Internal error: no file for job ${index}.`);
  return stageBytes(stage, file, Buffer.from(html, 'utf8'), stage.previous[index], made);
}
