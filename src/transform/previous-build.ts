/**
 * What the transform is told of a language's last build. Its own module, without the HTML
 * processing: the calling thread needs it when a run finds nothing stale, and a no-op run
 * must not load the parser (test/integration/cli/lazy-modules.test.ts).
 */
import type { Store } from '../store/index.js';

/** What the transform needs of a language's last build. */
export interface PreviousBuild {
  /**
   * `sitePathsDigest` of the public items it built, or null when its record may not match
   * its pages (it did not complete). When the items now digest the same, every page it made
   * for an item is made again, so its page files are not read.
   */
  readonly pathsDigest: string | null;
  /** The page files it wrote (relative to the language's root), read on demand. */
  readonly pageFiles: () => Iterable<string>;
}

/** `TransformOptions.previousBuild` of a language whose last build is `lastBuild`. */
export function previousBuildOf(
  store: Store,
  lang: string,
  lastBuild: { readonly pathsDigest: string | null } | undefined,
): { previousBuild?: PreviousBuild } {
  if (lastBuild === undefined) return {};
  // The paths only, and only when asked: a run after one edit does not read the manifest.
  return {
    previousBuild: {
      pathsDigest: lastBuild.pathsDigest,
      pageFiles: () => store.buildState.pagePaths(lang),
    },
  };
}
