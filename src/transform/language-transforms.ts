/**
 * The transform stage's entry point for a build: every language that may have changed is
 * transformed before any is built, because a page's language switcher and hreflang alternates
 * need the site paths of its translations in the other languages. Languages after the first
 * with many stale items are transformed in a worker thread meanwhile (`offloaded-transform`).
 */
import { builtAs } from '../collections.js';
import type { Store } from '../store/index.js';
import type { PublishedEntryRow } from '../store/transformed-repo.js';
import type { runTransform as RunTransform } from './transform-runner.js';
import { storedHtmlFacts } from './html-facts.js';
import { itemKey } from './item-site-paths.js';
import { OFFLOAD_MIN_STALE, transformElsewhere } from './offloaded-transform.js';
import { transformKey } from './version.js';

/** A language's public pages and posts with their stored transform output. */
export interface PublishedItems {
  pages: PublishedEntryRow[];
  posts: PublishedEntryRow[];
}

/** One language to transform. */
export interface LanguageToTransform {
  readonly lang: string;
  /** The language's remote home URL. */
  readonly homeUrl: string;
  /** Files its last build wrote (`TransformOptions.previousFiles`). @default none */
  readonly previousFiles?: readonly string[];
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

/** What a build needs of one transformed language. */
export interface LanguageTransform {
  /** Public items with their transform output as it is now (one read for transform and model). */
  published: PublishedItems;
  /** Items transformed, here or in the worker. */
  transformed: number;
  /** One warning per item this run transformed that was moved to `/{type}/{id}/`. */
  moved: string[];
  /** Site path of every public item by `itemKey`. */
  sitePaths: ReadonlyMap<string, string>;
  /** Seconds this thread spent on the language (not the wait for the worker). */
  seconds: number;
}

/** Every public page and post of a language, with its stored transform output. */
export function readPublished(store: Store, lang: string): PublishedItems {
  return {
    pages: builtAs('page').flatMap((type) => store.transformed.listPublished(lang, type)),
    posts: builtAs('post').flatMap((type) => store.transformed.listPublished(lang, type)),
  };
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
      .map(({ lang, homeUrl, previousFiles }) => ({ lang, homeUrl, previousFiles })),
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
  // One read of the public items serves the transform and, after it, the build's model.
  const published = readPublished(store, lang);
  const rows = [...published.pages, ...published.posts];
  const transform = runTransform(store, {
    lang,
    homeUrl,
    sanitize,
    candidates: rows.map((row) => ({
      type: row.type,
      id: row.id,
      link: row.link,
      contentHash: row.contentHash,
    })),
    // Pages the last build wrote: items linking to one that is gone are transformed again.
    ...(language.previousFiles ? { previousFiles: language.previousFiles } : {}),
    refreshFacts: rows
      .filter(
        (row) =>
          row.sourceHash === row.contentHash &&
          row.transformVersion === key &&
          storedHtmlFacts(row.meta) === undefined,
      )
      .map((row) => ({ type: row.type, id: row.id })),
  });
  return {
    published: withFreshRows(store, lang, published, transform.written),
    transformed: transform.transformed,
    moved: transform.moved,
    sitePaths: transform.sitePaths,
    seconds: (performance.now() - started) / 1000,
  };
}

/** The rows read before the transform, with what it wrote read again. */
function withFreshRows(
  store: Store,
  lang: string,
  published: PublishedItems,
  written: ReadonlySet<string>,
): PublishedItems {
  if (written.size === 0) return published;
  const fresh = (row: PublishedEntryRow): PublishedEntryRow => {
    if (!written.has(itemKey(row.type, row.id))) return row;
    const stored = store.transformed.get(lang, row.type, row.id);
    return stored
      ? {
          ...row,
          transformVersion: stored.transformVersion,
          sourceHash: stored.sourceHash,
          excerpt: stored.excerpt,
          meta: stored.meta,
        }
      : row;
  };
  return { pages: published.pages.map(fresh), posts: published.posts.map(fresh) };
}
