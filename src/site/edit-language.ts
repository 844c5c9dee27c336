/**
 * One language of a run after a few edits: whether the edit build may be tried (the last
 * build is complete and of this code, what every page shows and the theme are the same, and
 * few items changed since it read the cache), then the edit build and its record.
 */
import type { Settings } from '../config/settings.js';
import type { SavedState } from '../store/build-state-repo.js';
import type { Store } from '../store/index.js';
import { transformKey } from '../transform/index.js';
import { MANIFEST_VERSION } from './build-manifest.js';
import type { BuildReport } from './build-site.js';
import { buildEdited } from './edit-build.js';
import type { EditModels } from './edit-placement.js';
import { EDIT_LIMIT } from './edit-limit.js';
import { topLevelIntact } from './freshness.js';
import type { LanguageJob } from './language-build.js';
import type { ModelFromStore } from './model-from-store.js';
import { BUILD_VERSION } from './site-plan.js';

export interface EditedLanguage {
  report: BuildReport;
  /** The model's warnings (items left out). */
  warnings: string[];
  modelSeconds: number;
  /** Items changed since the last build. */
  changed: number;
}

/**
 * Builds and records only what changed since the last build, or returns undefined (nothing
 * written or recorded) for the caller's full build.
 */
export async function buildEditedLanguage(
  store: Store,
  settings: Settings,
  job: LanguageJob,
  context: {
    outDir: string;
    siteDigest: string;
    /** The model, with its posts held whole or (`streamPosts`) read a window at a time. */
    model: (streamPosts: boolean) => ModelFromStore;
  },
): Promise<EditedLanguage | undefined> {
  const { lang, options } = job;
  const key = transformKey(settings.transform);
  const since = editsSinceLastBuild(store, job, { ...context, key });
  if (since === undefined) {
    return undefined;
  }
  const { state, changed } = since;
  const recorded = store.buildPlacement.get(lang);
  const { models, timing } = timedModels(
    context.model,
    recorded?.modelDigest === state.modelDigest
      ? { posts: recorded, newest: recorded.newest }
      : undefined,
  );
  store.buildState.markWriting(lang);
  const edited = await buildEdited(store, models, state, changed, {
    lang,
    outDir: context.outDir,
    templatesDir: settings.templates,
    postsPerPage: settings.build.postsPerPage,
    workers: job.workers(),
    trace: options.trace,
    pagesFirst: options.pagesFirst,
    finished: job.finished,
  });
  if (edited === undefined) {
    return undefined;
  }
  const { report } = edited;
  store.buildState.recordChanges(
    lang,
    report.manifest,
    { written: edited.written, removed: edited.removed },
    {
      siteDigest: context.siteDigest,
      sourcesAt: job.sourcesAt,
      transformVersion: key,
      pathsDigest: job.prepared.pathsDigest,
      layoutDigest: edited.layoutDigest,
    },
  );
  store.buildPlacement.record(lang, report.manifest.modelDigest, edited.placement);
  return {
    report: {
      ...report,
      // As a full build counts them: every file of the folder that this build did not write.
      unchanged: store.buildState.fileCount(lang) - report.written,
      pages: store.buildState.pageCount(lang),
      planned: edited.planned,
    },
    warnings: timing.warnings,
    modelSeconds: timing.seconds,
    changed: changed.size,
  };
}

type EditableState = SavedState & { sourcesAt: string; layoutDigest: string };
type Changed = NonNullable<ReturnType<Store['buildState']['changedSince']>>;

/**
 * The last build's state and what changed since, when an edit build may be tried: the run
 * pulled, is not forced, the last build may be edited (`mayEdit`), its top-level files are
 * all there and few items changed. Undefined for a full build.
 */
function editsSinceLastBuild(
  store: Store,
  job: LanguageJob,
  now: { outDir: string; siteDigest: string; key: string },
): { state: EditableState; changed: Changed } | undefined {
  const { lang, options } = job;
  const { state } = job.prepared;
  if (options.force === true || !options.pulled) {
    return undefined;
  }
  if (!mayEdit(state, { ...now, templatesHash: job.templatesHash })) {
    return undefined;
  }
  if (!topLevelIntact(now.outDir, store.buildState.topLevelNames(lang))) {
    return undefined;
  }
  const changed = store.buildState.changedSince(lang, state, EDIT_LIMIT);
  return changed === undefined ? undefined : { state, changed };
}

/**
 * The edit build's models (`placement`: the last build's, when still of the same model), each
 * read timed and its warnings kept.
 */
function timedModels(
  read: (streamPosts: boolean) => ModelFromStore,
  placement: EditModels['placement'],
): { models: EditModels; timing: { seconds: number; warnings: string[] } } {
  const timing = { seconds: 0, warnings: [] as string[] };
  const model = (streamPosts: boolean): ModelFromStore['model'] => {
    const started = performance.now();
    const made = read(streamPosts);
    timing.seconds += (performance.now() - started) / 1000;
    timing.warnings = made.warnings;
    return made.model;
  };
  return { models: { streamed: () => model(true), whole: () => model(false), placement }, timing };
}

/** The last build is complete, of this code, and made from what every page shows now. */
function mayEdit(
  state: SavedState | undefined,
  now: { siteDigest: string; templatesHash: string; key: string },
): state is EditableState {
  return (
    state !== undefined &&
    state.manifestVersion === MANIFEST_VERSION &&
    state.buildVersion === BUILD_VERSION &&
    state.writingSince === null &&
    typeof state.sourcesAt === 'string' &&
    typeof state.layoutDigest === 'string' &&
    state.transformVersion === now.key &&
    state.siteDigest === now.siteDigest &&
    state.templatesHash === now.templatesHash
  );
}
