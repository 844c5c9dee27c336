import type { StoreContext } from './store-context.js';

/**
 * The posts' part of a placement as a build records it (the site layer's text): what placing
 * them found besides them (`facts`), and the posts themselves a chunk at a time, each chunk
 * made only as it is written (at 1,000,000 posts one value of them all was ~54 MB of text).
 */
export interface PlacementPosts {
  readonly facts: string;
  chunks(): Iterable<string>;
}

/**
 * A placement as a build records it: the posts' part, undefined when it is the one recorded
 * (an edit that moved nothing), and the newest post, which an edit may change.
 */
export interface PlacementChange {
  readonly posts?: PlacementPosts | undefined;
  readonly newest: string | null;
}

/** The placement recorded for a language and the `modelDigest` of the build it belongs to. */
export interface SavedPlacement extends PlacementPosts {
  readonly modelDigest: string;
  readonly newest: string | null;
}

/**
 * `build_placement`, `build_placement_facts` and `build_placement_chunks`: where the last build
 * placed each post. Written after the build's record, in a transaction of its own: a placement
 * whose `modelDigest` is not the recorded build's (a run killed between the two) is one the
 * reader ignores.
 */
export class BuildPlacementRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /** The placement recorded for `lang`, or undefined; its chunks are read one at a time. */
  get(lang: string): SavedPlacement | undefined {
    const one = this.#ctx.stmt<{ model_digest: string; newest: string | null; data: string }>(
      `SELECT p.model_digest, p.newest, f.data FROM build_placement p
        JOIN build_placement_facts f ON f.lang = p.lang WHERE p.lang = ?`,
    );
    const row = this.#ctx.read(() => one.get(lang));
    if (row === undefined) return undefined;
    const chunk = this.#ctx.stmt<{ data: string }>(
      'SELECT data FROM build_placement_chunks WHERE lang = ? AND chunk = ?',
    );
    const ctx = this.#ctx;
    return {
      modelDigest: row.model_digest,
      facts: row.data,
      newest: row.newest,
      *chunks() {
        for (let index = 0; ; index++) {
          const found = ctx.read(() => chunk.get(lang, index));
          if (found === undefined) return;
          yield found.data;
        }
      },
    };
  }

  /**
   * Records the placement of the build recorded with `modelDigest`; without `posts`, the posts'
   * part stays as it is (~50 bytes a post, not written again for an edit that moved nothing).
   */
  record(lang: string, modelDigest: string, placement: PlacementChange): void {
    const facts = this.#ctx.stmt(
      `INSERT INTO build_placement_facts (lang, data) VALUES (?, ?)
        ON CONFLICT (lang) DO UPDATE SET data = excluded.data`,
    );
    const cleared = this.#ctx.stmt('DELETE FROM build_placement_chunks WHERE lang = ?');
    const chunk = this.#ctx.stmt(
      'INSERT INTO build_placement_chunks (lang, chunk, data) VALUES (?, ?, ?)',
    );
    // Without the posts' part (never written, or cleared), no row names a placement.
    const state = this.#ctx.stmt(
      `INSERT INTO build_placement (lang, model_digest, newest)
        SELECT ?, ?, ? WHERE EXISTS (SELECT 1 FROM build_placement_facts WHERE lang = ?)
        ON CONFLICT (lang) DO UPDATE SET model_digest = excluded.model_digest,
          newest = excluded.newest`,
    );
    this.#ctx.write(() => {
      const { posts } = placement;
      if (posts !== undefined) {
        facts.run(lang, posts.facts);
        cleared.run(lang);
        let index = 0;
        for (const data of posts.chunks()) chunk.run(lang, index++, data);
      }
      state.run(lang, modelDigest, placement.newest, lang);
    }, 'recording where the build placed the posts');
  }
}
