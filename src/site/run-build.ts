/**
 * The build stage for every language of a pipeline: transform what is stale (the transform's
 * entry point, through `prepare-languages.ts`), then build each language's static site from
 * the cache, incrementally (`language-build.ts`). Languages are built one after the
 * other: in parallel they gain nothing on two cores and hold two models in memory.
 *
 * Whether a language needs building is decided from the cache alone, so that an interrupted
 * run is finished by the next one whatever its pull counted: the language is skipped only when
 * its last build completed, nothing of it was written to `items` since that build started
 * reading (nor to `transformed` since it ended), the transform version, site, translations
 * and theme are the same, and the output's directories are still there (`freshness.ts`).
 */
import path from 'node:path';
import type { Settings } from '../config/settings.js';
import { ConfigError } from '../errors.js';
import type { Store } from '../store/index.js';
import { addToTotal, type BuildSummary } from './build-summary.js';
import { traceFromEnvironment, type BuildTrace } from './build-trace.js';
import { startBuildWorkers, type BuildWorkers } from './build-workers.js';
import type { RenderTarget } from './eleventy-run.js';
import { storedCompiles } from './stored-compiles.js';
import { digestOf } from './digest.js';
import { EDIT_LIMIT } from './edit-limit.js';
import {
  buildLanguage,
  languageSkipped,
  type LanguageJob,
  type SkipCheck,
} from './language-build.js';
import { canonicalOrder, switcherLanguages } from './language-order.js';
import { checkOutputDir } from './output-dir-check.js';
import { recoverOutput } from './output-switch.js';
import { prepareLanguages, type PreparedLanguage } from './prepare-languages.js';
import { scanTemplates } from './template-files.js';
import { defaultTemplatesDir } from './templates-dir.js';

export type { BuildSummary, LanguageBuild, LanguagePhases } from './build-summary.js';

export interface RunBuildOptions {
  /**
   * Items the pull created, updated or deleted, per language: given by a run that just
   * pulled, it asks for the fast path. A language with changes is never skipped; one without
   * is skipped when the cache says nothing changed since its last complete build (a pull's
   * count alone cannot tell: the build after it may have been interrupted), and the last
   * build's record stands for listing the output. @default unknown: every language is
   * planned and its output listed file by file (`cms-mirror build`)
   */
  readonly pulledChanges?: ReadonlyMap<string, number>;
  /** Build even when nothing changed. @default false */
  readonly force?: boolean;
  /** One line per step, for the terminal. */
  readonly onLine?: (line: string) => void;
  /**
   * Where pages render and are indexed when something changed: a session's kept workers
   * (`keptBuildWorkers().take`), called at most once and not closed by the build.
   * @default workers started for this build and closed at its end
   */
  readonly workers?: () => BuildWorkers;
  /**
   * Stale items from which a language after the first is transformed in a worker thread
   * while the main thread transforms the first. @default 500
   */
  readonly offloadTransformFrom?: number;
  /**
   * Called before each step that changes the output (a file staged, the switch committed, a
   * file switched...), with a line naming it. @default the trace `CMS_MIRROR_BUILD_TRACE` asks
   * for (`build-trace.ts`), else none
   */
  readonly trace?: BuildTrace;
  /**
   * After a few edits, switch the pages they touch into the output before the search bundles
   * they touch are indexed again, in a second switch (`watch`: the page is what a save waits
   * for). @default false: one switch
   */
  readonly pagesFirst?: boolean;
}

export async function runBuild(
  store: Store,
  settings: Settings,
  options: RunBuildOptions = {},
): Promise<BuildSummary> {
  const started = performance.now();
  const languages = canonicalOrder(buildLanguages(store, settings), settings.pipelineLanguages);
  const shown = switcherLanguages({
    built: languages,
    pipelineLanguages: settings.pipelineLanguages,
    cached: store.items.langs(),
    pulled: (lang) => store.siteInfo.get(lang) !== undefined,
  });
  const pairsById = settings.translations === 'same-id';
  checkOutputDir(settings.output);
  // A switch a killed build committed is finished before anything is decided from the output.
  const trace = options.trace ?? traceFromEnvironment();
  for (const lang of languages) recoverOutput(path.join(settings.output, lang), trace);
  const summary: BuildSummary = {
    languages: {},
    total: { written: 0, unchanged: 0, removed: 0, pages: 0, seconds: 0, wallSeconds: 0 },
  };
  // Taken before anything is read: items written from now on may miss this build.
  const sourcesAt = store.buildState.now();
  const templatesHash = scanTemplates(settings.templates ?? defaultTemplatesDir()).hash;
  // Started before the cache is read when some language may have changed: the render worker
  // loads Eleventy while this thread transforms and plans.
  let workers: BuildWorkers | undefined;
  const workersFor = (): BuildWorkers => {
    if (workers !== undefined) return workers;
    workers = (options.workers ?? startBuildWorkers)();
    workers.useCompiles(storedCompiles(store.nunjucksCompiles));
    return workers;
  };
  let warmed = false;
  const warmUp = (): void => {
    if (warmed) return;
    warmed = true;
    workersFor().warmUp(settings.templates ?? defaultTemplatesDir());
  };
  startRendering(languages, settings, options, {
    warmUp,
    expectEdits: () => workersFor().expectEdits(),
    prepare: (target) => workersFor().prepare(target),
  });
  try {
    // Every language is transformed before any is built: a page's language switcher and
    // hreflang alternates need the site paths of its translations in the other languages.
    // Pairing by id reads the site paths of the other languages' items: those not built in
    // this run are transformed too, so that their paths are as current as a full build's.
    const prepared = await prepareLanguages(store, pairsById ? shown : languages, {
      pulledChanges: options.pulledChanges,
      force: options.force,
      sanitize: settings.transform?.sanitize ?? true,
      offloadFrom: options.offloadTransformFrom,
      built: languages,
    });
    const jobs = skipChecks(languages, shown, prepared, { pairsById, templatesHash });
    await buildInOrder(store, settings, jobs, {
      summary,
      base: { options: { ...options, pulled: options.pulledChanges !== undefined, trace } },
      sourcesAt,
      workersFor,
      workers: () => workers,
      warmUp,
    });
  } finally {
    await workers?.close();
  }
  summary.total.wallSeconds = (performance.now() - started) / 1000;
  return summary;
}

/**
 * Builds each language in turn; the last that builds lets each worker go as soon as it is
 * done with it (`LanguageJob.finished`).
 */
async function buildInOrder(
  store: Store,
  settings: Settings,
  jobs: readonly SkipCheck[],
  run: {
    summary: BuildSummary;
    base: Pick<LanguageJob, 'options'>;
    sourcesAt: string;
    workersFor: () => BuildWorkers;
    /** The workers, if started. */
    workers: () => BuildWorkers | undefined;
    warmUp: () => void;
  },
): Promise<void> {
  /** No language after the `at`th is built: each is skipped. */
  const lastToBuild = (at: number): boolean =>
    jobs.slice(at + 1).every((later) => languageSkipped(store, settings, later));
  for (const [at, job] of jobs.entries()) {
    // Checked once, when the language's renders or bundles are first done: nothing this
    // language's build does changes whether a later one is skipped.
    let last: boolean | undefined;
    const result = await buildLanguage(store, settings, {
      ...job,
      ...run.base,
      sourcesAt: run.sourcesAt,
      workers: run.workersFor,
      warmUp: run.warmUp,
      finished: (what) => {
        last ??= lastToBuild(at);
        if (!last) return;
        if (what === 'renders') run.workers()?.rendersDone();
        else run.workers()?.indexingDone();
      },
    });
    addToTotal(run.summary, job.lang, result);
  }
}

/** What each language's build is told of the others, and what decides whether it is skipped. */
function skipChecks(
  languages: readonly string[],
  shown: readonly string[],
  prepared: ReadonlyMap<string, PreparedLanguage>,
  context: { pairsById: boolean; templatesHash: string },
): SkipCheck[] {
  return languages.map((lang) => {
    const others = shown
      .filter((other) => other !== lang)
      .map((other) => [
        other,
        context.pairsById ? (prepared.get(other)?.pathsDigest ?? null) : null,
      ]);
    return {
      lang,
      languages: shown,
      prepared: prepared.get(lang) as PreparedLanguage,
      othersDigest: digestOf(others),
      templatesHash: context.templatesHash,
    };
  });
}

/**
 * What the render worker starts on while this thread transforms and plans. The warm-up (an
 * Eleventy run with no pages) after a pull of many changes or none counted. After a pull of a
 * few changes the build is most likely an edit build, whose plan is short: its pages would
 * wait behind the warm-up (5 of 8 traced runs, test/bench/RESULTS.md, i-edit11), which a
 * language that falls back to a full plan sends then (`LanguageJob.warmUp`); the first changed
 * language's Eleventy run is started instead, and its pages' request only gives it the pages;
 * the edit build's Pagefind process (which indexes its bundle from the build's thread) starts too.
 */
function startRendering(
  languages: readonly string[],
  settings: Settings,
  options: RunBuildOptions,
  workers: { warmUp(): void; expectEdits(): void; prepare(target: RenderTarget): void },
): void {
  if (!mayRender(languages, options)) return;
  if (!fewPulledChanges(languages, options)) {
    workers.warmUp();
    return;
  }
  workers.expectEdits();
  const first = firstChanged(languages, options);
  if (first === undefined) return;
  workers.prepare({
    templatesDir: settings.templates ?? defaultTemplatesDir(),
    outDir: path.join(settings.output, first),
  });
}

/** False only when the pull says no language changed (the usual scheduled no-op run). */
function mayRender(languages: readonly string[], options: RunBuildOptions): boolean {
  const pulled = options.pulledChanges;
  return (
    options.force === true ||
    pulled === undefined ||
    languages.some((lang) => (pulled.get(lang) ?? 1) !== 0)
  );
}

/**
 * Whether the pull says every language changed in at most `EDIT_LIMIT` items, so that each
 * that changed is likely built as an edit build.
 */
function fewPulledChanges(languages: readonly string[], options: RunBuildOptions): boolean {
  const pulled = options.pulledChanges;
  if (pulled === undefined || options.force === true) return false;
  return languages.every((lang) => (pulled.get(lang) ?? 0) <= EDIT_LIMIT);
}

/** The first language the pull says changed, if it says so. */
function firstChanged(languages: readonly string[], options: RunBuildOptions): string | undefined {
  const pulled = options.pulledChanges;
  return pulled === undefined ? undefined : languages.find((lang) => (pulled.get(lang) ?? 0) > 0);
}

/** The pipeline's languages, or every language the cache holds when none are given. */
function buildLanguages(store: Store, settings: Settings): string[] {
  const languages = settings.languages.length > 0 ? settings.languages : store.items.langs();
  if (languages.length === 0) {
    throw new ConfigError(`${store.file} holds no language yet: run "cms-mirror pull" first`, {
      field: 'languages',
    });
  }
  for (const lang of languages) {
    if (!store.siteInfo.get(lang)) {
      throw new ConfigError(
        `${store.file} has no pulled data for language "${lang}": run "cms-mirror pull --lang ${lang}" first`,
        { field: 'languages' },
      );
    }
  }
  return languages;
}
