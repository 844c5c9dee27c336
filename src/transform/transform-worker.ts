/**
 * Worker thread entry: transforms one language of a cache with a connection of its own, while
 * the main thread transforms another. A full run spends seconds per language in the
 * transform, on one core, before any page is built.
 */
import { openStore } from '../store/index.js';
import { serveCalls } from '../worker-calls.js';
import type { TransformRequest } from './offloaded-transform.js';
import { previousBuildOf } from './previous-build.js';
import { runTransform } from './transform-runner.js';

serveCalls(async (request: TransformRequest): Promise<number> => {
  const store = openStore(request.cacheFile);
  try {
    return runTransform(store, {
      lang: request.lang,
      homeUrl: request.homeUrl,
      sanitize: request.sanitize,
      // As the build does it: items linking to a page the last build wrote that is gone.
      ...previousBuildOf(store, request.lang, request.lastBuild),
    }).transformed;
  } finally {
    store.close();
  }
});
