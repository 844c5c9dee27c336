import { fromRow, type RowOf } from './row-fields.js';
import type { StoreContext } from './store-context.js';

/** The record of one language's last build, shaped as the build's manifest. */
export interface BuildManifestRecord {
  readonly version: number;
  readonly buildVersion: string;
  readonly templatesHash: string;
  readonly modelDigest: string;
  /** By file relative to `output/{lang}/`. */
  readonly files: Readonly<Record<string, { hash: string; input: string; bytes: number }>>;
}

/** What a build recorded besides its files: what it was made from. */
export interface BuildSources {
  readonly siteDigest: string;
  /**
   * When the build started reading the cache (the store's clock, from `now()`): items or
   * transformed rows written at or after it may be missing from the output.
   */
  readonly sourcesAt: string;
  /** The transform version the build's HTML was made with. */
  readonly transformVersion: string;
  /** Digest of the language's public items and their site paths, as built. */
  readonly pathsDigest: string;
  /**
   * Where the build placed every public item (`layout-digest.ts`); undefined keeps the
   * recorded one (a build that planned nothing), null clears it.
   */
  readonly layoutDigest?: string | null;
}

export interface SavedState {
  readonly manifestVersion: number;
  readonly buildVersion: string;
  readonly templatesHash: string;
  readonly modelDigest: string;
  readonly siteDigest: string;
  readonly builtAt: string;
  /** Null when recorded by a version without it (or by `set`). */
  readonly sourcesAt: string | null;
  /** Set while a build is writing files; a build that completes clears it. */
  readonly writingSince: string | null;
  readonly transformVersion: string | null;
  readonly pathsDigest: string | null;
  /** Null when recorded by a version without it, or by a build that did not place items. */
  readonly layoutDigest?: string | null;
}

export interface SavedBuild {
  readonly manifest: BuildManifestRecord;
  readonly siteDigest: string;
  readonly builtAt: string;
  readonly sourcesAt: string | null;
  readonly writingSince: string | null;
  readonly transformVersion: string | null;
  readonly pathsDigest: string | null;
}

/** A `build_state` row: the language it is keyed by, and the state. */
type StateRow = RowOf<SavedState> & { lang: string };

function stateFromRow({ lang: _lang, ...row }: StateRow): SavedState {
  return fromRow<SavedState>(row);
}

type ManifestRow = BuildManifestRecord['files'][string];

/** A row `recordChanges` deletes. */
const DELETED: ManifestRow = { hash: '', input: '', bytes: -1 };

interface OutputRow {
  path: string;
  hash: string;
  input: string;
  bytes: number;
}

/**
 * `build_state` + `build_outputs`: the last build of each language as the build's manifest.
 * Kept as rows rather than one JSON value so that people can ask the cache what was built.
 */
export class BuildStateRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  get(lang: string): SavedBuild | undefined {
    return this.#ctx.read(() => {
      const state = this.#ctx.stmt<StateRow>('SELECT * FROM build_state WHERE lang = ?').get(lang);
      if (state === undefined) return undefined;
      const files: Record<string, { hash: string; input: string; bytes: number }> = {};
      // Rows as arrays: a manifest has tens of thousands of rows, read on every build. (Its
      // own query text: statements are shared by text, and `raw` is a statement's setting.)
      const rows = this.#ctx
        .stmt('SELECT path, hash, input, bytes FROM build_outputs WHERE lang = ? -- as arrays')
        .raw(true)
        .all(lang) as [string, string, string, number][];
      for (const [path, hash, input, bytes] of rows) files[path] = { hash, input, bytes };
      return {
        manifest: {
          version: state.manifest_version,
          buildVersion: state.build_version,
          templatesHash: state.templates_hash,
          modelDigest: state.model_digest,
          files,
        },
        siteDigest: state.site_digest,
        builtAt: state.built_at,
        sourcesAt: state.sources_at,
        writingSince: state.writing_since,
        transformVersion: state.transform_version,
        pathsDigest: state.paths_digest,
      };
    }, 'reading the last build');
  }

  /** The last build's record without its files: one row, for deciding whether to build. */
  getState(lang: string): SavedState | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx.stmt<StateRow>('SELECT * FROM build_state WHERE lang = ?').get(lang),
    );
    return row === undefined ? undefined : stateFromRow(row);
  }

  /**
   * The first path segments (`index.html`, `2024`, `pagefind`) of the files the last build
   * wrote: enough to notice a deleted output directory without listing every file.
   */
  topLevelNames(lang: string): string[] {
    // A skip scan over the (lang, path) key: one index seek per name, not a read of every row
    // (twenty thousand per language, on every no-op run). Paths under `name/` sort together,
    // and `name0` is the first string after all of them ('0' follows '/').
    const next = this.#ctx.stmt<{ path: string | null }>(
      'SELECT min(path) AS path FROM build_outputs WHERE lang = ? AND path >= ?',
    );
    return this.#ctx.read(() => {
      const names = new Set<string>();
      let from = '';
      for (;;) {
        const path = next.get(lang, from)?.path;
        if (path === null || path === undefined) return [...names].sort();
        const slash = path.indexOf('/');
        const name = slash > 0 ? path.slice(0, slash) : path;
        names.add(name);
        from = slash > 0 ? `${name}0` : `${path}\u0000`;
      }
    });
  }

  /**
   * The recorded rows of the given files (those recorded): one index seek each, for a build
   * that knows which few files it may change.
   */
  filesAt(lang: string, paths: Iterable<string>): Map<string, ManifestRow> {
    const one = this.#ctx.stmt<ManifestRow>(
      'SELECT hash, input, bytes FROM build_outputs WHERE lang = ? AND path = ?',
    );
    return this.#ctx.read(() => {
      const rows = new Map<string, ManifestRow>();
      for (const path of paths) {
        const row = one.get(lang, path);
        if (row !== undefined)
          rows.set(path, { hash: row.hash, input: row.input, bytes: row.bytes });
      }
      return rows;
    });
  }

  /** The recorded rows of the files under a directory (`media/`, `pagefind/s3/`): one range. */
  filesUnder(lang: string, dir: string): Map<string, ManifestRow> {
    // Paths under `dir/` sort between `dir/` and `dir0` ('0' follows '/').
    const end = `${dir.replace(/\/$/, '')}0`;
    const rows = this.#ctx
      .stmt(
        'SELECT path, hash, input, bytes FROM build_outputs WHERE lang = ? AND path >= ? AND path < ? -- as arrays',
      )
      .raw(true);
    const found = new Map<string, ManifestRow>();
    const all = this.#ctx.read(() => rows.all(lang, dir, end)) as [
      string,
      string,
      string,
      number,
    ][];
    for (const [path, hash, input, bytes] of all) found.set(path, { hash, input, bytes });
    return found;
  }

  /**
   * The recorded page files (`…/index.html`) of the last build: the paths only, which is what
   * the transform needs to find links into pages that are gone.
   */
  pagePaths(lang: string): string[] {
    const rows = this.#ctx
      .stmt("SELECT path FROM build_outputs WHERE lang = ? AND path LIKE '%index.html' -- paths")
      .raw(true);
    return (this.#ctx.read(() => rows.all(lang)) as [string][]).map(([path]) => path);
  }

  /** Files the last build recorded (every file of the language's folder). */
  fileCount(lang: string): number {
    const count = this.#ctx.stmt<{ n: number }>(
      'SELECT count(*) AS n FROM build_outputs WHERE lang = ?',
    );
    return this.#ctx.read(() => count.get(lang)?.n ?? 0);
  }

  /** HTML pages the last build recorded, search bundles aside. */
  pageCount(lang: string): number {
    const count = this.#ctx.stmt<{ n: number }>(
      "SELECT count(*) AS n FROM build_outputs WHERE lang = ? AND path LIKE '%.html' AND path NOT LIKE 'pagefind/%'",
    );
    return this.#ctx.read(() => count.get(lang)?.n ?? 0);
  }

  /**
   * Items (`post:12`) of a language written to `items` at or after `sourcesAt`, or whose
   * transform output was written at or after `builtAt`: what may have changed since the
   * build that recorded those times. Undefined when more than `limit` did.
   */
  changedSince(
    lang: string,
    since: { sourcesAt: string; builtAt: string },
    limit: number,
  ): Set<string> | undefined {
    const rows = this.#ctx.stmt<{ type: string; id: number }>(`
      SELECT type, id FROM items WHERE lang = ? AND fetched_at >= ?
      UNION SELECT type, id FROM items WHERE lang = ? AND deleted_at >= ?
      UNION SELECT type, id FROM transformed WHERE lang = ? AND transformed_at >= ?
      LIMIT ?`);
    const found = this.#ctx.read(() =>
      rows.all(lang, since.sourcesAt, lang, since.sourcesAt, lang, since.builtAt, limit + 1),
    );
    return found.length > limit ? undefined : new Set(found.map((row) => `${row.type}:${row.id}`));
  }

  /**
   * Records a build that changed only some files: the rows given are written (new or
   * changed ones), those named removed are deleted, every other row stays as it is; the state
   * as `record` writes it. One transaction.
   */
  recordChanges(
    lang: string,
    header: Omit<BuildManifestRecord, 'files'>,
    changes: { written: ReadonlyMap<string, ManifestRow>; removed: readonly string[] },
    sources: BuildSources,
  ): void {
    // `record` writes the rows it is given and deletes the recorded rows it is not given: told
    // that only the removed rows are recorded, it touches nothing else.
    const removed = Object.fromEntries(changes.removed.map((path) => [path, DELETED]));
    this.record(lang, { ...header, files: Object.fromEntries(changes.written) }, sources, removed);
  }

  /** The store's clock (ISO 8601 UTC), the same one `items.fetched_at` is written with. */
  now(): string {
    return this.#ctx.nowIso();
  }

  /**
   * Notes that a build of `lang` is about to write files. Until `record` clears it, the output
   * may be half old, half new: the next build checks every file instead of trusting the
   * record. Does nothing when the language was never built (the next build is a full one).
   */
  markWriting(lang: string): void {
    const mark = this.#ctx.stmt('UPDATE build_state SET writing_since = ? WHERE lang = ?');
    this.#ctx.write(() => mark.run(this.#ctx.nowIso(), lang), 'marking a build in progress');
  }

  /**
   * Records a completed build: its files (only the rows that changed are written, so a
   * one-page build does not rewrite twenty thousand rows) and what it was made from, and
   * clears `writingSince`. One transaction: never half a record.
   */
  record(
    lang: string,
    manifest: BuildManifestRecord,
    sources: BuildSources,
    /** The files as `get` read them before this build, when the caller has them: not read again. */
    recorded?: BuildManifestRecord['files'],
  ): void {
    const current = this.#ctx.stmt<OutputRow>(
      'SELECT path, hash, input, bytes FROM build_outputs WHERE lang = ?',
    );
    const remove = this.#ctx.stmt('DELETE FROM build_outputs WHERE lang = ? AND path = ?');
    const upsert = this.#ctx.stmt(`
      INSERT INTO build_outputs (lang, path, hash, bytes, built_at, input) VALUES (?, ?, ?, ?, ?, ?)
      ON CONFLICT (lang, path) DO UPDATE SET hash = excluded.hash, bytes = excluded.bytes,
        built_at = excluded.built_at, input = excluded.input`);
    const now = this.#ctx.nowIso();
    this.#ctx.write(() => {
      const before = new Map<string, Omit<OutputRow, 'path'>>(
        recorded ? Object.entries(recorded) : current.all(lang).map((row) => [row.path, row]),
      );
      for (const [path, file] of Object.entries(manifest.files)) {
        const old = before.get(path);
        before.delete(path);
        if (old?.hash === file.hash && old.input === file.input && old.bytes === file.bytes)
          continue;
        upsert.run(lang, path, file.hash, file.bytes, now, file.input);
      }
      for (const path of before.keys()) remove.run(lang, path);
      this.#writeState(lang, manifest, sources, now);
    }, 'recording the build');
  }

  /**
   * Records a completed build whose rows were staged as it made its files (`build_staged`):
   * they become the language's rows (only those that changed are written), the recorded rows
   * it did not make are deleted, the staged rows cleared, the state written and `writingSince`
   * cleared. One transaction: never half a record.
   */
  recordStaged(
    lang: string,
    header: Omit<BuildManifestRecord, 'files'>,
    sources: BuildSources,
  ): void {
    const gone = this.#ctx.stmt(`
      DELETE FROM build_outputs WHERE lang = ? AND NOT EXISTS
        (SELECT 1 FROM build_staged s WHERE s.lang = build_outputs.lang AND s.path = build_outputs.path)`);
    const upsert = this.#ctx.stmt(`
      INSERT INTO build_outputs (lang, path, hash, bytes, built_at, input)
        SELECT lang, path, hash, bytes, ?, input FROM build_staged WHERE lang = ? ORDER BY path
      ON CONFLICT (lang, path) DO UPDATE SET hash = excluded.hash, bytes = excluded.bytes,
        built_at = excluded.built_at, input = excluded.input
      WHERE build_outputs.hash <> excluded.hash OR build_outputs.input <> excluded.input
        OR build_outputs.bytes <> excluded.bytes`);
    const clear = this.#ctx.stmt('DELETE FROM build_staged WHERE lang = ?');
    const now = this.#ctx.nowIso();
    this.#ctx.write(() => {
      gone.run(lang);
      upsert.run(now, lang);
      clear.run(lang);
      this.#writeState(lang, header, sources, now);
    }, 'recording the build');
  }

  /** The recorded row of one file, or undefined. */
  fileAt(lang: string, path: string): ManifestRow | undefined {
    const one = this.#ctx.stmt<ManifestRow>(
      'SELECT hash, input, bytes FROM build_outputs WHERE lang = ? AND path = ?',
    );
    const row = this.#ctx.read(() => one.get(lang, path));
    return row === undefined ? undefined : { hash: row.hash, input: row.input, bytes: row.bytes };
  }

  /** The recorded rows after `after` in path order, `limit` at most: a walk a page at a time. */
  filesAfter(lang: string, after: string, limit: number): [string, ManifestRow][] {
    const rows = this.#ctx
      .stmt(
        'SELECT path, hash, input, bytes FROM build_outputs WHERE lang = ? AND path > ? ORDER BY path LIMIT ? -- as arrays',
      )
      .raw(true);
    const all = this.#ctx.read(() => rows.all(lang, after, limit)) as [
      string,
      string,
      string,
      number,
    ][];
    return all.map(([path, hash, input, bytes]) => [path, { hash, input, bytes }]);
  }

  #writeState(
    lang: string,
    manifest: Omit<BuildManifestRecord, 'files'>,
    sources: BuildSources,
    now: string,
  ): void {
    const state = this.#ctx.stmt(`
      INSERT INTO build_state (lang, manifest_version, build_version, templates_hash, model_digest,
        site_digest, built_at, sources_at, writing_since, transform_version, paths_digest,
        layout_digest)
      VALUES (?, ?, ?, ?, ?, ?, ?, ?, NULL, ?, ?, ?)
      ON CONFLICT (lang) DO UPDATE SET manifest_version = excluded.manifest_version,
        build_version = excluded.build_version, templates_hash = excluded.templates_hash,
        model_digest = excluded.model_digest, site_digest = excluded.site_digest,
        built_at = excluded.built_at, sources_at = excluded.sources_at, writing_since = NULL,
        transform_version = excluded.transform_version, paths_digest = excluded.paths_digest,
        layout_digest = CASE WHEN ? THEN excluded.layout_digest ELSE build_state.layout_digest END`);
    state.run(
      lang,
      manifest.version,
      manifest.buildVersion,
      manifest.templatesHash,
      manifest.modelDigest,
      sources.siteDigest,
      now,
      sources.sourcesAt,
      sources.transformVersion,
      sources.pathsDigest,
      sources.layoutDigest ?? null,
      sources.layoutDigest === undefined ? 0 : 1,
    );
  }
}
