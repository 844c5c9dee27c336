/**
 * Transforms languages in a worker thread while the main thread transforms the first one.
 * Only languages with many stale items go there: a worker and its second connection to the
 * cache cost ~0.2 s to start, which an edit of one post must not pay.
 */
import type { Store } from '../store/index.js';
import { transformKey } from './version.js';
import { startWorkerCalls } from '../worker-calls.js';

/** One language to transform, as the transform worker receives it. */
export interface TransformRequest {
  cacheFile: string;
  lang: string;
  homeUrl: string;
  /** Pipeline `transform.sanitize`. */
  sanitize: boolean;
  /**
   * The language's last build is this version's: its `pathsDigest` (`PreviousBuild`); its
   * page files are read from the cache when the paths changed. @default not built
   */
  lastBuild?: { pathsDigest: string | null } | undefined;
}

/** Stale items from which a language is worth a worker. */
export const OFFLOAD_MIN_STALE = 500;

/** Languages being transformed in a worker, and the items transformed per language. */
export interface OffloadedTransforms {
  readonly languages: ReadonlySet<string>;
  readonly done: Promise<Map<string, number>>;
  /** Stops the worker if it still runs (what it committed stays; a later run redoes the rest). */
  close(): Promise<void>;
}

/**
 * Starts transforming, in a worker, the languages after the first of `languages` that have at
 * least `minStale` stale items, one after the other. Undefined when none qualifies (nothing is
 * started).
 */
export function transformElsewhere(
  store: Store,
  languages: readonly Pick<TransformRequest, 'lang' | 'homeUrl' | 'lastBuild'>[],
  minStale: number = OFFLOAD_MIN_STALE,
  sanitize = true,
): OffloadedTransforms | undefined {
  const key = transformKey({ sanitize });
  const chosen = languages
    .slice(1)
    .filter(({ lang }) => store.transformed.countStale(lang, key) >= minStale);
  if (chosen.length === 0) return undefined;
  const worker = startWorkerCalls<TransformRequest, number>(
    // `../transform/`: the same file from the bundled CLI (`dist/cli/`, scripts/bundle-cli.mjs).
    new URL('../transform/transform-worker.js', import.meta.url),
  );
  const done = (async () => {
    const transformed = new Map<string, number>();
    try {
      for (const language of chosen) {
        transformed.set(
          language.lang,
          await worker.call({ ...language, cacheFile: store.file, sanitize }),
        );
      }
      return transformed;
    } finally {
      await worker.close();
    }
  })();
  // Awaited by the caller after its own transform; a failure must not count as unhandled.
  done.catch(() => undefined);
  return {
    languages: new Set(chosen.map(({ lang }) => lang)),
    done,
    close: () => worker.close(),
  };
}
