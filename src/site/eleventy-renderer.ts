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
import type { EleventyPageResult, EleventyUserConfig } from '@11ty/eleventy';
import { InputError, UnsafePathError } from '../errors.js';
import { relativeSitePath } from '../transform/index.js';
import { safeRelativeFile } from './safe-output-path.js';
import { NunjucksCompileCache, type CompiledTemplates } from './nunjucks-compile-cache.js';
import { JOB_KINDS, type CmsGlobalData, type Job, type JobKind } from './template-data.js';

const JOB_PERMALINK = /^\/_cms-job\/(\d+)\/(?:index\.html)?$/;

/**
 * Template formats a theme may use; the default theme is Nunjucks. Markdown and plain HTML
 * are left out on purpose: a theme's README.md or an HTML snippet under `assets/` must not
 * turn into pages.
 */
const TEMPLATE_FORMATS = ['njk', '11ty.js', 'liquid'];

export interface RenderInput {
  templatesDir: string;
  global: Omit<CmsGlobalData, 'jobs'>;
  jobs: readonly Job[];
  /** Directory given to Eleventy as its output (nothing is written there). */
  outDir: string;
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

/**
 * A renderer for a thread that renders run after run (the render worker): Nunjucks' compiled
 * templates are kept from one of its runs to the next (`nunjucks-compile-cache.ts`), it takes
 * those an input brings from earlier processes, and each result hands back those it compiled.
 * Its runs must not overlap (`one-at-a-time.ts`).
 */
export function jobRenderer(): RenderJobs {
  const compiles = new NunjucksCompileCache();
  return async (input) => {
    if (input.compiled !== undefined) compiles.adopt(input.compiled);
    const result = await renderJobs(input, compiles);
    return { ...result, compiled: compiles.takeCompiled() };
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

  // Loaded on first use: importing Eleventy takes about half a second, which a run that
  // renders nothing (nothing changed) should not pay.
  const { default: Eleventy } = await import('@11ty/eleventy');
  const eleventy = new Eleventy(input.templatesDir, input.outDir, {
    configPath: false,
    quietMode: true,
    config(config: EleventyUserConfig) {
      config.setUseGitIgnore(false);
      // Eleventy caches template files per process, across instances: a theme edited while
      // `watch` runs would otherwise render from the stale copy.
      config.setUseTemplateCache(false);
      config.setTemplateFormats(TEMPLATE_FORMATS);
      // Eleventy reads ignore globs relative to the working directory.
      const assets = path
        .relative(process.cwd(), path.join(input.templatesDir, 'assets'))
        .split(path.sep)
        .join('/');
      config.ignores.add(`${assets}/**`);
      config.addGlobalData('cms', cms);
      config.addFilter('relUrl', ((to: string, from: string) =>
        relativeSitePath(from, to)) as never);
    },
  });

  let results: EleventyPageResult[];
  try {
    results = await (compiles ? compiles.around(() => eleventy.toJSON()) : eleventy.toJSON());
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
