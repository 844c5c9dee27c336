/**
 * The build stage for every language of a pipeline: transform what is stale, then build the
 * language's static site from the cache, incrementally. Languages are built one after the
 * other: in parallel they gain nothing on two cores and hold two models in memory.
 */
import path from 'node:path';
import type { Settings } from '../config/settings.js';
import { ConfigError } from '../errors.js';
import type { Store } from '../store/index.js';
import { runTransform } from '../transform/transform-runner.js';
import { buildSite, canSkipBuild, type BuildReport } from './build-site.js';
import { digestOf } from './digest.js';
import { isCurrentManifest, type BuildManifest } from './build-manifest.js';
import { modelFromStore } from './model-from-store.js';
import type { ChangeSet } from './site-model.js';

export interface RunBuildOptions {
  /** Items the pull created, updated or deleted, per language; unknown means "look". */
  readonly pulledChanges?: ReadonlyMap<string, number>;
  /** Build even when nothing changed. @default false */
  readonly force?: boolean;
  /** One line per step, for the terminal. */
  readonly onLine?: (line: string) => void;
}

export interface LanguageBuild {
  written: number;
  unchanged: number;
  removed: number;
  pages: number;
  transformed: number;
  skipped: boolean;
  seconds: number;
  warnings: string[];
  /** Absolute path of the language's home page. */
  index: string;
}

export interface BuildSummary {
  languages: Record<string, LanguageBuild>;
  total: { written: number; unchanged: number; removed: number; pages: number; seconds: number };
}

export async function runBuild(
  store: Store,
  settings: Settings,
  options: RunBuildOptions = {},
): Promise<BuildSummary> {
  const languages = buildLanguages(store, settings);
  const summary: BuildSummary = {
    languages: {},
    total: { written: 0, unchanged: 0, removed: 0, pages: 0, seconds: 0 },
  };
  // Every language is transformed before any is built: a page's language switcher and
  // hreflang alternates need the site paths of its translations in the other languages.
  const transforms = new Map<string, LanguageTransform>();
  for (const lang of languages) transforms.set(lang, transformLanguage(store, lang));
  for (const lang of languages) {
    const others = languages
      .filter((other) => other !== lang)
      .map((other) => [other, transforms.get(other)?.pathsDigest ?? null]);
    const transform = transforms.get(lang) as LanguageTransform;
    const result = await buildLanguage(store, settings, lang, languages, options, {
      ...transform,
      othersDigest: digestOf(others),
    });
    summary.languages[lang] = result;
    summary.total.written += result.written;
    summary.total.unchanged += result.unchanged;
    summary.total.removed += result.removed;
    summary.total.pages += result.pages;
    summary.total.seconds += result.seconds;
  }
  return summary;
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

interface LanguageTransform {
  homeUrl: string;
  transformed: number;
  /** The last build's manifest, when this version of the build can use it. */
  previous: BuildManifest | undefined;
  siteDigestBefore: string | undefined;
  /** Digest of the language's public items and their site paths. */
  pathsDigest: string;
  /** Time spent transforming, counted in the language's build time. */
  seconds: number;
}

/** Transforms what is stale in one language (and what links to pages that are gone). */
function transformLanguage(store: Store, lang: string): LanguageTransform {
  const started = performance.now();
  const info = store.siteInfo.get(lang);
  const homeUrl = (info?.data as { home?: unknown } | undefined)?.home;
  if (typeof homeUrl !== 'string') {
    throw new ConfigError(`${store.file} has no home URL for "${lang}": pull it again`, {
      field: 'languages',
    });
  }
  const saved = store.buildState.get(lang);
  const previous = isCurrentManifest(saved?.manifest) ? saved.manifest : undefined;
  // Pages the last build wrote: items linking to one that is gone are transformed again.
  const transform = runTransform(store, {
    lang,
    homeUrl,
    ...(previous ? { previousFiles: Object.keys(previous.files) } : {}),
  });
  return {
    homeUrl,
    transformed: transform.transformed,
    previous,
    siteDigestBefore: saved?.siteDigest,
    pathsDigest: digestOf([...transform.sitePaths].sort(([a], [b]) => (a < b ? -1 : 1))),
    seconds: (performance.now() - started) / 1000,
  };
}

async function buildLanguage(
  store: Store,
  settings: Settings,
  lang: string,
  languages: readonly string[],
  options: RunBuildOptions,
  transform: LanguageTransform & { othersDigest: string },
): Promise<LanguageBuild> {
  const started = performance.now() - transform.seconds * 1000;
  const outDir = path.join(settings.output, lang);
  const info = store.siteInfo.get(lang);
  const { homeUrl, previous } = transform;
  const siteDigest = digestOf({
    info: info?.data ?? null,
    languages,
    // Translations published, removed or moved change this language's switcher links.
    translations: transform.othersDigest,
    publicUrl: settings.build.publicUrl ?? null,
    postsPerPage: settings.build.postsPerPage,
  });
  const pulled = options.pulledChanges?.get(lang);
  const changed: ChangeSet | undefined =
    options.force || pulled === undefined
      ? undefined
      : {
          items: pulled + transform.transformed,
          site: transform.siteDigestBefore !== siteDigest,
        };
  const templatesDir = settings.templates;
  const base = { outDir, ...(templatesDir ? { templatesDir } : {}) };

  if (
    !options.force &&
    canSkipBuild({ ...base, ...(previous ? { previous } : {}), ...(changed ? { changed } : {}) })
  ) {
    options.onLine?.(`${lang}: nothing changed since the last build, skipped`);
    return languageResult(undefined, transform.transformed, outDir, started, []);
  }
  const { model, warnings } = modelFromStore(store, {
    lang,
    languages: languages.map((code) => ({ lang: code })),
    homeUrl,
    ...(settings.build.publicUrl
      ? { publicUrl: publicUrlFor(settings.build.publicUrl, lang) }
      : {}),
  });
  const report = await buildSite(model, {
    ...base,
    ...(previous && !options.force ? { previous } : {}),
    ...(changed ? { changed } : {}),
    postsPerPage: settings.build.postsPerPage,
  });
  store.buildState.set(lang, report.manifest, siteDigest);
  options.onLine?.(
    report.skipped
      ? `${lang}: nothing changed since the last build, skipped`
      : `${lang}: ${report.written} written, ${report.unchanged} unchanged, ${report.removed} removed (${report.pages} pages)`,
  );
  return languageResult(report, transform.transformed, outDir, started, [
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
  transformed: number,
  outDir: string,
  started: number,
  warnings: string[],
): LanguageBuild {
  return {
    written: report?.written ?? 0,
    unchanged: report?.unchanged ?? 0,
    removed: report?.removed ?? 0,
    pages: report?.pages ?? 0,
    transformed,
    skipped: report === undefined || report.skipped,
    seconds: (performance.now() - started) / 1000,
    warnings,
    index: path.join(outDir, 'index.html'),
  };
}
