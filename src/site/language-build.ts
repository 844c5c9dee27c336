/**
 * One language of a run, once every language is prepared: skipped when nothing of it changed
 * (`freshness.ts`), else its model read from the cache, built, and recorded
 * (`language-rebuild.ts`, loaded then).
 */
import path from 'node:path';
import type { Settings } from '../config/settings.js';
import type { Store } from '../store/index.js';
import type { BuildFinished, BuildReport } from './build-site.js';
import type { LanguageBuild } from './build-summary.js';
import type { BuildTrace } from './build-trace.js';
import type { BuildWorkers } from './build-workers.js';
import { digestOf } from './digest.js';
import { languageUnchanged, outputHoldsBuild, topLevelIntact } from './freshness.js';
import type { PreparedLanguage } from './prepare-languages.js';

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
  /**
   * Called once the language's pages are rendered (`renders`; its search bundles may still be
   * indexed) and once its bundles are (`bundles`): when no language after it builds, the
   * worker it was done with can stop then. @default nothing
   */
  finished?: BuildFinished;
  /**
   * Has the render worker run the theme once before a full plan (at most once a build; see
   * `runBuild`), so that its first chunk does not pay Eleventy's first run.
   */
  warmUp: () => void;
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
  if (unchangedSince(store, job, outDir, siteDigest)) {
    options.onLine?.(`${lang}: nothing changed since the last build, skipped`);
    return languageResult(undefined, prepared, 0, outDir, started, []);
  }
  // The rest of the build (model, plan, render, search) loads only when a language has
  // something to build: a no-op run skipped every language after loading it all.
  const { rebuildLanguage } = await import('./language-rebuild.js');
  return rebuildLanguage(store, settings, job, { outDir, siteDigest, started });
}

/** What a language's build needs to know whether it is skipped. */
export type SkipCheck = Pick<
  LanguageJob,
  'lang' | 'languages' | 'prepared' | 'othersDigest' | 'templatesHash'
>;

/**
 * Whether `buildLanguage` skips the language: decided from the cache and the output alone,
 * so a run can tell before it builds an earlier language (`runBuild`: the last that renders).
 */
export function languageSkipped(store: Store, settings: Settings, job: SkipCheck): boolean {
  const outDir = path.join(settings.output, job.lang);
  return unchangedSince(store, job, outDir, siteDigestOf(store, settings, job));
}

/** Nothing of the language changed since its last complete build, whose files are all there. */
function unchangedSince(store: Store, job: SkipCheck, outDir: string, siteDigest: string): boolean {
  const { state } = job.prepared;
  return (
    languageUnchanged(job.prepared.quiet, state, {
      siteDigest,
      templatesHash: job.templatesHash,
    }) &&
    outputHoldsBuild(outDir, state) &&
    topLevelIntact(outDir, store.buildState.topLevelNames(job.lang))
  );
}

/** Whatever every page of the language shows besides its items and the theme. */
function siteDigestOf(
  store: Store,
  settings: Settings,
  job: Pick<LanguageJob, 'lang' | 'languages' | 'othersDigest'>,
): string {
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
