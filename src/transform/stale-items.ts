/**
 * The items a transform of one language reads to find what is stale: those logged as changed
 * since its last complete transform with the same key (schema upgrade 20), proportional to
 * the edit, or every live item when there is no such transform (the first, a new key, a cache
 * from before the log, or one that stopped part-way).
 */
import { BUILT_TYPES } from '../collections.js';
import type { Store, StoredItem } from '../store/index.js';

export interface StaleItems {
  /** The stale built items, by type then id; the caller may store each while iterating. */
  readonly items: Iterable<StoredItem>;
  /** Records the transform complete: to be called once every item read was stored. */
  done(): void;
}

export function staleItems(store: Store, lang: string, transformKey: string): StaleItems {
  const options = { types: BUILT_TYPES };
  const logged = store.transformed.loggedChanges(lang, transformKey);
  if (logged !== undefined) {
    const { upTo } = logged;
    return {
      items: store.transformed.iterateStaleLogged(lang, transformKey, upTo, options),
      done: () => {
        if (upTo > 0) store.transformed.finishLoggedPass(lang, transformKey, upTo);
      },
    };
  }
  // Emptied before the pass reads: a change made while it runs is logged for the next.
  store.transformed.startLoggedPass(lang);
  return {
    items: store.transformed.iterateStale(lang, transformKey, options),
    done: () => store.transformed.finishLoggedPass(lang, transformKey, 0),
  };
}
