/**
 * The build stage for every language of a pipeline: transform what is stale, then build the
 * language's static site from the cache, incrementally. Languages are built one after the
 * other: in parallel they gain nothing on two cores and hold two models in memory.
 *
 * Whether a language needs building is decided from the cache alone, so that an interrupted
 * run is finished by the next one whatever its pull counted: the language is skipped only when
 * its last build completed, nothing of it was written to `items` since that build started
 * reading (nor to `transformed` since it ended), the transform version, site, translations
 * and theme are the same, and the output's directories are still there.
 */
import path from 'node:path';
import type { Settings } from '../config/settings.js';
import { ConfigError } from '../errors.js';
import type { SavedState } from '../store/build-state-repo.js';
import { builtAs } from '../collections.js';
import type { Store } from '../store/index.js';
import type { PublishedEntryRow } from '../store/transformed-repo.js';
import { storedHtmlFacts } from '../transform/html-facts.js';
import { itemKey } from '../transform/item-site-paths.js';
import { runTransform } from '../transform/transform-runner.js';
import { transformKey } from '../transform/version.js';
import { buildFromModel, type BuildPhases, type BuildReport } from './build-site.js';
import { digestOf } from './digest.js';
import { isCurrentManifest, MANIFEST_VERSION, type BuildManifest } from './build-manifest.js';
import { canonicalOrder, switcherLanguages } from './language-order.js';
import { modelFromStore } from './model-from-store.js';
import { checkOutputDir } from './output-dir-check.js';
import {
  OFFLOAD_MIN_STALE,
  transformElsewhere,
  type OffloadedTransforms,
} from './offloaded-transform.js';
import { startBuildWorkers, type BuildWorkers } from './build-workers.js';
import { topLevelIntact } from './output-intact.js';
import { readStamp, recoverOutput, stampOf } from './output-switch.js';
import { BUILD_VERSION } from './site-plan.js';
import { scanTemplates } from './template-files.js';
import { defaultTemplatesDir } from './templates-dir.js';

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
}

export interface LanguageBuild {
  written: number;
  unchanged: number;
  removed: number;
  pages: number;
  transformed: number;
  skipped: boolean;
  seconds: number;
  /**
   * Where the language's time went, in seconds: reading and transforming its items, making
   * its model, then the build's own phases (search overlaps render and write).
   */
  phases: LanguagePhases;
  warnings: string[];
  /** Absolute path of the language's home page. */
  index: string;
}

export interface LanguagePhases extends BuildPhases {
  transform: number;
  model: number;
}

export interface BuildSummary {
  languages: Record<string, LanguageBuild>;
  /**
   * Sums over the languages; `wallSeconds` is the whole build's wall time, which also holds the
   * waits between languages (the transform worker) and the workers' shutdown.
   */
  total: {
    written: number;
    unchanged: number;
    removed: number;
    pages: number;
    seconds: number;
    wallSeconds: number;
  };
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
  // Pairing by id reads the site paths of the other languages' items: those not built in
  // this run are transformed too, so that their paths are as current as a full build's.
  const toPrepare = pairsById ? shown : languages;
  checkOutputDir(settings.output);
  // A switch a killed build committed is finished before anything is decided from the output.
  for (const lang of languages) recoverOutput(path.join(settings.output, lang));
  const sanitize = settings.transform?.sanitize ?? true;
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
  const workersFor = (): BuildWorkers => (workers ??= (options.workers ?? startBuildWorkers)());
  if (mayRender(languages, options))
    workersFor().warmUp(settings.templates ?? defaultTemplatesDir());
  let elsewhere: OffloadedTransforms | undefined;
  try {
    // Every language is transformed before any is built: a page's language switcher and
    // hreflang alternates need the site paths of its translations in the other languages.
    const prepared = new Map<string, PreparedLanguage>();
    // Languages after the first with much to transform are transformed in a worker meanwhile.
    // A pull's count of changed items bounds what is stale and spares counting it.
    const offloadFrom = options.offloadTransformFrom ?? OFFLOAD_MIN_STALE;
    elsewhere = transformElsewhere(
      store,
      languages
        .filter(
          (lang) =>
            options.force === true ||
            (options.pulledChanges?.get(lang) ?? Number.POSITIVE_INFINITY) >= offloadFrom,
        )
        .map((lang) => ({ lang, homeUrl: homeUrlOf(store, lang) })),
      offloadFrom,
      sanitize,
    );
    let transformedElsewhere = new Map<string, number>();
    for (const lang of toPrepare) {
      if (elsewhere?.languages.has(lang)) transformedElsewhere = await elsewhere.done;
      prepared.set(
        lang,
        prepareLanguage(store, lang, { ...options, sanitize }, transformedElsewhere.get(lang) ?? 0),
      );
    }
    for (const lang of languages) {
      const others = shown
        .filter((other) => other !== lang)
        .map((other) => [other, pairsById ? (prepared.get(other)?.pathsDigest ?? null) : null]);
      const result = await buildLanguage(store, settings, {
        lang,
        languages: shown,
        options,
        prepared: prepared.get(lang) as PreparedLanguage,
        othersDigest: digestOf(others),
        sourcesAt,
        templatesHash,
        workers: workersFor,
      });
      summary.languages[lang] = result;
      summary.total.written += result.written;
      summary.total.unchanged += result.unchanged;
      summary.total.removed += result.removed;
      summary.total.pages += result.pages;
      summary.total.seconds += result.seconds;
    }
  } finally {
    // Stops a transform worker still running when this thread failed first.
    await elsewhere?.close();
    await workers?.close();
  }
  summary.total.wallSeconds = (performance.now() - started) / 1000;
  return summary;
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

interface PreparedLanguage {
  homeUrl: string;
  /** The last build's record (without its files). */
  state: SavedState | undefined;
  /**
   * Nothing of the language changed since its last complete build: nothing was read or
   * transformed, and `pathsDigest` is the recorded one.
   */
  quiet: boolean;
  /** The last build's manifest, read when the language was not quiet. */
  previous: BuildManifest | undefined;
  /** Public items with their transform output, read when the language was not quiet. */
  published: { pages: PublishedEntryRow[]; posts: PublishedEntryRow[] } | undefined;
  transformed: number;
  /** Items moved to `/{type}/{id}/` that this build transformed (one warning each). */
  moved?: string[];
  /** Digest of the language's public items and their site paths. */
  pathsDigest: string;
  /** Time spent so far, counted in the language's build time. */
  seconds: number;
}

/** Whether the cache says nothing of `lang` changed since its last complete build. */
function isQuiet(store: Store, lang: string, state: SavedState | undefined, key: string): boolean {
  if (
    state === undefined ||
    state.manifestVersion !== MANIFEST_VERSION ||
    state.buildVersion !== BUILD_VERSION ||
    state.sourcesAt === null ||
    state.pathsDigest === null ||
    state.writingSince !== null ||
    state.transformVersion !== key
  ) {
    return false;
  }
  // Equal times count as a change: the clock may not have moved between a write and a read.
  const changed = store.items.lastChangeAt(lang);
  if (changed !== undefined && changed >= state.sourcesAt) return false;
  // The build's own transform writes before it ends; anything written since is someone else's.
  const transformed = store.transformed.lastTransformedAt(lang);
  return transformed === undefined || transformed < state.builtAt;
}

/** The language's remote home URL, as the last pull recorded it. */
function homeUrlOf(store: Store, lang: string): string {
  const info = store.siteInfo.get(lang);
  const homeUrl = (info?.data as { home?: unknown } | undefined)?.home;
  if (typeof homeUrl !== 'string') {
    throw new ConfigError(`${store.file} has no home URL for "${lang}": pull it again`, {
      field: 'languages',
    });
  }
  return homeUrl;
}

/**
 * Decides whether a language may have changed and, if so, transforms what is stale.
 * `transformedElsewhere`: items of it a transform worker has just done (for the summary).
 */
function prepareLanguage(
  store: Store,
  lang: string,
  options: RunBuildOptions & { sanitize: boolean },
  transformedElsewhere = 0,
): PreparedLanguage {
  const started = performance.now();
  const key = transformKey({ sanitize: options.sanitize });
  const homeUrl = homeUrlOf(store, lang);
  const state = store.buildState.getState(lang);
  const pulled = options.pulledChanges?.get(lang);
  if (!options.force && pulled === 0 && isQuiet(store, lang, state, key)) {
    return {
      homeUrl,
      state,
      quiet: true,
      previous: undefined,
      published: undefined,
      transformed: 0,
      pathsDigest: state?.pathsDigest as string,
      seconds: (performance.now() - started) / 1000,
    };
  }
  const saved = store.buildState.get(lang);
  const previous = isCurrentManifest(saved?.manifest) ? saved.manifest : undefined;
  // One read of the public items serves the transform and, after it, the model.
  const published = {
    pages: builtAs('page').flatMap((type) => store.transformed.listPublished(lang, type)),
    posts: builtAs('post').flatMap((type) => store.transformed.listPublished(lang, type)),
  };
  const rows = [...published.pages, ...published.posts].map((row) => ({ type: row.type, row }));
  const transform = runTransform(store, {
    lang,
    homeUrl,
    sanitize: options.sanitize,
    candidates: rows.map(({ type, row }) => ({
      type,
      id: row.id,
      link: row.link,
      contentHash: row.contentHash,
    })),
    // Pages the last build wrote: items linking to one that is gone are transformed again.
    ...(previous ? { previousFiles: Object.keys(previous.files) } : {}),
    refreshFacts: rows
      .filter(
        ({ row }) =>
          row.sourceHash === row.contentHash &&
          row.transformVersion === key &&
          storedHtmlFacts(row.meta) === undefined,
      )
      .map(({ type, row }) => ({ type, id: row.id })),
  });
  if (transform.written.size > 0) {
    for (const group of Object.keys(published) as (keyof typeof published)[]) {
      published[group] = published[group].map((row) => {
        if (!transform.written.has(itemKey(row.type, row.id))) return row;
        const fresh = store.transformed.get(lang, row.type, row.id);
        return fresh
          ? {
              ...row,
              transformVersion: fresh.transformVersion,
              sourceHash: fresh.sourceHash,
              excerpt: fresh.excerpt,
              meta: fresh.meta,
            }
          : row;
      });
    }
  }
  return {
    homeUrl,
    state,
    quiet: false,
    previous,
    published,
    transformed: transform.transformed + transformedElsewhere,
    moved: transform.moved,
    pathsDigest: digestOf([...transform.sitePaths].sort(([a], [b]) => (a < b ? -1 : 1))),
    seconds: (performance.now() - started) / 1000,
  };
}

interface LanguageJob {
  lang: string;
  languages: readonly string[];
  options: RunBuildOptions;
  prepared: PreparedLanguage;
  othersDigest: string;
  sourcesAt: string;
  templatesHash: string;
  /** Started on first use: a language that turns out to be unchanged renders nothing. */
  workers: () => BuildWorkers;
}

async function buildLanguage(
  store: Store,
  settings: Settings,
  job: LanguageJob,
): Promise<LanguageBuild> {
  const { lang, languages, options, prepared } = job;
  const started = performance.now() - prepared.seconds * 1000;
  const outDir = path.join(settings.output, lang);
  const info = store.siteInfo.get(lang);
  const siteDigest = digestOf({
    info: info?.data ?? null,
    languages,
    // Translations published, removed or moved change this language's switcher links.
    translations: job.othersDigest,
    pairing: settings.translations,
    publicUrl: settings.build.publicUrl ?? null,
    postsPerPage: settings.build.postsPerPage,
  });
  const { state } = prepared;
  if (
    prepared.quiet &&
    state?.siteDigest === siteDigest &&
    state.templatesHash === job.templatesHash &&
    // The folder holds the recorded build (not another --out's, nor a half-recorded one).
    readStamp(outDir) === stampOf(state) &&
    topLevelIntact(outDir, store.buildState.topLevelNames(lang))
  ) {
    options.onLine?.(`${lang}: nothing changed since the last build, skipped`);
    return languageResult(undefined, prepared, 0, outDir, started, []);
  }

  let previous = prepared.previous;
  if (prepared.quiet) {
    const saved = store.buildState.get(lang);
    previous = isCurrentManifest(saved?.manifest) ? saved.manifest : undefined;
  }
  // The record says which files are on disk when the last build completed and its directories
  // are still there; otherwise (interrupted, deleted by hand, forced) every file is listed.
  const trusted =
    previous !== undefined &&
    !options.force &&
    options.pulledChanges !== undefined &&
    state?.writingSince === null &&
    topLevelIntact(outDir, store.buildState.topLevelNames(lang));
  const modelStarted = performance.now();
  const { model, warnings } = modelFromStore(store, {
    lang,
    languages: languages.map((code) => ({ lang: code })),
    translations: settings.translations,
    homeUrl: prepared.homeUrl,
    ...(settings.build.publicUrl
      ? { publicUrl: publicUrlFor(settings.build.publicUrl, lang) }
      : {}),
    ...(prepared.published ? { published: prepared.published } : {}),
    transformKey: transformKey(settings.transform),
  });
  const modelSeconds = (performance.now() - modelStarted) / 1000;
  const templatesDir = settings.templates;
  store.buildState.markWriting(lang);
  const report = await buildFromModel(model, {
    outDir,
    ...(templatesDir ? { templatesDir } : {}),
    ...(previous && !options.force ? { previous } : {}),
    ...(trusted && previous ? { filesOnDisk: new Set(Object.keys(previous.files)) } : {}),
    postsPerPage: settings.build.postsPerPage,
    workers: job.workers(),
  });
  store.buildState.record(
    lang,
    report.manifest,
    {
      siteDigest,
      sourcesAt: job.sourcesAt,
      transformVersion: transformKey(settings.transform),
      pathsDigest: prepared.pathsDigest,
    },
    // What `get` read at the start: nothing else writes this language's record meanwhile.
    previous?.files,
  );
  options.onLine?.(
    report.skipped
      ? `${lang}: nothing changed since the last build, skipped`
      : `${lang}: ${report.written} written, ${report.unchanged} unchanged, ${report.removed} removed (${report.pages} pages)`,
  );
  return languageResult(report, prepared, modelSeconds, outDir, started, [
    ...(prepared.moved ?? []),
    ...warnings,
    ...report.warnings,
  ]);
}

/** `publicUrl` names the whole static site; each language lives under its own segment. */
function publicUrlFor(publicUrl: string, lang: string): string {
  return new URL(
    `${encodeURIComponent(lang)}/`,
    publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`,
  ).href;
}

function languageResult(
  report: BuildReport | undefined,
  prepared: PreparedLanguage,
  modelSeconds: number,
  outDir: string,
  started: number,
  warnings: string[],
): LanguageBuild {
  return {
    written: report?.written ?? 0,
    unchanged: report?.unchanged ?? 0,
    removed: report?.removed ?? 0,
    pages: report?.pages ?? 0,
    transformed: prepared.transformed,
    skipped: report === undefined || report.skipped,
    seconds: (performance.now() - started) / 1000,
    phases: {
      transform: round(prepared.seconds),
      model: round(modelSeconds),
      ...(report?.phases ?? { scan: 0, plan: 0, render: 0, search: 0, write: 0 }),
    },
    warnings,
    index: path.join(outDir, 'index.html'),
  };
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
