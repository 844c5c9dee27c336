import type { StoreContext } from './store-context.js';

/** One file the last build wrote under `output/{lang}/`. */
export interface BuildOutput {
  readonly lang: string;
  /** Relative to `output/{lang}/`, forward slashes. */
  readonly path: string;
  /** sha256 of the bytes written. */
  readonly hash: string;
  readonly bytes: number;
  readonly builtAt: string;
}

export type BuildOutputInput = Pick<BuildOutput, 'path' | 'hash' | 'bytes'>;

interface BuildOutputRow {
  lang: string;
  path: string;
  hash: string;
  bytes: number;
  built_at: string;
}

function fromRow(row: BuildOutputRow): BuildOutput {
  return {
    lang: row.lang,
    path: row.path,
    hash: row.hash,
    bytes: row.bytes,
    builtAt: row.built_at,
  };
}

/** `build_outputs`: what the last build of each language wrote, for incremental builds. */
export class BuildOutputsRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  get(lang: string, path: string): BuildOutput | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<BuildOutputRow>('SELECT * FROM build_outputs WHERE lang = ? AND path = ?')
        .get(lang, path),
    );
    return row === undefined ? undefined : fromRow(row);
  }

  /** Every output of a language, by path. */
  list(lang: string): BuildOutput[] {
    return this.#ctx.read(() =>
      this.#ctx
        .stmt<BuildOutputRow>('SELECT * FROM build_outputs WHERE lang = ? ORDER BY path')
        .all(lang)
        .map(fromRow),
    );
  }

  /** Replaces the whole record of a language with `entries` (a full build), atomically. */
  replace(lang: string, entries: readonly BuildOutputInput[]): void {
    const clear = this.#ctx.stmt('DELETE FROM build_outputs WHERE lang = ?');
    this.#ctx.write(() => {
      clear.run(lang);
      this.#insert(lang, entries);
    }, 'recording build outputs');
  }

  /** Adds or updates some entries (an incremental build) and removes `removedPaths`. */
  update(
    lang: string,
    entries: readonly BuildOutputInput[],
    removedPaths: readonly string[] = [],
  ): void {
    const remove = this.#ctx.stmt('DELETE FROM build_outputs WHERE lang = ? AND path = ?');
    this.#ctx.write(() => {
      for (const path of removedPaths) remove.run(lang, path);
      this.#insert(lang, entries);
    }, 'recording build outputs');
  }

  #insert(lang: string, entries: readonly BuildOutputInput[]): void {
    const upsert = this.#ctx.stmt(`
      INSERT INTO build_outputs (lang, path, hash, bytes, built_at) VALUES (?, ?, ?, ?, ?)
      ON CONFLICT (lang, path) DO UPDATE SET hash = excluded.hash, bytes = excluded.bytes,
        built_at = excluded.built_at`);
    const now = this.#ctx.nowIso();
    for (const entry of entries) upsert.run(lang, entry.path, entry.hash, entry.bytes, now);
  }
}
