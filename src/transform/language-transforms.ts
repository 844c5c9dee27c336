/**
 * The transform stage's entry point for a build: every language that may have changed is
 * transformed before any is built, because a page's language switcher and hreflang alternates
 * need the site paths of its translations in the other languages. Languages after the first
 * with many stale items are transformed in a worker thread meanwhile (`offloaded-transform`).
 */
import { BUILT_TYPES } from '../collections.js';
import type { Store } from '../store/index.js';
import { previousBuildOf } from './previous-build.js';
import type { runTransform as RunTransform } from './transform-runner.js';
import { OFFLOAD_MIN_STALE, transformElsewhere } from './offloaded-transform.js';
import { transformKey } from './version.js';

/** One language to transform. */
export interface LanguageToTransform {
  readonly lang: string;
  /** The language's remote home URL. */
  readonly homeUrl: string;
  /**
   * Its last build is this version's (`TransformOptions.previousBuild`): its `pathsDigest`,
   * null when it may not match the pages recorded (the build did not complete). Its page
   * files are read from the cache only when the paths changed. @default not built
   */
  readonly lastBuild?: { readonly pathsDigest: string | null };
  /**
   * A worker may take it: it may hold many stale items (the pull changed many, or nobody
   * counted). The first such language stays on this thread. @default false
   */
  readonly mayOffload?: boolean;
}

export interface TransformLanguagesOptions {
  /** Pipeline `transform.sanitize`. @default true */
  readonly sanitize?: boolean;
  /** Stale items from which a language is worth a worker. @default 500 */
  readonly offloadFrom?: number;
}

/**
 * What a build needs of one transformed language. Not its public rows: held whole from the
 * transform to the model they would cost ~0.8 KB a post at the build's peak; the model reads
 * them again in its order, a chunk at a time (`PublishedOrderReader`).
 */
export interface LanguageTransform {
  /** Items transformed, here or in the worker. */
  transformed: number;
  /** One warning per item this run transformed that was moved to `/{type}/{id}/`. */
  moved: string[];
  /** `sitePathsDigest` of every public item's site path (the cache holds them: `store.sitePaths`). */
  pathsDigest: string;
  /** Seconds this thread spent on the language (not the wait for the worker). */
  seconds: number;
}

/** Transforms what is stale in each language, in the order given. */
export async function transformLanguages(
  store: Store,
  languages: readonly LanguageToTransform[],
  options: TransformLanguagesOptions = {},
): Promise<Map<string, LanguageTransform>> {
  const sanitize = options.sanitize ?? true;
  // The transform (unified, parse5, the rehype plugins) loads only when a language may have changed.
  if (languages.length === 0) return new Map();
  const { runTransform } = await import('./transform-runner.js');
  const elsewhere = transformElsewhere(
    store,
    languages
      .filter((language) => language.mayOffload === true)
      .map(({ lang, homeUrl, lastBuild }) => ({ lang, homeUrl, lastBuild })),
    options.offloadFrom ?? OFFLOAD_MIN_STALE,
    sanitize,
  );
  try {
    const results = new Map<string, LanguageTransform>();
    let transformedElsewhere = new Map<string, number>();
    for (const language of languages) {
      const waitStarted = performance.now();
      if (elsewhere?.languages.has(language.lang)) transformedElsewhere = await elsewhere.done;
      const result = transformLanguage(store, language, sanitize, runTransform);
      // Its own time, waiting for the worker that transformed it included.
      result.seconds = (performance.now() - waitStarted) / 1000;
      result.transformed += transformedElsewhere.get(language.lang) ?? 0;
      results.set(language.lang, result);
    }
    return results;
  } finally {
    // Stops a transform worker still running when this thread failed first.
    await elsewhere?.close();
  }
}

/** One language on this thread: what the worker left stale, and the facts older rows lack. */
function transformLanguage(
  store: Store,
  language: LanguageToTransform,
  sanitize: boolean,
  runTransform: typeof RunTransform,
): LanguageTransform {
  const started = performance.now();
  const { lang, homeUrl } = language;
  const key = transformKey({ sanitize });
  // The transform reads its candidates itself (four columns an item).
  const transform = runTransform(store, {
    lang,
    homeUrl,
    sanitize,
    // Items linking to a page of the last build that is gone are transformed again.
    ...previousBuildOf(store, lang, language.lastBuild),
    // Outputs an older version stored without their HTML facts: usually none, from an index.
    refreshFacts: store.transformed.lackingFacts(lang, key, BUILT_TYPES),
  });
  return {
    transformed: transform.transformed,
    moved: transform.moved,
    pathsDigest: transform.pathsDigest,
    seconds: (performance.now() - started) / 1000,
  };
}
