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
import { MANIFEST_VERSION, type ManifestHeader, type ManifestRows } from './build-manifest.js';
import { isCurrent, madeFiles, themePages } from './build-outputs.js';
import { traceFromEnvironment, type BuildTrace } from './build-trace.js';
import { inProcessWorkers, type BuildWorkers, type SearchBundles } from './build-workers.js';
import { RENDER_CHUNK } from './chunked-render.js';
import { layoutDigestOf } from './edit-plan.js';
import { placementRecord, type RecordedPlacement } from './stored-placement.js';
import { modelUnchanged, pullChangedNothing, sameThemeAndFiles } from './freshness.js';
import { knownOutput, type KnownBuild } from './known-output.js';
import { mergeResults, writeOutputs, type OutputSpec, type WriteResult } from './output-writer.js';
import { openStaging, recoverOutput, stampOf, type Staging } from './output-switch.js';
import { secondsSince } from './phase-time.js';
import { searchOutputs, type BundleFiles } from './search-outputs.js';
import { indexAndStage, type StreamedSearch } from './streamed-search.js';
import { SEARCH_DIR } from './search-plan.js';
import type { ChangeSet, SiteModel } from './site-model.js';
import {
  BUILD_VERSION,
  placeSite,
  planPlaced,
  type PlannedJob,
  type PlanOptions,
  type SitePlan,
} from './site-plan.js';
import { renderPages, writeYielding, type KnownOutput, type RowsTarget } from './staged-writes.js';
import type { StoredRecord } from './stored-manifest.js';
import { scanTemplates, type TemplatesScan } from './template-files.js';
import { defaultTemplatesDir } from './templates-dir.js';

export interface BuildOptions extends Omit<PlanOptions, 'templatesHash'> {
  /** This language's output directory (`output/pl`). Nothing is written outside it. */
  outDir: string;
  /** The theme. @default the package's `templates/` */
  templatesDir?: string;
  /**
   * The last build's record and this build's rows, in the cache (`stored-manifest.ts`): no
   * manifest is held in memory, and the report's manifest has no files (the caller records the
   * staged rows: `recordStoredBuild`).
   */
  stored: StoredRecord;
  /**
   * What the pull changed. When it changed nothing and the theme did not change, the build is
   * skipped without planning. @default unknown: the model's digest decides
   */
  changed?: ChangeSet;
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
  /** Pages per Eleventy run; the pages of one are written while the next renders. @default 500 */
  renderChunkSize?: number;
  /**
   * Called once the pages are rendered, before the search bundles are awaited (`renders`), and
   * once the bundles are indexed, before they are staged and committed (`bundles`).
   */
  finished?: BuildFinished | undefined;
}

/** What a build is done with: its renders, or its search bundles. */
export type BuildFinished = (what: 'renders' | 'bundles') => void;

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
  /** What the build was made from; its files are in the cache (`recordStoredBuild`). */
  manifest: ManifestHeader;
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
  /** Where every post was placed (`stored-placement.ts`); undefined as `layoutDigest` is. */
  placement?: RecordedPlacement;
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
  const build = knownOutput(options.outDir, options.stored);
  const { previous, known } = build;
  const changed = options.changed;
  const intact = sameThemeAndFiles(previous, templates.hash, known.before, known.onDisk);
  if (intact && pullChangedNothing(changed)) return skippedReport(build, previous, started);

  const phases: BuildPhases = {
    scan: secondsSince(started),
    plan: 0,
    render: 0,
    search: 0,
    write: 0,
  };
  // Every file goes to the staging area first; the output changes only at `commit`. Opened
  // before indexing starts: each search bundle is staged as soon as it is built.
  const staging = openStaging(options.outDir, trace, build.rows.listWritten);
  let search: StreamedSearch | undefined;
  try {
    const planStarted = performance.now();
    const placed = placeSite(checkedModel, {
      postsPerPage: options.postsPerPage,
      feedSize: options.feedSize,
      searchDocsPerShard: options.searchDocsPerShard,
      searchMaxDocsPerShard: options.searchMaxDocsPerShard,
      search: options.search,
      templatesHash: templates.hash,
      heldPosts: options.heldPosts,
    });
    // Pagefind indexes in its own process while the rest is planned, rendered and written.
    search = indexAndStage({ workers, known, staging, rows: build.rows, phases }, placed.search);
    const plan = planPlaced(placed);
    if (intact && !changed && modelUnchanged(previous, plan.modelDigest)) {
      // Same digests, files intact: no bundle was stale, nothing is being indexed.
      await search.searchFiles;
      staging.discard();
      return { ...skippedReport(build, previous, started), warnings: plan.warnings };
    }
    phases.plan = secondsSince(planStarted);
    const { rows } = build;
    const run = { options, templatesDir, templates, plan, known, staging, workers, phases, rows };
    const written = await renderAndWrite(run, search);
    const layout = {
      planned: plan.jobs.length,
      layoutDigest: layoutDigestOf(placed),
      placement: placementRecord(placed),
    };
    return { ...committed(run, written, started, build.stored), ...layout };
  } catch (error) {
    search?.stop();
    staging.discard();
    throw error;
  }
}

/** One build past its plan, with its staging open. */
export interface BuildRun {
  options: Pick<BuildOptions, 'outDir' | 'renderChunkSize' | 'finished'>;
  templatesDir: string;
  templates: TemplatesScan;
  plan: SitePlan;
  known: KnownOutput;
  staging: Staging;
  workers: BuildWorkers;
  phases: BuildPhases;
  /** Where the build's rows go: the cache's staged rows, or an edit build's `Map`. */
  rows: RowsTarget;
}

export interface StagedBuild {
  written: WriteResult<ManifestRows>;
  rendered: number;
  warnings: string[];
}

/** Renders the changed pages, then stages every file, the search bundles last. */
export async function renderAndWrite(
  run: BuildRun,
  search: {
    searchFiles: Promise<SearchBundles>;
    bundleFiles: BundleFiles;
    /** Bundles staged as they were built (`indexAndStage`): not staged again. */
    streamed?: { indexes: ReadonlySet<number>; results: readonly WriteResult<ManifestRows>[] };
  },
): Promise<StagedBuild> {
  const { plan, known, staging, phases, rows } = run;
  let mark = performance.now();
  // The jobs are walked once, a chunk at a time as the renderer takes them: those current are
  // kept as they are, the others rendered; no list of every job is made.
  const kept: OutputSpec[] = [];
  const rendering = await renderPages(
    run.workers,
    { templatesDir: run.templatesDir, global: plan.global, outDir: run.options.outDir },
    toRender(plan, known, kept),
    { ...known, ...rows, staging, chunkSize: run.options.renderChunkSize ?? RENDER_CHUNK },
  );
  run.options.finished?.('renders');
  const warnings = [...plan.warnings, ...rendering.warnings];
  const outputs = [
    ...kept,
    ...themePages(rendering.extras, run, warnings),
    ...madeFiles(plan, run.templates, known),
  ];
  phases.render = secondsSince(mark);
  mark = performance.now();
  // Pages are written while Pagefind may still be indexing; its bundles go last.
  const pagesWritten = mergeResults(
    rendering.staged,
    await writeYielding(staging, outputs, known, rows),
  );
  const rebuilt = await search.searchFiles;
  run.options.finished?.('bundles');
  // A bundle staged as it came is made, not kept: no files of its own are left to stage.
  for (const index of search.streamed?.indexes ?? []) rebuilt.set(index, new Map());
  const searchWritten = writeOutputs(
    staging,
    searchOutputs(plan.search, rebuilt, search.bundleFiles),
    known.before,
    known.onDisk,
    { removeStale: true, alsoProduced: pagesWritten.files, ...rows },
  );
  // Writing overlaps the search index; this is the wall time from rendered to written.
  phases.write = secondsSince(mark);
  return {
    written: mergeResults(pagesWritten, ...(search.streamed?.results ?? []), searchWritten),
    rendered: rendering.rendered,
    warnings,
  };
}

/** The plan's pages to render; those current are added to `kept` as they pass. */
function* toRender(plan: SitePlan, known: KnownOutput, kept: OutputSpec[]): Generator<PlannedJob> {
  for (const job of plan.jobs) {
    if (isCurrent(known, job.file, job.digest)) kept.push({ file: job.file, input: job.digest });
    else yield job;
  }
}

/**
 * Commits the staged files (the switch) and reports. The rows are in the cache: the switch
 * reads the staged files from there and the report's manifest has no files.
 */
function committed(
  run: BuildRun,
  staged: StagedBuild,
  started: number,
  stored: StoredRecord,
): BuildReport {
  const { written } = staged;
  const header: ManifestHeader = {
    version: MANIFEST_VERSION,
    buildVersion: BUILD_VERSION,
    templatesHash: run.templates.hash,
    modelDigest: run.plan.modelDigest,
  };
  run.staging.commit(written.removedFiles, stampOf(header), stored.made.written());
  return {
    written: written.written,
    unchanged: written.unchanged,
    removed: written.removed,
    pages: countPages(pathsOf(written.files)),
    rendered: staged.rendered,
    seconds: secondsSince(started),
    phases: run.phases,
    skipped: false,
    manifest: header,
    warnings: staged.warnings,
    writtenFiles: written.writtenFiles,
    removedFiles: written.removedFiles,
  };
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

/** HTML pages among the files, search bundles aside. */
function countPages(files: Iterable<string>): number {
  let pages = 0;
  for (const file of files)
    if (file.endsWith('.html') && !file.startsWith(`${SEARCH_DIR}/`)) pages++;
  return pages;
}

function* pathsOf(rows: Iterable<[string, unknown]>): Generator<string> {
  for (const [file] of rows) yield file;
}

/** A build that changed nothing: the last build's record stands. */
function skippedReport(build: KnownBuild, previous: ManifestHeader, started: number): BuildReport {
  const { before } = build.known;
  return {
    written: 0,
    unchanged: before.size,
    removed: 0,
    pages: countPages(before.keys()),
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
