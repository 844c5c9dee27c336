/**
 * Writing a build's files to its staging area: in chunks between turns of the event loop, and
 * the rendered pages chunk by chunk as they come back from the render worker.
 */
import { refuseProducedTwice, type ManifestRows, type RecordedFiles } from './build-manifest.js';
import type { BuildWorkers } from './build-workers.js';
import { renderInChunks } from './chunked-render.js';
import type { RenderInput } from './eleventy-renderer.js';
import {
  mergeResults,
  writeOutputs,
  type FilesOnDisk,
  type OutputSpec,
  type WriteResult,
} from './output-writer.js';
import type { StagedPage, StageTarget } from './page-staging.js';
import type { StagedBundle } from './bundle-staging.js';
import type { Staging } from './output-switch.js';
import type { PlannedJob } from './site-plan.js';

/** What the output holds before this build: the last build's files and those on disk. */
export interface KnownOutput {
  readonly before: RecordedFiles;
  readonly onDisk: FilesOnDisk;
}

/** Where a build's rows go as its files are staged (one for the whole build), and whether to list them. */
export interface RowsTarget {
  readonly files: ManifestRows;
  /** List the written files in `writtenFiles` (a large build does not). */
  readonly listWritten: boolean;
}

/**
 * Files written between two turns of the event loop. Writing is synchronous; in one piece,
 * twenty thousand files would block the loop for seconds, and Pagefind, which is fed records
 * and answers through it, would sit idle meanwhile.
 */
const WRITE_CHUNK = 500;

export async function writeYielding(
  staging: Staging,
  outputs: readonly OutputSpec[],
  known: KnownOutput,
  /** The build's rows so far (none may be produced again), and where this call's go. */
  target: RowsTarget,
): Promise<WriteResult<ManifestRows>> {
  const files = new Set<string>();
  for (const output of outputs) {
    if (files.has(output.file))
      throw new Error(`Internal error: ${output.file} is produced twice.`);
    refuseProducedTwice(target.files, output.file);
    files.add(output.file);
  }
  const results: WriteResult<ManifestRows>[] = [];
  for (let start = 0; start < outputs.length; start += WRITE_CHUNK) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    results.push(
      writeOutputs(staging, outputs.slice(start, start + WRITE_CHUNK), known.before, known.onDisk, {
        removeStale: false,
        ...target,
      }),
    );
  }
  return results.length > 0 ? mergeResults(...results) : emptyWrite(target.files);
}

export interface RenderedPages {
  /** The rendered pages, staged as their chunk came back. */
  staged: WriteResult<ManifestRows>;
  /** The theme's own pages; undefined when nothing was rendered. */
  extras: Map<string, string> | undefined;
  warnings: string[];
  rendered: number;
}

/**
 * Renders the changed pages chunk by chunk; the renderer stages each chunk's pages itself
 * (`page-staging.ts`) while the next renders, and this thread records them (a theme failing on
 * some page leaves the output as it was: the staging is discarded).
 */
export async function renderPages(
  workers: BuildWorkers,
  base: Omit<RenderInput, 'jobs'>,
  toRender: Iterable<PlannedJob>,
  disk: KnownOutput & { staging: Staging; chunkSize: number } & RowsTarget,
): Promise<RenderedPages> {
  const staged = emptyWrite(disk.files);
  const warnings: string[] = [];
  let extras: Map<string, string> | undefined;
  let rendered = 0;
  const stageOf = (chunk: readonly PlannedJob[]): StageTarget => ({
    root: disk.staging.root,
    dir: disk.staging.dir,
    files: chunk.map((planned) => planned.file),
    previous: chunk.map((planned) =>
      disk.onDisk.has(planned.file) ? disk.before.get(planned.file)?.hash : undefined,
    ),
  });
  for await (const { jobs, result } of renderInChunks(
    workers.render,
    base,
    toRender,
    stageOf,
    disk.chunkSize,
  )) {
    // Every chunk renders the theme's own pages alike; the first chunk's are kept.
    if (extras === undefined) {
      extras = result.extras;
      warnings.push(...result.warnings);
    }
    jobs.forEach((planned, index) => recordStaged(disk, staged, planned, result.pages[index]));
    rendered += jobs.length;
  }
  return { staged, extras, warnings, rendered };
}

/**
 * Adds a file another thread staged (or found unchanged) to the build's result: a page the
 * renderer staged, or a search bundle's file (`bundle-staging.ts`).
 */
function recordStaged(
  { staging, listWritten }: { staging: Staging; listWritten: boolean },
  result: WriteResult<ManifestRows>,
  planned: Pick<PlannedJob, 'file' | 'digest'>,
  page: StagedPage | undefined,
): void {
  if (page === undefined) throw new Error(`Internal error: ${planned.file} was not staged.`);
  refuseProducedTwice(result.files, planned.file);
  const row = { hash: page.hash, input: planned.digest, bytes: page.bytes };
  result.files.set(planned.file, row, page.written);
  if (!page.written) {
    result.unchanged++;
    return;
  }
  staging.recordStaged(planned.file);
  result.written++;
  if (listWritten) result.writtenFiles.push(planned.file);
}

/** Adds a search bundle its worker staged (`bundle-staging.ts`) to the build's result. */
export function recordStagedBundle(
  disk: { staging: Staging; listWritten: boolean; files: ManifestRows },
  files: StagedBundle,
  input: string,
): WriteResult<ManifestRows> {
  const result = emptyWrite(disk.files);
  for (const [file, staged] of files) recordStaged(disk, result, { file, digest: input }, staged);
  return result;
}

function emptyWrite(files: ManifestRows): WriteResult<ManifestRows> {
  return { written: 0, unchanged: 0, removed: 0, writtenFiles: [], removedFiles: [], files };
}
