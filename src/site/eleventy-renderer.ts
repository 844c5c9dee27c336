/**
 * Renders the jobs of one build with Eleventy 3's programmatic API, in memory (`toJSON()`):
 * the build writes files itself, comparing hashes, so unchanged pages keep their bytes and
 * mtime. Only the jobs given are rendered, which is what makes an incremental run cheap.
 *
 * Jobs reach the theme as the `cms` global. Each job gets an opaque, ASCII-only permalink
 * (`/_cms-job/17/index.html`) that the theme uses as its `permalink`; results are matched back
 * by it, so no slug ever passes through Eleventy's permalink handling (which would escape
 * `&` or `'` as HTML).
 */
import path from 'node:path';
import type { EleventyPageResult } from '@11ty/eleventy';
import { InputError, UnsafePathError } from '../errors.js';
import { safeRelativeFile } from './safe-output-path.js';
import { NunjucksCompileCache, type CompiledTemplates } from './nunjucks-compile-cache.js';
import { JOB_KINDS, type CmsGlobalData, type Job, type JobKind } from './template-data.js';
import { startEleventyRun, type EleventyRun, type RenderTarget } from './eleventy-run.js';
import { themeDigest } from './template-files.js';

const JOB_PERMALINK = /^\/_cms-job\/(\d+)\/(?:index\.html)?$/;

export interface RenderInput extends RenderTarget {
  global: Omit<CmsGlobalData, 'jobs'>;
  jobs: readonly Job[];
  /**
   * The theme's code compiled by earlier processes (the cache file's `nunjucks_compiles`),
   * for a renderer that keeps compiled code (`jobRenderer`); others compile as they would.
   */
  compiled?: CompiledTemplates | undefined;
}

export interface RenderResult {
  /** Rendered HTML by index into `jobs`. */
  pages: string[];
  /**
   * Pages the theme renders on its own (a template that does not paginate over jobs),
   * by file relative to the language root.
   */
  extras: Map<string, string>;
  warnings: string[];
  /** Code this renderer compiled (not given it) since its last result, to keep for others. */
  compiled?: CompiledTemplates | undefined;
}

export type RenderJobs = (input: RenderInput) => Promise<RenderResult>;

/** A renderer that can start its next Eleventy run before the jobs come (`prepare`). */
export interface JobRenderer {
  readonly render: RenderJobs;
  /**
   * Starts the next run for `target` now: Eleventy's config, the theme's walk and front matter
   * are done while the caller still plans its pages, and the next `render` of the same target
   * only gives the run its jobs. Ignored while a prepared run waits. Resolves once the
   * prepared run waits for its jobs (`EleventyRun.waiting`); nothing needs to wait for that.
   */
  prepare(target: RenderTarget): Promise<void>;
}

/** A run started by `prepare`, with the theme's digest as it was when the run started. */
interface PreparedRun {
  run: EleventyRun;
  theme: string | undefined;
}

/**
 * A renderer for a thread that renders run after run (the render worker): Nunjucks' compiled
 * templates are kept from one of its runs to the next (`nunjucks-compile-cache.ts`), it takes
 * those an input brings from earlier processes, and each result hands back those it compiled.
 * Its runs must not overlap (`one-at-a-time.ts`), and `prepare` must not be called while one
 * renders.
 *
 * A prepared run is used only if the theme is as it was when the run started (its digest then
 * and at the request, `themeDigest`), so that a theme edited in between (`watch`) never renders
 * from what Eleventy read before; otherwise, or for another target, it is cancelled and the
 * request starts a run of its own.
 */
export function jobRenderer(): JobRenderer {
  const compiles = new NunjucksCompileCache();
  let prepared: PreparedRun | undefined;
  const takePrepared = async (target: RenderTarget): Promise<EleventyRun | undefined> => {
    const taken = prepared;
    prepared = undefined;
    if (taken === undefined) return undefined;
    const { run, theme } = taken;
    if (
      run.target.templatesDir === target.templatesDir &&
      run.target.outDir === target.outDir &&
      theme !== undefined &&
      theme === themeDigest(target.templatesDir)
    ) {
      return run;
    }
    await run.cancel();
    return undefined;
  };
  return {
    async render(input) {
      if (input.compiled !== undefined) compiles.adopt(input.compiled);
      const run = (await takePrepared(input)) ?? startEleventyRun(input, compiles);
      const result = await finishRun(run, input);
      return { ...result, compiled: compiles.takeCompiled() };
    },
    prepare(target) {
      if (prepared === undefined) {
        // Taken before Eleventy reads anything of the theme.
        const theme = themeDigest(target.templatesDir);
        prepared = { run: startEleventyRun(target, compiles), theme };
      }
      return prepared.run.waiting;
    },
  };
}

/**
 * Renders the jobs in one Eleventy run; with `compiles`, Nunjucks' compiled code is taken from
 * and kept in it.
 *
 * @throws {InputError} `E_INPUT` (naming the templates directory) when a template fails, or
 *   when the theme renders no page for some job (a missing `cms.jobs.*` pagination).
 */
export async function renderJobs(
  input: RenderInput,
  compiles?: NunjucksCompileCache,
): Promise<RenderResult> {
  return finishRun(startEleventyRun(input, compiles), input);
}

/** Gives `run` the input's jobs (`RenderInput.jobs`) and sorts what it renders. */
async function finishRun(run: EleventyRun, input: RenderInput): Promise<RenderResult> {
  const byKind = Object.fromEntries(JOB_KINDS.map((kind) => [kind, [] as Job[]])) as Record<
    JobKind,
    Job[]
  >;
  const jobs = input.jobs.map((job, index) => ({
    ...job,
    permalink: `/_cms-job/${index}/index.html`,
  }));
  for (const job of jobs) byKind[job.kind].push(job);
  const cms: CmsGlobalData = { ...input.global, jobs: byKind };

  let results: EleventyPageResult[];
  try {
    results = await run.finish(cms);
  } catch (error) {
    throw new InputError(
      input.templatesDir,
      `The templates in ${input.templatesDir} failed to render: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }

  const { pages, extras, warnings } = sortResults(results, jobs.length, input.outDir);
  const missing = jobs.filter((_, index) => pages[index] === undefined);
  if (missing.length > 0) {
    const kinds = [...new Set(missing.map((job) => job.kind))].join(', ');
    throw new InputError(
      input.templatesDir,
      `The templates in ${input.templatesDir} rendered no page for ${missing.length} job(s) of kind ${kinds}: ` +
        `a template must paginate over cms.jobs.<kind> with size 1, alias job and permalink "{{ job.permalink }}".`,
    );
  }
  return { pages: pages as string[], extras, warnings };
}

/** Each job's page by its permalink; any other page is the theme's own (if its path is safe). */
function sortResults(
  results: readonly EleventyPageResult[],
  jobCount: number,
  outDir: string,
): { pages: (string | undefined)[]; extras: Map<string, string>; warnings: string[] } {
  const pages: (string | undefined)[] = new Array(jobCount);
  const extras = new Map<string, string>();
  const warnings: string[] = [];
  for (const result of results) {
    const match = typeof result.url === 'string' ? JOB_PERMALINK.exec(result.url) : null;
    if (match) {
      pages[Number(match[1])] = result.content;
      continue;
    }
    if (typeof result.outputPath !== 'string') continue;
    const file = path
      .relative(path.resolve(outDir), path.resolve(result.outputPath))
      .split(path.sep)
      .join('/');
    try {
      safeRelativeFile(outDir, file);
    } catch (error) {
      if (!(error instanceof UnsafePathError)) throw error;
      warnings.push(`${result.inputPath} left out: ${error.message}`);
      continue;
    }
    extras.set(file, result.content);
  }
  return { pages, extras, warnings };
}
