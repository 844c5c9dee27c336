/**
 * A run after a few edits, in proportion to the edits: the pages they touch are planned
 * (`edit-plan.ts`), only those files' rows of the last build are read, the changed ones are
 * rendered and written as a full build writes them (`renderAndWrite`), and only their rows are
 * recorded. Whenever the effect of the edits cannot be bounded this way (another layout, a
 * change to what every page shows, an item of another kind, a folder that does not hold the
 * last build), it returns undefined before writing anything and the caller builds in full.
 */
import type { SavedState } from '../store/build-state-repo.js';
import type { PlacementChange, Store } from '../store/index.js';
import { MANIFEST_VERSION, type ManifestFile } from './build-manifest.js';
import {
  renderAndWrite,
  type BuildFinished,
  type BuildReport,
  type StagedBuild,
} from './build-site.js';
import type { BuildTrace } from './build-trace.js';
import type { BuildWorkers, SearchBundles } from './build-workers.js';
import { RENDER_CHUNK } from './chunked-render.js';
import { secondsSince } from './phase-time.js';
import { pathDigest, xorDigests } from './model-fingerprint.js';
import { layoutDigestOf, planEdited, type EditPlan } from './edit-plan.js';
import { placeForEdit, type EditModels } from './edit-placement.js';
import { indexWithAhead, type SearchAhead } from './edit-search.js';
import { outputHoldsBuild } from './freshness.js';
import { PlannedJobs } from './planned-jobs.js';
import { mergeResults } from './output-writer.js';
import { openStaging, recoverOutput, stampOf } from './output-switch.js';
import { filesByBundle, staleShards } from './search-outputs.js';
import type { SearchShard } from './search-plan.js';
import type { EditedPosts } from './output-formats.js';
import { BUILD_VERSION, type PlacedSite } from './site-plan.js';
import type { KnownOutput, RowsTarget } from './staged-writes.js';
import { scanTemplates } from './template-files.js';
import { defaultTemplatesDir } from './templates-dir.js';

/** Where media files go (`MEDIA_FOLDER` of the transform's site paths, as a file path). */
const MEDIA_DIR = 'media/';

export { EDIT_LIMIT } from './edit-limit.js';

export interface EditBuildOptions {
  lang: string;
  outDir: string;
  templatesDir?: string | undefined;
  postsPerPage?: number | undefined;
  workers: BuildWorkers;
  trace: BuildTrace;
  /**
   * Switch the pages into the output before the search bundles they touch are indexed again
   * (`pagesThenSearch`): for `watch`, where the page is what a save waits for. @default false
   */
  pagesFirst?: boolean | undefined;
  /** Called once the pages are rendered, and once the bundles are (`BuildOptions.finished`). */
  finished?: BuildFinished | undefined;
}

/** What an edit build did, besides the report: for `recordChanges`. */
export interface EditBuild {
  report: BuildReport;
  /** Pages planned (rendered or found current). */
  planned: number;
  written: Map<string, ManifestFile>;
  removed: string[];
  layoutDigest: string;
  /**
   * Where this build placed each post (`placementRecord`), for the next one: without the
   * posts' record when it was the recorded one.
   */
  placement: PlacementChange;
}

/**
 * Builds only what `changed` (`type:id` keys) touches, or returns undefined (nothing written)
 * when that cannot be bounded.
 */
export async function buildEdited(
  store: Store,
  models: EditModels,
  state: SavedState,
  changed: ReadonlySet<string>,
  options: EditBuildOptions,
): Promise<EditBuild | undefined> {
  const started = performance.now();
  const templatesDir = options.templatesDir ?? defaultTemplatesDir();
  const templates = scanTemplates(templatesDir);
  recoverOutput(options.outDir, options.trace);
  if (templates.hash !== state.templatesHash || !outputHoldsBuild(options.outDir, state))
    return undefined;
  const searchStarted = performance.now();
  const { placed, ahead, edited, change } = placeForEdit(store, models, changed, {
    ...options,
    templatesHash: templates.hash,
  });
  const decided = decide(store, placed, state, changed, { ...options, edited });
  if (decided === undefined) return undefined;
  const { edit, known, layoutDigest } = decided;
  const phases = { scan: 0, plan: secondsSince(started), render: 0, search: 0, write: 0 };
  const plan = { ...edit.plan, search: { lang: options.lang, shards: edit.shards } };
  const bundleFiles = filesByBundle(known.before);
  const startSearch = searchStarter(
    { plan, known, bundleFiles, ahead, phases, started: searchStarted },
    (shards) => options.workers.indexShards(shards, options.lang),
  );
  const run = {
    options: {
      outDir: options.outDir,
      renderChunkSize: RENDER_CHUNK,
      finished: options.finished,
    },
    templatesDir,
    // The theme is the last build's (same hash): its assets are on disk as recorded.
    templates: { ...templates, assets: [] },
    plan,
    known,
    workers: options.workers,
    phases,
    rows: editRows(),
  };
  const staged = options.pagesFirst
    ? await pagesThenSearch(run, { start: startSearch, bundleFiles }, options)
    : await inOneSwitch(run, { searchFiles: startSearch(), bundleFiles }, options.trace);
  const written = new Map(
    [...staged.written.files].filter(([file, row]) => !sameRow(known.before.get(file), row)),
  );
  const modelDigest = updatedFingerprint(
    state.modelDigest,
    edit,
    known,
    staged.written.removedFiles,
  );
  staged.commit(stampOf({ ...state, modelDigest }));
  const report: BuildReport = {
    written: staged.written.written,
    unchanged: staged.written.unchanged,
    removed: staged.written.removed,
    pages: 0,
    rendered: staged.rendered,
    seconds: secondsSince(started),
    phases,
    skipped: false,
    manifest: {
      version: MANIFEST_VERSION,
      buildVersion: BUILD_VERSION,
      templatesHash: templates.hash,
      modelDigest,
    },
    warnings: staged.warnings,
    writtenFiles: staged.written.writtenFiles,
    removedFiles: staged.written.removedFiles,
  };
  const planned = plan.jobs.length;
  const removed = staged.written.removedFiles;
  return { report, planned, written, removed, layoutDigest, placement: change() };
}

/**
 * Starts indexing the plan's stale bundles (those made ahead taken as they are) when called;
 * `phases.search` is the time from the first index asked for to the last bundle made.
 */
function searchStarter(
  search: {
    plan: EditRun['plan'];
    known: KnownOutput;
    bundleFiles: EditSearch['bundleFiles'];
    ahead: SearchAhead | undefined;
    phases: EditRun['phases'];
    started: number;
  },
  index: (shards: readonly SearchShard[]) => Promise<SearchBundles>,
): () => Promise<SearchBundles> {
  return () => {
    const { plan, known, bundleFiles, ahead, phases } = search;
    const started = ahead === undefined ? performance.now() : search.started;
    const files = indexWithAhead(staleShards(plan.search, bundleFiles, known), ahead, index).then(
      (made) => {
        phases.search = secondsSince(started);
        return made;
      },
    );
    // Keep a rejection from going unhandled while the pages are awaited.
    files.catch(() => undefined);
    return files;
  };
}

/** What an edit build writes into `renderAndWrite`, but its staging. */
type EditRun = Omit<Parameters<typeof renderAndWrite>[0], 'staging'>;
type EditSearch = Parameters<typeof renderAndWrite>[1];

/** Everything staged, then switched together by `commit`. */
async function inOneSwitch(
  run: EditRun,
  search: EditSearch,
  trace: BuildTrace,
): Promise<StagedBuild & { commit(stamp: string): void }> {
  const staging = openStaging(run.options.outDir, trace);
  try {
    const staged = await renderAndWrite({ ...run, staging }, search);
    return {
      ...staged,
      commit: (stamp) => staging.commit(staged.written.removedFiles, stamp),
    };
  } catch (error) {
    staging.discard();
    throw error;
  }
}

/**
 * The pages and the build's own files switched in first, the search bundles they touch in a
 * second switch once indexed (`commit`): what `watch` waits for is the page, and Pagefind
 * takes longer than rendering it. Indexing starts (`search.start`) once the pages are
 * switched: reading the bundle's documents for Pagefind would come before the page. Between the two the output holds the new pages with the old
 * bundles, a state no record names: the cache still says a build is writing (`markWriting`),
 * so a run that finds it (this one killed in between) checks every file in a full build.
 */
async function pagesThenSearch(
  run: EditRun,
  search: { start: () => EditSearch['searchFiles']; bundleFiles: EditSearch['bundleFiles'] },
  options: EditBuildOptions,
): Promise<StagedBuild & { commit(stamp: string): void }> {
  const { plan, known } = run;
  const inShard = (file: string): boolean =>
    plan.search.shards.some((shard) => file.startsWith(`${shard.dir}/`));
  // The last build's rows in one pass: the pages' for the first switch (which leaves the
  // bundles as they are: neither planned nor known to it), the bundles' for the second.
  const pagesBefore = new Map<string, ManifestFile>();
  const bundlesBefore = new Map<string, ManifestFile>();
  for (const [file, row] of known.before)
    (inShard(file) ? bundlesBefore : pagesBefore).set(file, row);
  const pagesKnown: KnownOutput = { before: pagesBefore, onDisk: known.onDisk };
  // Each switch says only what it made: the bundles are indexed after the first.
  const pages = await inOneSwitch(
    {
      ...run,
      options: { ...run.options, finished: only('renders', run.options.finished) },
      known: pagesKnown,
      plan: { ...plan, search: { ...plan.search, shards: [] } },
    },
    { searchFiles: Promise.resolve(new Map()), bundleFiles: search.bundleFiles },
    options.trace,
  );
  // Named by no record: a kill before the second switch leaves a folder no record trusts.
  pages.commit(
    `${stampOf({ buildVersion: BUILD_VERSION, templatesHash: '', modelDigest: '' })}:pages`,
  );
  const bundlesKnown: KnownOutput = { before: bundlesBefore, onDisk: known.onDisk };
  const bundles = await inOneSwitch(
    {
      ...run,
      options: { ...run.options, finished: only('bundles', run.options.finished) },
      known: bundlesKnown,
      plan: { ...plan, jobs: new PlannedJobs([]), files: [] },
    },
    { searchFiles: search.start(), bundleFiles: search.bundleFiles },
    options.trace,
  );
  return {
    written: mergeResults(pages.written, bundles.written),
    rendered: pages.rendered,
    warnings: pages.warnings,
    commit: (stamp) => bundles.commit(stamp),
  };
}

/** `finished`, told only of `part`. */
function only(part: 'renders' | 'bundles', finished: BuildFinished | undefined): BuildFinished {
  return (what) => {
    if (what === part) finished?.(what);
  };
}

/**
 * The edit plan and the rows it needs, or undefined when the edits' effect is not bounded:
 * another layout, an item of another kind, or a change to what every page shows (the 404
 * page's digest). The theme and the folder are checked before.
 */
function decide(
  store: Store,
  placed: PlacedSite,
  state: SavedState,
  changed: ReadonlySet<string>,
  options: EditBuildOptions & { edited: EditedPosts | undefined },
) {
  const layoutDigest = layoutDigestOf(placed);
  if (layoutDigest !== state.layoutDigest) return undefined;
  const edit = planEdited(placed, changed, options.postsPerPage ?? 10, options.edited);
  if (edit === undefined) return undefined;
  const known = knownRows(store, options.lang, edit);
  const probe = [...edit.plan.jobs].find((job) => job.file === edit.probe);
  if (probe === undefined || known.before.get(probe.file)?.input !== probe.digest) return undefined;
  return { edit, known, layoutDigest };
}

/**
 * The last build's rows of the files the plan makes, of every media file (one may no longer be
 * used) and of the search bundles the edits touch; all on disk, as the record says.
 */
function knownRows(store: Store, lang: string, edit: EditPlan): KnownOutput {
  const before = store.buildState.filesAt(lang, [
    ...Array.from(edit.plan.jobs, (job) => job.file),
    ...edit.plan.files.map((file) => file.file),
  ]);
  const dirs = [MEDIA_DIR, ...edit.shards.map((shard) => `${shard.dir}/`)];
  for (const dir of dirs) {
    for (const [file, row] of store.buildState.filesUnder(lang, dir)) before.set(file, row);
  }
  return { before, onDisk: new Set(before.keys()) };
}

/**
 * The last build's `modelDigest` with the replanned outputs' old digests taken out and their
 * new ones put in (`model-fingerprint.ts`): what a full plan of the same site digests to.
 */
function updatedFingerprint(
  old: string,
  edit: EditPlan,
  known: KnownOutput,
  removed: readonly string[],
): string {
  const changes = [old];
  const swap = (before: string | undefined, after: string | undefined): void => {
    if (before === after) return;
    if (before !== undefined) changes.push(before);
    if (after !== undefined) changes.push(after);
  };
  for (const job of edit.plan.jobs) swap(known.before.get(job.file)?.input, job.digest);
  for (const file of edit.plan.files) {
    const row = known.before.get(file.file);
    swap(row && pathDigest(file.file, row.input), pathDigest(file.file, file.input));
  }
  // Media files no longer used (the other removed files are search files, counted by bundle).
  for (const file of removed) {
    const row = known.before.get(file);
    if (row !== undefined && file.startsWith(MEDIA_DIR))
      swap(pathDigest(file, row.input), undefined);
  }
  for (const shard of edit.shards) {
    const row = [...known.before].find(([file]) => file.startsWith(`${shard.dir}/`))?.[1];
    swap(row && pathDigest(shard.dir, row.input), pathDigest(shard.dir, shard.digest));
  }
  return xorDigests(changes);
}

/**
 * Where an edit build's rows go: a `Map`, not the cache's staged rows (`StoredRecord`) a full
 * build uses. An edit build makes a few pages per edited item (at most `EDIT_LIMIT` items) and
 * records only the rows it changed (`recordChanges`), where staged rows replace the record.
 */
function editRows(): RowsTarget {
  return { files: new Map<string, ManifestFile>(), listWritten: true };
}

function sameRow(a: ManifestFile | undefined, b: ManifestFile): boolean {
  return a !== undefined && a.hash === b.hash && a.input === b.input && a.bytes === b.bytes;
}
