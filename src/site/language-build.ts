/**
 * One language of a run, once every language is prepared: skipped when nothing of it changed
 * (`freshness.ts`), else its model read from the cache, built, and recorded.
 */
import path from 'node:path';
import type { Settings } from '../config/settings.js';
import type { Store } from '../store/index.js';
import { transformKey } from '../transform/index.js';
import { buildFromModel, type BuildReport } from './build-site.js';
import type { LanguageBuild } from './build-summary.js';
import type { BuildTrace } from './build-trace.js';
import type { BuildWorkers } from './build-workers.js';
import { digestOf } from './digest.js';
import {
  languageUnchanged,
  mayTrustRecord,
  outputHoldsBuild,
  topLevelIntact,
} from './freshness.js';
import { buildEditedLanguage } from './edit-language.js';
import { modelFromStore, type ModelFromStore } from './model-from-store.js';
import type { PreparedLanguage } from './prepare-languages.js';
import { currentHeader, recordStoredBuild, storedRecord } from './stored-manifest.js';

export interface LanguageJob {
  lang: string;
  /** Every language the switcher shows. */
  languages: readonly string[];
  options: {
    force?: boolean | undefined;
    pulled: boolean;
    onLine?: (line: string) => void;
    trace: BuildTrace;
    /** `RunBuildOptions.pagesFirst`. */
    pagesFirst?: boolean | undefined;
  };
  prepared: PreparedLanguage;
  /** Digest of the other languages' public site paths (when pairing by id). */
  othersDigest: string;
  sourcesAt: string;
  templatesHash: string;
  /** Started on first use: a language that turns out to be unchanged renders nothing. */
  workers: () => BuildWorkers;
}

export async function buildLanguage(
  store: Store,
  settings: Settings,
  job: LanguageJob,
): Promise<LanguageBuild> {
  const { lang, options, prepared } = job;
  const started = performance.now() - prepared.seconds * 1000;
  const outDir = path.join(settings.output, lang);
  const siteDigest = siteDigestOf(store, settings, job);
  const { state } = prepared;
  if (
    languageUnchanged(prepared.quiet, state, { siteDigest, templatesHash: job.templatesHash }) &&
    outputHoldsBuild(outDir, state) &&
    topLevelIntact(outDir, store.buildState.topLevelNames(lang))
  ) {
    options.onLine?.(`${lang}: nothing changed since the last build, skipped`);
    return languageResult(undefined, prepared, 0, outDir, started, []);
  }
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

/** Whatever every page of the language shows besides its items and the theme. */
function siteDigestOf(store: Store, settings: Settings, job: LanguageJob): string {
  return digestOf({
    info: store.siteInfo.get(job.lang)?.data ?? null,
    languages: job.languages,
    // Translations published, removed or moved change this language's switcher links.
    translations: job.othersDigest,
    pairing: settings.translations,
    publicUrl: settings.build.publicUrl ?? null,
    postsPerPage: settings.build.postsPerPage,
  });
}

/** `publicUrl` names the whole static site; each language lives under its own segment. */
function publicUrlFor(publicUrl: string, lang: string): string {
  return new URL(
    `${encodeURIComponent(lang)}/`,
    publicUrl.endsWith('/') ? publicUrl : `${publicUrl}/`,
  ).href;
}

export function languageResult(
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
    ...(report?.planned !== undefined
      ? { plan: report.layoutDigest === undefined ? 'edits' : 'full', planned: report.planned }
      : {}),
  };
}

function round(seconds: number): number {
  return Math.round(seconds * 1000) / 1000;
}
