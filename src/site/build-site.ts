/**
 * The build runner: one language's static site from a `SiteModel`, incrementally. Each phase
 * is a module of its own:
 *
 * - skip (`freshness.ts`) entirely when the pull changed nothing (or the model digests the
 *   same), the theme is unchanged and every file of the last build is still on disk;
 * - plan (`site-plan.ts`, pure): every output with the digest of its input, the output formats
 *   of `output-formats.ts` among them;
 * - render (`staged-writes.ts`) with Eleventy only the pages whose digest changed or whose file
 *   is missing, while Pagefind (its own process) re-indexes only the search bundles whose
 *   documents changed (`search-outputs.ts`);
 * - write (`build-outputs.ts`, `output-writer.ts`) only files whose bytes changed to a staging
 *   area, and switch it over the output (`output-switch.ts`), deleting what is no longer made.
 */
import { performance } from 'node:perf_hooks';
import { ConfigError } from '../errors.js';
import {
  isCurrentManifest,
  manifestFiles,
  MANIFEST_VERSION,
  type BuildManifest,
  type ManifestFile,
} from './build-manifest.js';
import { isCurrent, keptPages, madeFiles, themePages } from './build-outputs.js';
import { traceFromEnvironment, type BuildTrace } from './build-trace.js';
import { inProcessWorkers, type BuildWorkers, type SearchBundles } from './build-workers.js';
import { RENDER_CHUNK } from './chunked-render.js';
import { layoutDigestOf } from './edit-plan.js';
import { canSkipBuild, modelUnchanged, outputHoldsBuild, sameTheme } from './freshness.js';
import { listOutputFiles, mergeResults, writeOutputs, type WriteResult } from './output-writer.js';
import { openStaging, recoverOutput, stampOf, type Staging } from './output-switch.js';
import { filesByBundle, searchOutputs, staleShards } from './search-outputs.js';
import { SEARCH_DIR } from './search-plan.js';
import type { ChangeSet, SiteModel } from './site-model.js';
import {
  BUILD_VERSION,
  placeSite,
  planPlaced,
  type PlanOptions,
  type SitePlan,
} from './site-plan.js';
import { renderPages, writeYielding, type KnownOutput } from './staged-writes.js';
import { scanTemplates, type TemplatesScan } from './template-files.js';
import { defaultTemplatesDir } from './templates-dir.js';

export interface BuildOptions extends Omit<PlanOptions, 'templatesHash'> {
  /** This language's output directory (`output/pl`). Nothing is written outside it. */
  outDir: string;
  /** The theme. @default the package's `templates/` */
  templatesDir?: string;
  /** The manifest the previous build of this language returned. @default none: a full build */
  previous?: BuildManifest;
  /**
   * What the pull changed. When it changed nothing and the theme did not change, the build is
   * skipped without planning. @default unknown: the model's digest decides
   */
  changed?: ChangeSet;
  /**
   * The files known to be on disk under `outDir`, when the caller knows them cheaply (the last
   * build's record, completed, and its directories still there). Listing twenty thousand
   * files costs a few hundred milliseconds, more than the rest of a one-page build.
   * @default every file under `outDir`, listed
   */
  filesOnDisk?: ReadonlySet<string>;
  /**
   * Where pages render and search bundles are indexed: `startBuildWorkers()` keeps both off
   * this thread (the caller closes them). @default this thread
   */
  workers?: BuildWorkers;
  /**
   * Called before each step that changes the output, with a line naming it (`build-trace.ts`).
   * @default the trace `CMS_MIRROR_BUILD_TRACE` asks for, else none
   */
  trace?: BuildTrace;
  /** Pages per Eleventy run; the pages of one are written while the next renders. @default 1000 */
  renderChunkSize?: number;
}

export interface BuildPhases {
  /** Reading the theme and listing the output directory. */
  scan: number;
  plan: number;
  /** Rendering the changed pages with Eleventy, writing those new to the disk meanwhile. */
  render: number;
  /** Re-indexing the changed search bundles (in Pagefind's process). */
  search: number;
  /** Writing and deleting files, including the wait for the search index. */
  write: number;
}

export interface BuildReport {
  /** Files whose bytes were written. */
  written: number;
  /** Files produced again with the same bytes, or kept as they were. */
  unchanged: number;
  /** Files of the previous build that are no longer produced, deleted. */
  removed: number;
  /** HTML pages in the output. */
  pages: number;
  /** Pages rendered by the templates in this run. */
  rendered: number;
  seconds: number;
  /** Where the time went, in seconds (search runs alongside render and write). */
  phases: BuildPhases;
  /** Nothing changed: nothing was planned, rendered or written. */
  skipped: boolean;
  /** Save it and pass it as `previous` next time. */
  manifest: BuildManifest;
  /** Items left out (unsafe or colliding paths, non-public items given) and similar. */
  warnings: string[];
  writtenFiles: string[];
  removedFiles: string[];
  /** Pages planned (rendered or found current); undefined when nothing was planned. */
  planned?: number;
  /**
   * Where every public item was placed (`layoutDigestOf`), for the next run's edit build;
   * undefined when nothing was planned, or only some pages.
   */
  layoutDigest?: string;
}

/** One language's site from its model (`runBuild` makes the models from the cache). */
export async function buildFromModel(
  model: SiteModel,
  options: BuildOptions,
): Promise<BuildReport> {
  const started = performance.now();
  const workers = options.workers ?? inProcessWorkers;
  const templatesDir = options.templatesDir ?? defaultTemplatesDir();
  const checkedModel = withCheckedPublicUrl(model);
  const templates = scanTemplates(templatesDir);
  // A switch a killed build committed is finished first; its uncommitted staging is dropped.
  const trace = options.trace ?? traceFromEnvironment();
  recoverOutput(options.outDir, trace);
  const { previous, known } = knownOutput(options);
  const changed = options.changed;
  const skipFacts = { previous, templatesHash: templates.hash, onDisk: known.onDisk, changed };
  if (canSkipBuild(skipFacts)) return skippedReport(skipFacts.previous, started);
  const intact = sameTheme(previous, templates.hash, known.onDisk);

  const phases: BuildPhases = {
    scan: secondsSince(started),
    plan: 0,
    render: 0,
    search: 0,
    write: 0,
  };
  const planStarted = performance.now();
  const placed = placeSite(checkedModel, {
    postsPerPage: options.postsPerPage,
    feedSize: options.feedSize,
    searchDocsPerShard: options.searchDocsPerShard,
    search: options.search,
    templatesHash: templates.hash,
  });
  // Pagefind indexes in its own process while the rest is planned, rendered and written.
  const bundleFiles = filesByBundle(known.before);
  const searchStarted = performance.now();
  const searchFiles = workers
    .indexShards(staleShards(placed.search, bundleFiles, known), placed.search.lang)
    .then((files) => {
      phases.search = secondsSince(searchStarted);
      return files;
    });
  // Keep a rejection from going unhandled while the rest is awaited.
  searchFiles.catch(() => undefined);

  const plan = planPlaced(placed);
  if (intact && !changed && modelUnchanged(previous, plan.modelDigest)) {
    // Same digests, files intact: no bundle was stale, nothing is being indexed.
    await searchFiles;
    return { ...skippedReport(previous, started), warnings: plan.warnings };
  }
  phases.plan = secondsSince(planStarted);
  // Every file goes to the staging area first; the output changes only at `commit`.
  const staging = openStaging(options.outDir, trace);
  try {
    const run = { options, templatesDir, templates, plan, known, staging, workers, phases };
    const written = await renderAndWrite(run, { searchFiles, bundleFiles });
    const layout = { planned: plan.jobs.length, layoutDigest: layoutDigestOf(placed) };
    return { ...committed(run, written, started), ...layout };
  } catch (error) {
    staging.discard();
    throw error;
  }
}

/**
 * The previous build, when the folder holds it (its stamp), and the files on disk: listed,
 * unless the caller knows them. Files of a folder no manifest describes are all stale unless
 * made again.
 */
function knownOutput(options: BuildOptions): {
  previous: BuildManifest | undefined;
  known: KnownOutput;
} {
  const given = isCurrentManifest(options.previous) ? options.previous : undefined;
  const ours = given !== undefined && outputHoldsBuild(options.outDir, given);
  const previous = ours ? given : undefined;
  const onDisk = (ours ? options.filesOnDisk : undefined) ?? listOutputFiles(options.outDir);
  const before = given !== undefined && !ours ? unknownFiles(onDisk) : manifestFiles(previous);
  return { previous, known: { before, onDisk } };
}

/** One build past its plan, with its staging open. */
export interface BuildRun {
  options: BuildOptions;
  templatesDir: string;
  templates: TemplatesScan;
  plan: SitePlan;
  known: KnownOutput;
  staging: Staging;
  workers: BuildWorkers;
  phases: BuildPhases;
}

export interface StagedBuild {
  written: WriteResult;
  rendered: number;
  warnings: string[];
}

/** Renders the changed pages, then stages every file, the search bundles last. */
export async function renderAndWrite(
  run: BuildRun,
  search: {
    searchFiles: Promise<SearchBundles>;
    bundleFiles: Map<string, [string, ManifestFile][]>;
  },
): Promise<StagedBuild> {
  const { plan, known, staging, phases } = run;
  let mark = performance.now();
  const toRender = plan.jobs.filter((job) => !isCurrent(known, job.file, job.digest));
  const rendering = await renderPages(
    run.workers,
    { templatesDir: run.templatesDir, global: plan.global, outDir: run.options.outDir },
    toRender,
    { ...known, staging, chunkSize: run.options.renderChunkSize ?? RENDER_CHUNK },
  );
  const warnings = [...plan.warnings, ...rendering.warnings];
  const outputs = [
    ...keptPages(plan, toRender),
    ...themePages(rendering.extras, run, warnings),
    ...madeFiles(plan, run.templates, known),
  ];
  phases.render = secondsSince(mark);
  mark = performance.now();
  // Pages are written while Pagefind may still be indexing; its bundles go last.
  const pagesWritten = mergeResults(
    rendering.staged,
    await writeYielding(staging, outputs, known, rendering.staged.files),
  );
  const rebuilt = await search.searchFiles;
  const searchWritten = writeOutputs(
    staging,
    searchOutputs(plan.search, rebuilt, search.bundleFiles),
    known.before,
    known.onDisk,
    { removeStale: true, alsoProduced: pagesWritten.files },
  );
  // Writing overlaps the search index; this is the wall time from rendered to written.
  phases.write = secondsSince(mark);
  return {
    written: mergeResults(pagesWritten, searchWritten),
    rendered: rendering.rendered,
    warnings,
  };
}

/** Commits the staged files (the switch) and reports. */
function committed(run: BuildRun, staged: StagedBuild, started: number): BuildReport {
  const { written } = staged;
  const manifest: BuildManifest = {
    version: MANIFEST_VERSION,
    buildVersion: BUILD_VERSION,
    templatesHash: run.templates.hash,
    modelDigest: run.plan.modelDigest,
    files: Object.fromEntries(written.files),
  };
  run.staging.commit(written.removedFiles, stampOf(manifest));
  return {
    written: written.written,
    unchanged: written.unchanged,
    removed: written.removed,
    pages: countPages(manifest),
    rendered: staged.rendered,
    seconds: secondsSince(started),
    phases: run.phases,
    skipped: false,
    manifest,
    warnings: staged.warnings,
    writtenFiles: written.writtenFiles,
    removedFiles: written.removedFiles,
  };
}

/** Every file of a folder no manifest describes, as a previous output nothing is known of. */
function unknownFiles(onDisk: ReadonlySet<string>): Map<string, ManifestFile> {
  return new Map([...onDisk].map((file) => [file, { hash: '', input: '', bytes: 0 }]));
}

export function withCheckedPublicUrl(model: SiteModel): SiteModel {
  let url: URL;
  try {
    url = new URL(model.site.publicUrl);
  } catch (error) {
    throw new ConfigError(
      `The public URL ${JSON.stringify(model.site.publicUrl)} of ${model.lang} is not a URL.`,
      { field: 'publicUrl' },
      { cause: error },
    );
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ConfigError(`The public URL ${url.href} of ${model.lang} must be http or https.`, {
      field: 'publicUrl',
    });
  }
  url.search = '';
  url.hash = '';
  if (!url.pathname.endsWith('/')) url.pathname = `${url.pathname}/`;
  return url.href === model.site.publicUrl
    ? model
    : { ...model, site: { ...model.site, publicUrl: url.href } };
}

function countPages(manifest: BuildManifest): number {
  return Object.keys(manifest.files).filter(
    (file) => file.endsWith('.html') && !file.startsWith(`${SEARCH_DIR}/`),
  ).length;
}

function skippedReport(previous: BuildManifest, started: number): BuildReport {
  return {
    written: 0,
    unchanged: Object.keys(previous.files).length,
    removed: 0,
    pages: countPages(previous),
    rendered: 0,
    seconds: secondsSince(started),
    phases: { scan: secondsSince(started), plan: 0, render: 0, search: 0, write: 0 },
    skipped: true,
    manifest: previous,
    warnings: [],
    writtenFiles: [],
    removedFiles: [],
  };
}

function secondsSince(started: number): number {
  return Math.round(performance.now() - started) / 1000;
}
