import type { Settings } from '../config/index.js';
import { build, pull } from '../operations/index.js';
import { changedItems } from '../operations/pull.js';
import type { BuildWorkers } from '../site/index.js';

/**
 * What `watch` does besides pushing, through the library's operations (the pull and the build
 * that `run` chains): a pull that says what it changed, and an incremental build. Each opens
 * the cache for its own run and closes it, so a stop between two actions leaves nothing open.
 */

/** What a pull changed, per language (created + updated + deleted items). */
export interface PullOutcome {
  readonly changes: ReadonlyMap<string, number>;
  /** One line for the terminal; undefined when nothing changed (a periodic pull stays quiet). */
  readonly line: string | undefined;
}

export interface RebuildRequest {
  /** A template changed: every page is looked at again. */
  readonly templates: boolean;
  /** Items changed per language (pushed or pulled); undefined = let the build look. */
  readonly changes?: ReadonlyMap<string, number>;
}

export type PullHook = (signal: AbortSignal) => Promise<PullOutcome>;
export type RebuildHook = (
  request: RebuildRequest,
  onLine: (line: string) => void,
) => Promise<void>;

/** One pull of every configured language (the library's `pull`). */
export function pullHook(settings: Settings): PullHook {
  return async (signal) => {
    const summary = await pull({ settings, signal });
    const total = changedItems(summary.total);
    const partial = summary.status === 'partial';
    return {
      changes: new Map(Object.entries(summary.changed)),
      line:
        total === 0 && !partial
          ? undefined
          : `pulled: ${summary.total.created} created, ${summary.total.updated} updated, ${summary.total.deleted} deleted` +
            (partial ? `; ${summary.total.errors} error(s), retried by the next pull` : ''),
    };
  };
}

/**
 * An incremental build of the output (the library's `build`), one line per language.
 * `workers` gives the session's kept workers (see `keptBuildWorkers`); without it each build
 * starts and stops its own.
 */
export function rebuildHook(settings: Settings, workers?: () => BuildWorkers): RebuildHook {
  return async (request, onLine) => {
    // A template change is not an item change: the build compares the theme's hash itself.
    // Otherwise a language the request does not name had no change (the build counts it 0).
    const changed =
      request.changes === undefined || request.templates
        ? undefined
        : Object.fromEntries(request.changes);
    const summary = await build({
      settings,
      ...(changed !== undefined ? { changed } : {}),
      ...(workers ? { workers } : {}),
      // A saved edit waits for its page: the search bundle follows in a second switch.
      pagesFirst: true,
    });
    for (const [lang, result] of Object.entries(summary.languages)) {
      for (const warning of result.warnings) onLine(`build warning: ${lang}: ${warning}`);
      if (result.skipped) continue;
      onLine(
        `rebuilt ${lang}: ${result.written} written, ${result.unchanged} unchanged, ${result.removed} removed (${result.seconds.toFixed(2)} s)`,
      );
    }
  };
}
