import type { StoreContext } from './store-context.js';

/** One file of the build in progress: its row, and whether its bytes were staged. */
export interface StagedRow {
  readonly path: string;
  readonly hash: string;
  readonly input: string;
  readonly bytes: number;
  /** Its bytes are in the staging directory (else the file on disk is kept). */
  readonly written: boolean;
}

/**
 * `build_staged`: the rows of the files a build of a language is making, written as they are
 * staged, so that the build's manifest is never held whole in memory. `BuildStateRepo`'s
 * `recordStaged` makes them the language's record when the build is done.
 */
export class BuildStagedRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /** Drops the rows of a build of `lang` that never completed (a killed or failed one). */
  clear(lang: string): void {
    const clear = this.#ctx.stmt('DELETE FROM build_staged WHERE lang = ?');
    this.#ctx.write(() => clear.run(lang), 'clearing staged build rows');
  }

  /**
   * Adds rows, in one transaction; returns the path of the first that was staged already
   * (a file produced twice: nothing of this call is kept), or undefined.
   */
  add(lang: string, rows: readonly StagedRow[]): string | undefined {
    const insert = this.#ctx.stmt(`
      INSERT INTO build_staged (lang, path, hash, input, bytes, written) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (lang, path) DO NOTHING`);
    let twice: string | undefined;
    try {
      this.#ctx.write(() => {
        for (const row of rows) {
          const { changes } = insert.run(
            lang,
            row.path,
            row.hash,
            row.input,
            row.bytes,
            row.written ? 1 : 0,
          );
          if (changes === 0) {
            twice = row.path;
            throw new Error('produced twice');
          }
        }
      }, 'staging build rows');
    } catch (error) {
      if (twice === undefined) throw error;
    }
    return twice;
  }

  /** The staged row of a file, or undefined. */
  get(lang: string, path: string): StagedRow | undefined {
    const one = this.#ctx.stmt<Omit<StagedRow, 'written'> & { written: number }>(
      'SELECT path, hash, input, bytes, written FROM build_staged WHERE lang = ? AND path = ?',
    );
    const row = this.#ctx.read(() => one.get(lang, path));
    return row === undefined ? undefined : { ...row, written: row.written === 1 };
  }

  /** Rows staged for `lang`. */
  count(lang: string): number {
    const count = this.#ctx.stmt<{ n: number }>(
      'SELECT count(*) AS n FROM build_staged WHERE lang = ?',
    );
    return this.#ctx.read(() => count.get(lang)?.n ?? 0);
  }

  /** The staged rows after `after` in path order, `limit` at most (those written, or all). */
  page(lang: string, after: string, limit: number, writtenOnly = false): StagedRow[] {
    const rows = this.#ctx.stmt<Omit<StagedRow, 'written'> & { written: number }>(
      `SELECT path, hash, input, bytes, written FROM build_staged
       WHERE lang = ? AND path > ? AND written >= ? ORDER BY path LIMIT ?`,
    );
    return this.#ctx
      .read(() => rows.all(lang, after, writtenOnly ? 1 : 0, limit))
      .map((row) => ({ ...row, written: row.written === 1 }));
  }
}
