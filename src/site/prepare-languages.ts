/**
 * Before any language is built: which languages may have changed (decided from the cache
 * alone, `freshness.ts`), and the transform of those (`transformLanguages`, the transform
 * stage's entry point).
 */
import { ConfigError } from '../errors.js';
import type { SavedState } from '../store/build-state-repo.js';
import type { Store } from '../store/index.js';
import { OFFLOAD_MIN_STALE, transformKey, transformLanguages } from '../transform/index.js';
import { MANIFEST_VERSION } from './build-manifest.js';
import { isQuiet } from './freshness.js';
import { BUILD_VERSION } from './build-version.js';

export interface PreparedLanguage {
  homeUrl: string;
  /** The last build's record (without its files). */
  state: SavedState | undefined;
  /**
   * Nothing of the language changed since its last complete build: nothing was read or
   * transformed, and `pathsDigest` is the recorded one.
   */
  quiet: boolean;
  transformed: number;
  /** Items moved to `/{type}/{id}/` that this build transformed (one warning each). */
  moved?: string[];
  /** Digest of the language's public items and their site paths. */
  pathsDigest: string;
  /** Time spent so far, counted in the language's build time. */
  seconds: number;
}

export interface PrepareOptions {
  /** Items the pull changed per language (`RunBuildOptions.pulledChanges`). */
  readonly pulledChanges?: ReadonlyMap<string, number> | undefined;
  readonly force?: boolean | undefined;
  readonly sanitize: boolean;
  /** Stale items from which a language is transformed in a worker. @default 500 */
  readonly offloadFrom?: number | undefined;
  /** Languages this run builds: only those may go to the worker. */
  readonly built: readonly string[];
}

/** Each language's state, and its transform when it may have changed, in the order given. */
export async function prepareLanguages(
  store: Store,
  languages: readonly string[],
  options: PrepareOptions,
): Promise<Map<string, PreparedLanguage>> {
  const key = transformKey({ sanitize: options.sanitize });
  const offloadFrom = options.offloadFrom ?? OFFLOAD_MIN_STALE;
  const known = languages.map((lang) => knownState(store, lang, key, options));
  const transforms = await transformLanguages(
    store,
    known
      .filter((language) => !language.quiet)
      .map(({ lang, homeUrl, lastBuild }) => ({
        lang,
        homeUrl,
        ...(lastBuild ? { lastBuild } : {}),
        mayOffload: mayOffload(lang, offloadFrom, options),
      })),
    { sanitize: options.sanitize, offloadFrom },
  );
  const prepared = new Map<string, PreparedLanguage>();
  for (const { lang, seconds, lastBuild: _last, ...language } of known) {
    const transform = transforms.get(lang);
    prepared.set(
      lang,
      transform === undefined
        ? { ...language, transformed: 0, seconds }
        : {
            ...language,
            transformed: transform.transformed,
            moved: transform.moved,
            pathsDigest: transform.pathsDigest,
            // Its own reading and its own transform: the languages are transformed together,
            // so the time since this language's start would count the others' transforms too.
            seconds: seconds + transform.seconds,
          },
    );
  }
  return prepared;
}

/** What the cache says of a language before anything of it is read. */
function knownState(store: Store, lang: string, key: string, options: PrepareOptions) {
  const started = performance.now();
  const homeUrl = homeUrlOf(store, lang);
  const state = store.buildState.getState(lang);
  const quiet =
    !options.force &&
    options.pulledChanges?.get(lang) === 0 &&
    isQuiet(state, key, {
      itemsAt: store.items.lastChangeAt(lang),
      transformedAt: store.transformed.lastTransformedAt(lang),
    });
  // A quiet language is skipped whole: nothing of its last build is read. Otherwise the
  // transform reads the last build's pages, to find links into pages that are gone, when its
  // items' paths no longer digest as they did (the digest stands for the pages only when that
  // build completed).
  const lastBuild =
    !quiet && isCurrentState(state)
      ? { pathsDigest: state.writingSince === null ? state.pathsDigest : null }
      : undefined;
  return {
    lang,
    seconds: secondsSince(started),
    homeUrl,
    state,
    quiet,
    lastBuild,
    pathsDigest: quiet ? (state?.pathsDigest as string) : '',
  };
}

/** A record the build can use: its manifest and build version are this code's. */
function isCurrentState(state: SavedState | undefined): state is SavedState {
  return state?.manifestVersion === MANIFEST_VERSION && state.buildVersion === BUILD_VERSION;
}

/** A pull's count of changed items bounds what is stale and spares counting it. */
function mayOffload(lang: string, offloadFrom: number, options: PrepareOptions): boolean {
  return (
    options.built.includes(lang) &&
    (options.force === true ||
      (options.pulledChanges?.get(lang) ?? Number.POSITIVE_INFINITY) >= offloadFrom)
  );
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

function secondsSince(started: number): number {
  return (performance.now() - started) / 1000;
}
