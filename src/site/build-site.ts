/**
 * The build runner: one language's static site from a `SiteModel`, incrementally.
 *
 * 1. Skip entirely when the pull changed nothing (or the model digests the same), the theme is
 *    unchanged and every file of the last build is still on disk.
 * 2. Plan (pure): every output with the digest of its input.
 * 3. Render with Eleventy only the pages whose digest changed or whose file is missing, while
 *    Pagefind (its own process) re-indexes only the search bundles whose documents changed.
 * 4. Write only files whose bytes changed; delete what is no longer produced.
 */
import fs from 'node:fs';
import { performance } from 'node:perf_hooks';
import { ConfigError } from '../errors.js';
import {
  ASSETS_DIR,
  BUILD_VERSION,
  placeSite,
  planPlaced,
  type PlannedJob,
  type PlanOptions,
  type SitePlan,
} from './site-plan.js';
import {
  isCurrentManifest,
  manifestFiles,
  MANIFEST_VERSION,
  type BuildManifest,
  type ManifestFile,
} from './build-manifest.js';
import { digestOf } from './digest.js';
import {
  listOutputFiles,
  mergeResults,
  writeOutputs,
  type OutputSpec,
  type WriteResult,
} from './output-writer.js';
import { canSkipBuild, modelUnchanged, outputHoldsBuild, sameTheme } from './freshness.js';
import { openStaging, recoverOutput, stampOf, type Staging } from './output-switch.js';
import { RENDER_CHUNK, renderInChunks } from './chunked-render.js';
import type { RenderInput } from './eleventy-renderer.js';
import { inProcessWorkers, type BuildWorkers } from './build-workers.js';
import { SEARCH_DIR, type SearchShard } from './search-plan.js';
import type { ChangeSet, SiteModel } from './site-model.js';
import { scanTemplates } from './template-files.js';
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
  recoverOutput(options.outDir);
  const given = isCurrentManifest(options.previous) ? options.previous : undefined;
  // The manifest describes this folder only when the folder holds that build.
  const ours = given !== undefined && outputHoldsBuild(options.outDir, given);
  const previous = ours ? given : undefined;
  const onDisk = (ours ? options.filesOnDisk : undefined) ?? listOutputFiles(options.outDir);
  const changed = options.changed;
  const skipFacts = { previous, templatesHash: templates.hash, onDisk, changed };
  if (canSkipBuild(skipFacts)) return skippedReport(skipFacts.previous, started);
  const intact = sameTheme(previous, templates.hash, onDisk);

  const phases: BuildPhases = {
    scan: secondsSince(started),
    plan: 0,
    render: 0,
    search: 0,
    write: 0,
  };
  let mark = performance.now();
  const placed = placeSite(checkedModel, {
    postsPerPage: options.postsPerPage,
    feedSize: options.feedSize,
    searchDocsPerShard: options.searchDocsPerShard,
    search: options.search,
    templatesHash: templates.hash,
  });
  // Files of a folder the manifest does not describe are all stale unless made again.
  const before = given !== undefined && !ours ? unknownFiles(onDisk) : manifestFiles(previous);
  const isCurrent = (file: string, input: string): boolean =>
    before.get(file)?.input === input && onDisk.has(file);

  // Pagefind indexes in its own process while the rest is planned, rendered and written.
  const bundleFiles = filesByBundle(before);
  const staleShards = placed.search.shards.filter(
    (shard) => !shardIsCurrent(shard, bundleFiles.get(shard.dir) ?? [], onDisk),
  );
  const searchStarted = performance.now();
  const searchFiles = workers.indexShards(staleShards, placed.search.lang).then((files) => {
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
  phases.plan = secondsSince(mark);
  mark = performance.now();
  // Every file goes to the staging area first; the output changes only at `commit`.
  const staging = openStaging(options.outDir);
  try {
    const toRender = plan.jobs.filter((job) => !isCurrent(job.file, job.digest));
    const warnings = [...plan.warnings];
    const outputs: OutputSpec[] = [];
    const extrasInput = digestOf('extras', plan.siteDigest);
    const rendering = await renderPages(
      workers,
      { templatesDir, global: plan.global, outDir: options.outDir },
      toRender,
      { staging, before, onDisk, chunkSize: options.renderChunkSize ?? RENDER_CHUNK },
    );
    warnings.push(...rendering.warnings);
    const renderedFiles = new Set(toRender.map((planned) => planned.file));
    for (const planned of plan.jobs) {
      if (!renderedFiles.has(planned.file))
        outputs.push({ file: planned.file, input: planned.digest });
    }

    if (rendering.extras) {
      const planned = plannedFiles(
        plan,
        templates.assets.map((asset) => asset.file),
      );
      for (const [file, content] of rendering.extras) {
        if (
          planned.has(file) ||
          file.startsWith(`${ASSETS_DIR}/`) ||
          file.startsWith(`${SEARCH_DIR}/`)
        ) {
          warnings.push(`The theme's page ${file} left out: the build writes that file itself.`);
          continue;
        }
        outputs.push({ file, input: extrasInput, content });
      }
    } else {
      // Theme pages of their own are only rendered with the jobs; keep them while nothing changed.
      for (const [file, entry] of before) {
        if (entry.input === extrasInput && onDisk.has(file))
          outputs.push({ file, input: extrasInput });
      }
    }

    for (const file of plan.files) {
      outputs.push({
        file: file.file,
        input: file.input,
        content: isCurrent(file.file, file.input) ? undefined : file.content,
      });
    }
    for (const asset of templates.assets) {
      outputs.push({
        file: asset.file,
        input: asset.sha256,
        content: isCurrent(asset.file, asset.sha256)
          ? undefined
          : () => fs.readFileSync(asset.source),
      });
    }

    phases.render = secondsSince(mark);
    mark = performance.now();
    // Pages are written while Pagefind may still be indexing; its bundles go last.
    const pagesWritten = mergeResults(
      rendering.staged,
      await writeYielding(staging, outputs, before, onDisk, rendering.staged.files),
    );
    const rebuilt = await searchFiles;
    const searchOutputs: OutputSpec[] = [];
    for (const shard of plan.search.shards) {
      const files = rebuilt.get(shard.index);
      if (files) {
        for (const [file, content] of files)
          searchOutputs.push({ file, input: shard.digest, content });
      } else {
        for (const [file] of bundleFiles.get(shard.dir) ?? [])
          searchOutputs.push({ file, input: shard.digest });
      }
    }
    const searchWritten = writeOutputs(staging, searchOutputs, before, onDisk, {
      removeStale: true,
      alsoProduced: pagesWritten.files,
    });
    const written = mergeResults(pagesWritten, searchWritten);
    // Writing overlaps the search index; this is the wall time from rendered to written.
    phases.write = secondsSince(mark);
    const manifest: BuildManifest = {
      version: MANIFEST_VERSION,
      buildVersion: BUILD_VERSION,
      templatesHash: templates.hash,
      modelDigest: plan.modelDigest,
      files: Object.fromEntries(written.files),
    };
    staging.commit(written.removedFiles, stampOf(manifest));
    return {
      written: written.written,
      unchanged: written.unchanged,
      removed: written.removed,
      pages: countPages(manifest),
      rendered: rendering.rendered,
      seconds: secondsSince(started),
      phases,
      skipped: false,
      manifest,
      warnings,
      writtenFiles: written.writtenFiles,
      removedFiles: written.removedFiles,
    };
  } catch (error) {
    staging.discard();
    throw error;
  }
}

/** Every file of a folder no manifest describes, as a previous output nothing is known of. */
function unknownFiles(onDisk: ReadonlySet<string>): Map<string, ManifestFile> {
  return new Map([...onDisk].map((file) => [file, { hash: '', input: '', bytes: 0 }]));
}

function withCheckedPublicUrl(model: SiteModel): SiteModel {
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

/**
 * Files written between two turns of the event loop. Writing is synchronous; in one piece,
 * twenty thousand files would block the loop for seconds, and Pagefind, which is fed records
 * and answers through it, would sit idle meanwhile.
 */
const WRITE_CHUNK = 500;

async function writeYielding(
  staging: Staging,
  outputs: readonly OutputSpec[],
  before: ReadonlyMap<string, ManifestFile>,
  onDisk: ReadonlySet<string>,
  /** Files an earlier call of this build wrote: none may be produced again. */
  alreadyWritten?: ReadonlyMap<string, ManifestFile>,
): Promise<WriteResult> {
  const files = new Set<string>(alreadyWritten?.keys());
  for (const output of outputs) {
    if (files.has(output.file))
      throw new Error(`Internal error: ${output.file} is produced twice.`);
    files.add(output.file);
  }
  const results: WriteResult[] = [];
  for (let start = 0; start < outputs.length; start += WRITE_CHUNK) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    results.push(
      writeOutputs(staging, outputs.slice(start, start + WRITE_CHUNK), before, onDisk, {
        removeStale: false,
      }),
    );
  }
  return mergeResults(...results);
}

interface RenderedPages {
  /** The rendered pages, staged as their chunk came back. */
  staged: WriteResult;
  /** The theme's own pages; undefined when nothing was rendered. */
  extras: Map<string, string> | undefined;
  warnings: string[];
  rendered: number;
}

/**
 * Renders the changed pages chunk by chunk and stages each chunk while the next renders (a
 * theme failing on some page leaves the output as it was: the staging is discarded).
 */
async function renderPages(
  workers: BuildWorkers,
  base: Omit<RenderInput, 'jobs'>,
  toRender: readonly PlannedJob[],
  disk: {
    staging: Staging;
    before: ReadonlyMap<string, ManifestFile>;
    onDisk: ReadonlySet<string>;
    chunkSize: number;
  },
): Promise<RenderedPages> {
  const staged: WriteResult[] = [];
  const warnings: string[] = [];
  let extras: Map<string, string> | undefined;
  let rendered = 0;
  for await (const { jobs, result } of renderInChunks(
    workers.render,
    base,
    toRender,
    disk.chunkSize,
  )) {
    // Every chunk renders the theme's own pages alike; the first chunk's are kept.
    if (extras === undefined) {
      extras = result.extras;
      warnings.push(...result.warnings);
    }
    const pages = jobs.map((planned, index) => ({
      file: planned.file,
      input: planned.digest,
      content: result.pages[index],
    }));
    rendered += jobs.length;
    staged.push(await writeYielding(disk.staging, pages, disk.before, disk.onDisk));
  }
  return { staged: mergeResults(...staged), extras, warnings, rendered };
}

/** The previous build's search files by bundle directory (`pagefind/s0`). */
function filesByBundle(
  before: ReadonlyMap<string, ManifestFile>,
): Map<string, [string, ManifestFile][]> {
  const bundles = new Map<string, [string, ManifestFile][]>();
  const prefix = `${SEARCH_DIR}/`;
  for (const [file, entry] of before) {
    if (!file.startsWith(prefix)) continue;
    const slash = file.indexOf('/', prefix.length);
    if (slash < 0) continue;
    const dir = file.slice(0, slash);
    const files = bundles.get(dir) ?? [];
    files.push([file, entry]);
    bundles.set(dir, files);
  }
  return bundles;
}

function shardIsCurrent(
  shard: SearchShard,
  files: readonly [string, ManifestFile][],
  onDisk: ReadonlySet<string>,
): boolean {
  if (files.length === 0) return false;
  return files.every(([file, entry]) => entry.input === shard.digest && onDisk.has(file));
}

function plannedFiles(plan: SitePlan, assets: readonly string[]): Set<string> {
  return new Set([
    ...plan.jobs.map((job) => job.file),
    ...plan.files.map((file) => file.file),
    ...assets,
  ]);
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
