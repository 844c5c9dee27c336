import type { StoreContext } from './store-context.js';

/**
 * A placement as a build records it: the site layer's record of where each post went (text),
 * undefined when it is the one recorded (an edit that moved nothing), and the newest post,
 * which an edit may change.
 */
export interface PlacementChange {
  readonly data?: string | undefined;
  readonly newest: string | null;
}

/** The placement recorded for a language and the `modelDigest` of the build it belongs to. */
export interface SavedPlacement {
  readonly modelDigest: string;
  readonly data: string;
  readonly newest: string | null;
}

/**
 * `build_placement` + `build_placement_posts`: where the last build placed each post. Written
 * after the build's record, in a transaction of its own: a placement whose `modelDigest` is not
 * the recorded build's (a run killed between the two) is one the reader ignores.
 */
export class BuildPlacementRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /** The placement recorded for `lang`, or undefined. */
  get(lang: string): SavedPlacement | undefined {
    const one = this.#ctx.stmt<{ model_digest: string; newest: string | null; data: string }>(
      `SELECT p.model_digest, p.newest, d.data FROM build_placement p
        JOIN build_placement_posts d ON d.lang = p.lang WHERE p.lang = ?`,
    );
    const row = this.#ctx.read(() => one.get(lang));
    return row === undefined
      ? undefined
      : { modelDigest: row.model_digest, data: row.data, newest: row.newest };
  }

  /**
   * Records the placement of the build recorded with `modelDigest`; without `data`, the posts'
   * record stays as it is (~50 bytes a post, not written again for an edit that moved nothing).
   */
  record(lang: string, modelDigest: string, placement: PlacementChange): void {
    const posts = this.#ctx.stmt(
      `INSERT INTO build_placement_posts (lang, data) VALUES (?, ?)
        ON CONFLICT (lang) DO UPDATE SET data = excluded.data`,
    );
    // Without the posts' record (never written, or cleared), no row names a placement.
    const state = this.#ctx.stmt(
      `INSERT INTO build_placement (lang, model_digest, newest)
        SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM build_placement_posts WHERE lang = ?)
        ON CONFLICT (lang) DO UPDATE SET model_digest = excluded.model_digest,
          newest = excluded.newest`,
    );
    this.#ctx.write(() => {
      if (placement.data !== undefined) posts.run(lang, placement.data);
      state.run(lang, modelDigest, placement.newest, lang);
    }, 'recording where the build placed the posts');
  }
}
