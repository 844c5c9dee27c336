/**
 * A language that has something to build (`language-build.ts` decided it): after a few edits,
 * only the pages they touch; otherwise its model read from the cache, built against the last
 * build's record, and recorded. A module of its own so that a run whose languages are all
 * skipped does not load the build's model, plan, render and search code.
 */
import type { Settings } from '../config/settings.js';
import type { Store } from '../store/index.js';
import { transformKey } from '../transform/index.js';
import { buildFromModel } from './build-site.js';
import type { LanguageBuild } from './build-summary.js';
import { buildEditedLanguage } from './edit-language.js';
import { mayTrustRecord, topLevelIntact } from './freshness.js';
import { languageResult, type LanguageJob } from './language-build.js';
import { modelFromStore, type ModelFromStore } from './model-from-store.js';
import { currentHeader, recordStoredBuild, storedRecord } from './stored-manifest.js';

/** What `buildLanguage` worked out before deciding the language is not skipped. */
export interface RebuildContext {
  readonly outDir: string;
  readonly siteDigest: string;
  /** `performance.now()` when the language's build started (its transform included). */
  readonly started: number;
}

export async function rebuildLanguage(
  store: Store,
  settings: Settings,
  job: LanguageJob,
  context: RebuildContext,
): Promise<LanguageBuild> {
  const { lang, options, prepared } = job;
  const { outDir, siteDigest, started } = context;
  const { state } = prepared;
  // A model the edit path read whole, which a full build after it takes as it is (a streamed
  // one is read anew: what it has read so far decides which warnings it lists).
  let read: ModelFromStore | undefined;
  const model = (streamPosts: boolean): ModelFromStore => {
    const made = languageModel(store, settings, job, { streamPosts });
    if (!streamPosts) read = made;
    return made;
  };
  // After a few edits, only the pages they touch (undefined: their effect is not bounded).
  const edited = await buildEditedLanguage(store, settings, job, { outDir, siteDigest, model });
  if (edited !== undefined) {
    options.onLine?.(
      `${lang}: ${edited.report.written} written, ${edited.report.removed} removed (${edited.report.planned} pages planned after ${edited.changed} changed item(s))`,
    );
    return languageResult(edited.report, prepared, edited.modelSeconds, outDir, started, [
      ...(prepared.moved ?? []),
      ...edited.warnings,
      ...edited.report.warnings,
    ]);
  }
  // A full plan takes long enough for the render worker to run the theme once meanwhile.
  job.warmUp();
  // The last build's rows stay in the cache: looked up file by file (`stored-manifest.ts`).
  const previous = currentHeader(state);
  // The record says which files are on disk when the last build completed and its directories
  // are still there; otherwise (interrupted, deleted by hand, forced) every file is listed.
  const trusted =
    mayTrustRecord(previous, state, { force: options.force === true, pulled: options.pulled }) &&
    topLevelIntact(outDir, store.buildState.topLevelNames(lang));
  const modelStarted = performance.now();
  // Read a window of posts at a time, not held whole, unless the edit path has read it.
  const { model: built, warnings } =
    read ?? languageModel(store, settings, job, { streamPosts: true });
  const modelSeconds = (performance.now() - modelStarted) / 1000;
  store.buildState.markWriting(lang);
  const report = await buildFromModel(built, {
    outDir,
    ...(settings.templates ? { templatesDir: settings.templates } : {}),
    stored: storedRecord(store, lang, options.force ? undefined : previous, trusted),
    postsPerPage: settings.build.postsPerPage,
    workers: job.workers(),
    trace: options.trace,
    finished: job.finished,
  });
  recordStoredBuild(store, lang, report, {
    siteDigest,
    sourcesAt: job.sourcesAt,
    transformVersion: transformKey(settings.transform),
    pathsDigest: prepared.pathsDigest,
    ...(report.layoutDigest !== undefined ? { layoutDigest: report.layoutDigest } : {}),
  });
  if (report.placement !== undefined)
    store.buildPlacement.record(lang, report.manifest.modelDigest, report.placement);
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

/** The language's model from the cache, as every build of it reads it. */
export function languageModel(
  store: Store,
  settings: Settings,
  job: LanguageJob,
  options: {
    /** Read the posts a window at a time (a full build) instead of whole. @default false */
    readonly streamPosts?: boolean;
  } = {},
): ModelFromStore {
  const { streamPosts = false } = options;
  return modelFromStore(store, {
    lang: job.lang,
    languages: job.languages.map((code) => ({ lang: code })),
    translations: settings.translations,
    homeUrl: job.prepared.homeUrl,
    ...(settings.build.publicUrl
      ? { publicUrl: publicUrlFor(settings.build.publicUrl, job.lang) }
      : {}),
    transformKey: transformKey(settings.transform),
    ...(streamPosts ? { streamPosts } : {}),
  });
}

/** `publicUrl` names the whole static site; each language lives under its own segment. */
function publicUrlFor(publicUrl: string, lang: string): string {
  return new URL(
    `${encodeURIComponent(lang)}/`,
    publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`,
  ).href;
}
