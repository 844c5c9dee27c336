import type { Settings } from '../config/index.js';
import type { Store } from '../store/index.js';
import type { PullCounters, PullEvent, PullSummary } from '../sync/index.js';

export interface PullOptions {
  readonly settings: Settings;
  /** Receives progress and warnings while the pull runs. */
  readonly onProgress?: (event: PullEvent) => void;
  /** Stops the pull between requests; what was committed stays (the next pull resumes). */
  readonly signal?: AbortSignal;
  /**
   * The open cache to pull into, asked for once the site's checks have passed; left open.
   * @default settings.cache, opened and closed by the pull
   */
  readonly cache?: () => Store;
}

export interface PullResult extends PullSummary {
  /** Items created, updated or deleted per language: what a build after it looks at. */
  readonly changed: Readonly<Record<string, number>>;
}

/** Mirrors the site into the cache: what changed since the last pull (see `cms-mirror pull`). */
export async function pull(options: PullOptions): Promise<PullResult> {
  const sync = await import('../sync/index.js');
  const summary = await sync.pull(options.settings, {
    ...(options.onProgress ? { onProgress: options.onProgress } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.cache ? { cache: options.cache } : {}),
  });
  const changed: Record<string, number> = {};
  for (const [lang, counters] of Object.entries(summary.languages))
    changed[lang] = changedItems(counters);
  return { ...summary, changed };
}

export function changedItems(counters: PullCounters): number {
  return counters.created + counters.updated + counters.deleted;
}
