import { resolve } from 'node:path';
import type { Database } from 'better-sqlite3';
import { StoreError } from '../errors.js';
import { StoreContext } from './store-context.js';
import { ItemsRepo } from './items-repo.js';
import { ItemVersionsRepo } from './item-versions-repo.js';
import { RevisionsRepo } from './revisions-repo.js';
import { MediaRepo } from './media-repo.js';
import { OembedRepo } from './oembed-repo.js';
import { SyncStateRepo } from './sync-state-repo.js';
import { SiteInfoRepo } from './site-info-repo.js';
import { CheckoutsRepo } from './checkouts-repo.js';
import { EditsRepo } from './edits-repo.js';
import { IdMapRepo } from './id-map-repo.js';
import { RestoreMapRepo } from './restore-map-repo.js';
import { RunsRepo } from './runs-repo.js';
import { TransformedRepo } from './transformed-repo.js';
import { SitePathsRepo } from './site-paths-repo.js';
import { PublishedOrderReader } from './published-order.js';
import { BuildOutputsRepo } from './build-outputs-repo.js';
import { SyncQueueRepo } from './sync-queue-repo.js';
import { BuildStagedRepo } from './build-staged-repo.js';
import { BuildPlacementRepo } from './build-placement-repo.js';
import { BuildStateRepo } from './build-state-repo.js';
import { NunjucksCompilesRepo } from './nunjucks-compiles-repo.js';
import type { BackupResult } from './backup.js';
import { backupDatabase } from './backup.js';
import type { SchemaUpgradeReport } from './schema-upgrade.js';
import { cacheSizePragma } from './store-options.js';

/**
 * An open cache: one SQLite connection and one repository per table. Obtain it with
 * `openStore()`. Every method is synchronous except `backupTo`; each write method is one
 * transaction of its own, and `transaction()` groups several into one.
 */
export class Store {
  /** Absolute path of the cache file. */
  readonly file: string;
  readonly readonly: boolean;
  /** Schema versions before and after opening (`from < to` means it was upgraded). */
  readonly schemaUpgrade: SchemaUpgradeReport;

  readonly items: ItemsRepo;
  /** The kept history of a backup cache (every stored version, and when items went). */
  readonly itemVersions: ItemVersionsRepo;
  readonly revisions: RevisionsRepo;
  readonly autosaves: RevisionsRepo;
  readonly media: MediaRepo;
  readonly oembed: OembedRepo;
  readonly syncState: SyncStateRepo;
  readonly siteInfo: SiteInfoRepo;
  readonly checkouts: CheckoutsRepo;
  readonly edits: EditsRepo;
  readonly idMap: IdMapRepo;
  readonly restoreMap: RestoreMapRepo;
  readonly runs: RunsRepo;
  readonly transformed: TransformedRepo;
  /** Where the transform placed each public item (its link resolver reads them back). */
  readonly sitePaths: SitePathsRepo;
  /** Public items in the build's order, a chunk at a time. */
  readonly publishedOrder: PublishedOrderReader;
  readonly buildOutputs: BuildOutputsRepo;
  /** Work the pull still owes for stored items (revisions, assets). */
  readonly syncQueue: SyncQueueRepo;
  /** The last build of each language (`build_state` + `build_outputs`). */
  readonly buildState: BuildStateRepo;
  /** Where the last build of each language placed its posts (`build_placement`). */
  readonly buildPlacement: BuildPlacementRepo;
  /** The rows of the builds in progress (`build_staged`). */
  readonly buildStaged: BuildStagedRepo;
  /** The theme's compiled templates, kept for the next run's render (`nunjucks_compiles`). */
  readonly nunjucksCompiles: NunjucksCompilesRepo;

  readonly #ctx: StoreContext;

  /** @internal use `openStore()`, which configures the connection and migrates it. */
  constructor(
    db: Database,
    file: string,
    options: { readonly: boolean; now: () => Date; schemaUpgrade: SchemaUpgradeReport },
  ) {
    this.file = file;
    this.readonly = options.readonly;
    this.schemaUpgrade = options.schemaUpgrade;
    this.#ctx = new StoreContext(db, file, options.now, options.readonly);
    this.items = new ItemsRepo(this.#ctx);
    this.itemVersions = new ItemVersionsRepo(this.#ctx);
    this.revisions = new RevisionsRepo(this.#ctx, 'revisions');
    this.autosaves = new RevisionsRepo(this.#ctx, 'autosaves');
    this.media = new MediaRepo(this.#ctx);
    this.oembed = new OembedRepo(this.#ctx);
    this.syncState = new SyncStateRepo(this.#ctx);
    this.siteInfo = new SiteInfoRepo(this.#ctx);
    this.checkouts = new CheckoutsRepo(this.#ctx);
    this.edits = new EditsRepo(this.#ctx);
    this.idMap = new IdMapRepo(this.#ctx);
    this.restoreMap = new RestoreMapRepo(this.#ctx);
    this.runs = new RunsRepo(this.#ctx);
    this.transformed = new TransformedRepo(this.#ctx);
    this.sitePaths = new SitePathsRepo(this.#ctx);
    this.publishedOrder = new PublishedOrderReader(this.#ctx);
    this.buildOutputs = new BuildOutputsRepo(this.#ctx);
    this.syncQueue = new SyncQueueRepo(this.#ctx);
    this.buildState = new BuildStateRepo(this.#ctx);
    this.buildPlacement = new BuildPlacementRepo(this.#ctx);
    this.buildStaged = new BuildStagedRepo(this.#ctx);
    this.nunjucksCompiles = new NunjucksCompilesRepo(this.#ctx);
  }

  /** True until `close()`. */
  get isOpen(): boolean {
    return this.#ctx.db.open;
  }

  /**
   * Runs `fn` in one transaction: every repository write inside it commits together or not
   * at all (e.g. a page of items with its sync cursor). `fn` must be synchronous; an async
   * function is refused and rolled back. Nested calls are savepoints.
   */
  transaction<T>(fn: () => T): T {
    return this.#ctx.write(fn, 'writing');
  }

  /**
   * SQLite's `integrity_check` and `foreign_key_check`: an empty list means the file is
   * sound. For the `verify` command.
   */
  checkIntegrity(): string[] {
    return this.#ctx.read(() => {
      const problems: string[] = [];
      for (const row of this.#ctx.db.pragma('integrity_check') as { integrity_check: string }[]) {
        if (row.integrity_check !== 'ok') problems.push(row.integrity_check);
      }
      for (const row of this.#ctx.db.pragma('foreign_key_check') as {
        table: string;
        rowid: number;
        parent: string;
      }[]) {
        problems.push(`${row.table} row ${row.rowid} points at a missing ${row.parent} row`);
      }
      return problems;
    }, 'checking integrity');
  }

  /**
   * Writes a consistent snapshot of the cache (items, media blobs, everything) to `target`
   * while the cache stays usable, through a temporary file renamed into place.
   */
  async backupTo(target: string): Promise<BackupResult> {
    const absolute = resolve(target);
    if (absolute === this.file) {
      throw new StoreError(
        this.file,
        `cannot back up ${this.file} onto itself; choose another target`,
      );
    }
    return backupDatabase(this.#ctx.db, this.file, absolute);
  }

  /**
   * Sets this connection's page cache (`StoreOptions.pageCacheMib`): a run's build reads the
   * cache its pull wrote through the same connection, with a build's smaller cache.
   */
  setPageCache(mib: number): void {
    this.#ctx.read(() => this.#ctx.db.pragma(cacheSizePragma(mib)), 'setting the page cache');
  }

  /** Closes the connection (checkpointing the WAL). Safe to call twice. */
  close(): void {
    if (this.#ctx.db.open) this.#ctx.db.close();
  }
}
