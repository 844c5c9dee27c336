import type { StoreContext } from './store-context.js';

/**
 * Rows kept at most for one compiler: a theme has a few dozen templates, and every edit of one
 * (under `watch`) adds a row for its new text; past this, the rows start again.
 */
const MAX_ROWS = 200;

/**
 * `nunjucks_compiles`: Nunjucks' compiled code of a theme's templates by the digest of its
 * compile key, for the compiler (Eleventy's and Nunjucks' versions) that made it. Only one
 * compiler's rows are kept: keeping another's drops the rest.
 */
export class NunjucksCompilesRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /** The code `compiler` compiled, by digest. */
  read(compiler: string): Map<string, string> {
    const rows = this.#ctx.stmt<{ digest: string; code: string }>(
      'SELECT digest, code FROM nunjucks_compiles WHERE compiler = ?',
    );
    const found = this.#ctx.read(() => rows.all(compiler), "reading Nunjucks' compiled templates");
    return new Map(found.map((row) => [row.digest, row.code]));
  }

  /** Keeps code `compiler` compiled, by digest (a digest already held keeps its row). */
  keep(compiler: string, compiled: ReadonlyMap<string, string>): void {
    if (compiled.size === 0) return;
    const others = this.#ctx.stmt('DELETE FROM nunjucks_compiles WHERE compiler <> ?');
    const count = this.#ctx.stmt<{ n: number }>(
      'SELECT count(*) AS n FROM nunjucks_compiles WHERE compiler = ?',
    );
    const cleared = this.#ctx.stmt('DELETE FROM nunjucks_compiles WHERE compiler = ?');
    const insert = this.#ctx.stmt(
      'INSERT OR IGNORE INTO nunjucks_compiles (compiler, digest, code) VALUES (?, ?, ?)',
    );
    this.#ctx.write(() => {
      others.run(compiler);
      if ((count.get(compiler)?.n ?? 0) + compiled.size > MAX_ROWS) cleared.run(compiler);
      for (const [digest, code] of compiled) insert.run(compiler, digest, code);
    }, "keeping Nunjucks' compiled templates");
  }
}
