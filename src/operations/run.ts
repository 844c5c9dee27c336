import type { Settings } from '../config/index.js';
import type { Store } from '../store/index.js';
import type { PullEvent } from '../sync/index.js';
import { build, type BuildResult } from './build.js';
import { earlyWorkers } from './early-workers.js';
import { pull, type PullResult } from './pull.js';

export interface RunOptions {
  readonly settings: Settings;
  /** Build every page again, whatever the pull changed. @default false */
  readonly force?: boolean;
  /** The pull's progress and warnings. */
  readonly onProgress?: (event: PullEvent) => void;
  /** Called once the pull has ended, before the build starts (a progress bar stops here). */
  readonly onPulled?: (pull: PullResult) => void;
  /** The build's lines, one per step. */
  readonly onLine?: (line: string) => void;
  /** Stops the pull between requests (the build does not start). */
  readonly signal?: AbortSignal;
}

export interface RunResult {
  /** 'partial' when the pull left files, revisions or embeds queued for the next one. */
  readonly status: PullResult['status'];
  readonly pull: PullResult;
  readonly build: BuildResult;
}

/**
 * A pull, then a build of what it changed (`cms-mirror run`): a pull that changed nothing in
 * a language skips that language's build, unless the cache says its last build is unfinished.
 * The build's workers start as soon as the pull stores its first changed item, so that the
 * render worker loads Eleventy (~1 s of CPU) while the pull goes on rather than after it; a
 * run whose pull changes nothing starts none. The pull and the build share one connection to the
 * cache, opened by the pull once the site's checks have passed and closed here.
 */
export async function run(options: RunOptions): Promise<RunResult> {
  // The build's modules load while the pull waits for the site.
  const siteStage = import('../site/index.js');
  siteStage.catch(() => undefined);
  const workers = earlyWorkers(siteStage);
  const { openStore } = await import('../store/index.js');
  let store: Store | undefined;
  try {
    const pulled = await pull({
      cache: () => (store ??= openStore(options.settings.cache)),
      settings: options.settings,
      onProgress: (event) => {
        if (event.type === 'changed') workers.start();
        options.onProgress?.(event);
      },
      ...(options.signal ? { signal: options.signal } : {}),
    });
    options.onPulled?.(pulled);
    const built = await build({
      settings: options.settings,
      ...(options.force ? { force: true } : { changed: pulled.changed }),
      ...(options.onLine ? { onLine: options.onLine } : {}),
      workers: workers.take,
      ...(store ? { store } : {}),
    });
    return { status: pulled.status, pull: pulled, build: built };
  } finally {
    try {
      await workers.close();
    } finally {
      store?.close();
    }
  }
}
