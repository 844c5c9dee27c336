/**
 * A build's manifest kept in the cache instead of in memory (a million-post site has two
 * million files, ~0.3 KB each per copy in memory): the last build's rows are read from
 * `build_outputs` one lookup, or one page in path order, at a time, and the rows of the files
 * this build makes are staged to `build_staged` a batch at a time as the files are staged.
 * When the output switch is done, `recordStaged` makes the staged rows the record in one
 * transaction; rows a killed build staged are cleared by the next one.
 */
import type { BuildSources, SavedState } from '../store/build-state-repo.js';
import type { Store } from '../store/index.js';
import {
  MANIFEST_VERSION,
  type ManifestFile,
  type ManifestHeader,
  type ManifestRows,
  type RecordedFiles,
} from './build-manifest.js';
import type { BuildReport } from './build-site.js';
import { BUILD_VERSION } from './site-plan.js';

/** Rows read at a time when walking a language's rows in path order. */
const PAGE = 1000;

/** Staged rows kept in memory before they are written, in one transaction. */
const BATCH = 500;

/** Walks rows in path order, a page at a time: `next(after)` gives the page after a path. */
function* paged<Row>(next: (after: string) => readonly Row[], pathOf: (row: Row) => string) {
  let after = '';
  for (;;) {
    const rows = next(after);
    yield* rows;
    const last = rows.at(-1);
    if (rows.length < PAGE || last === undefined) return;
    after = pathOf(last);
  }
}

/** The last build's rows of a language, as the cache holds them. */
export class RecordedRows implements RecordedFiles {
  readonly #store: Store;
  readonly #lang: string;
  /** The last lookup: a build asks for a file's row and whether it is on disk in a row. */
  #last: { file: string; row: ManifestFile | undefined } | undefined;

  constructor(store: Store, lang: string) {
    this.#store = store;
    this.#lang = lang;
  }

  get(file: string): ManifestFile | undefined {
    if (this.#last?.file !== file)
      this.#last = { file, row: this.#store.buildState.fileAt(this.#lang, file) };
    return this.#last.row;
  }

  has(file: string): boolean {
    return this.get(file) !== undefined;
  }

  /** Files recorded. */
  get size(): number {
    return this.#store.buildState.fileCount(this.#lang);
  }

  *keys(): Generator<string> {
    for (const [file] of this) yield file;
  }

  [Symbol.iterator](): Iterator<[string, ManifestFile]> {
    return paged(
      (after) => this.#store.buildState.filesAfter(this.#lang, after, PAGE),
      ([file]) => file,
    );
  }

  /** The rows under a directory (`pagefind/s3/`), in path order. */
  under(dir: string): [string, ManifestFile][] {
    return [...this.#store.buildState.filesUnder(this.#lang, dir)];
  }
}

/** The rows of the files a build makes, staged to the cache a batch at a time. */
export class StagedRows implements ManifestRows {
  /**
   * A file set twice is refused by `set` (in the batch held) or when its batch is written (the
   * table's key): no caller looks a file up first, which was a query per file of the build.
   */
  readonly refusesTwice = true;
  readonly #store: Store;
  readonly #lang: string;
  readonly #pending = new Map<string, ManifestFile & { written: boolean }>();

  /** Clears what a build of `lang` that never completed staged. */
  constructor(store: Store, lang: string) {
    this.#store = store;
    this.#lang = lang;
    store.buildStaged.clear(lang);
  }

  get(file: string): ManifestFile | undefined {
    const row = this.#pending.get(file) ?? this.#store.buildStaged.get(this.#lang, file);
    return row && { hash: row.hash, input: row.input, bytes: row.bytes };
  }

  has(file: string): boolean {
    return this.get(file) !== undefined;
  }

  set(file: string, row: ManifestFile, written: boolean): this {
    if (this.#pending.has(file)) throw producedTwice(file);
    this.#pending.set(file, { hash: row.hash, input: row.input, bytes: row.bytes, written });
    if (this.#pending.size >= BATCH) this.flush();
    return this;
  }

  /** Writes the rows kept in memory. */
  flush(): void {
    if (this.#pending.size === 0) return;
    const rows = [...this.#pending].map(([path, row]) => ({ path, ...row }));
    this.#pending.clear();
    const twice = this.#store.buildStaged.add(this.#lang, rows);
    if (twice !== undefined) throw producedTwice(twice);
  }

  /** Rows staged. */
  get size(): number {
    this.flush();
    return this.#store.buildStaged.count(this.#lang);
  }

  [Symbol.iterator](): Iterator<[string, ManifestFile]> {
    this.flush();
    return this.#rows(false);
  }

  /** The files whose bytes were staged, in path order (for the output switch). */
  *written(): Generator<string> {
    this.flush();
    for (const [file] of this.#rows(true)) yield file;
  }

  *#rows(writtenOnly: boolean): Generator<[string, ManifestFile]> {
    const rows = paged(
      (after) => this.#store.buildStaged.page(this.#lang, after, PAGE, writtenOnly),
      (row) => row.path,
    );
    for (const row of rows)
      yield [row.path, { hash: row.hash, input: row.input, bytes: row.bytes }];
  }
}

function producedTwice(file: string): Error {
  return new Error(`Internal error: ${file} is produced twice.`);
}

/** A build's manifest in the cache, as `buildFromModel` takes it (`BuildOptions.stored`). */
export interface StoredRecord {
  /** The last build's header when this build may use its rows (undefined: a full build). */
  readonly previous: ManifestHeader | undefined;
  readonly before: RecordedRows;
  readonly made: StagedRows;
  /** The record stands for the files on disk (it completed, its folders are there): none listed. */
  readonly trusted: boolean;
}

/** The last build's header, when it was recorded by this code (else the build is a full one). */
export function currentHeader(state: SavedState | undefined): ManifestHeader | undefined {
  if (state?.manifestVersion !== MANIFEST_VERSION || state.buildVersion !== BUILD_VERSION)
    return undefined;
  return {
    version: MANIFEST_VERSION,
    buildVersion: state.buildVersion,
    templatesHash: state.templatesHash,
    modelDigest: state.modelDigest,
  };
}

/** The cache's record of `lang` for a build: `previous` undefined for a full build. */
export function storedRecord(
  store: Store,
  lang: string,
  previous: ManifestHeader | undefined,
  trusted: boolean,
): StoredRecord {
  return {
    previous,
    before: new RecordedRows(store, lang),
    made: new StagedRows(store, lang),
    trusted,
  };
}

/**
 * Records a build made with a `StoredRecord`: its staged rows become the record (one
 * transaction), or, when it was skipped, the rows stay and only what it was made from is noted.
 */
export function recordStoredBuild(
  store: Store,
  lang: string,
  report: BuildReport,
  sources: BuildSources,
): void {
  if (report.skipped) {
    store.buildState.recordChanges(
      lang,
      report.manifest,
      { written: new Map(), removed: [] },
      sources,
    );
  } else {
    store.buildState.recordStaged(lang, report.manifest, sources);
  }
}
