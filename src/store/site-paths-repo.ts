import { BUILT_TYPES } from '../collections.js';
import { publicItemSql } from './item-rows.js';
import type { StoreContext } from './store-context.js';
import type { ItemType } from './types.js';

/** One public item's place in its language's static site (`site_paths`, schema upgrade 16). */
export interface SitePathRow {
  readonly type: ItemType;
  readonly id: number;
  /** `items.link` it was assigned from. */
  readonly link: string | null;
  /** `urlKey(link)`: what the link resolver looks up; null when the link has none. */
  readonly linkKey: string | null;
  readonly sitePath: string;
  /** At `/{type}/{id}/` because its URL path could not be used. */
  readonly fallback: boolean;
}

/** For which home URL and assignment rules a language's rows were made, and their digest. */
export interface SitePathsState {
  readonly homeUrl: string;
  readonly rules: string;
  readonly digest: string;
}

/** Built collections in the order they win a contested path or link: pages, then posts. */
const TYPE_RANK = `CASE type ${BUILT_TYPES.map((type, rank) => `WHEN '${type}' THEN ${rank}`).join(' ')} END`;

/**
 * `site_paths`: where the transform placed each public item, read back by indexed look-ups
 * (an item's path, a link's item) instead of maps of every item held by the transform.
 * The assignment itself (which item wins a path) is the transform's; this only stores it.
 */
export class SitePathsRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  state(lang: string): SitePathsState | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<{
          home_url: string;
          rules: string;
          digest: string;
        }>('SELECT home_url, rules, digest FROM site_paths_state WHERE lang = ?')
        .get(lang),
    );
    return row === undefined
      ? undefined
      : { homeUrl: row.home_url, rules: row.rules, digest: row.digest };
  }

  /**
   * Whether the stored rows are exactly the language's public items of `types` with their
   * current links: as many rows as public items, and no public item without a row of its
   * link. Answered inside SQLite from the `items_public_entries` index and the rows' key.
   */
  matchPublicItems(lang: string, types: readonly ItemType[]): boolean {
    const countPublic = `SELECT count(*) FROM items i WHERE i.lang = ? AND i.type = ? AND ${publicItemSql('i')}`;
    const unmatched = `SELECT 1 FROM items i WHERE i.lang = ? AND i.type = ? AND ${publicItemSql('i')}
      AND NOT EXISTS (SELECT 1 FROM site_paths s
        WHERE s.lang = i.lang AND s.type = i.type AND s.id = i.id AND s.link IS i.link) LIMIT 1`;
    const countRows = 'SELECT count(*) FROM site_paths WHERE lang = ? AND type = ?';
    return this.#ctx.read(() =>
      types.every((type) => {
        const publicItems = this.#ctx.stmt(countPublic).pluck().get(lang, type) as number;
        const rows = this.#ctx.stmt(countRows).pluck().get(lang, type) as number;
        return publicItems === rows && this.#ctx.stmt(unmatched).get(lang, type) === undefined;
      }),
    );
  }

  /**
   * Whether the stored rows are still exactly the language's public items of `types` with
   * their current links, from the items logged as changed since they last were (schema
   * upgrade 20): each logged item public with a row of its link, or neither. When they are,
   * the log is emptied in the same transaction, so no change logged after the check is lost.
   * Undefined when the language is not logged yet (`matchPublicItems` answers then).
   */
  matchLoggedChanges(lang: string, types: readonly ItemType[]): boolean | undefined {
    if (!this.#isLogged(lang)) return undefined;
    const anyChange = 'SELECT 1 FROM site_paths_changes WHERE lang = ? LIMIT 1';
    if (this.#ctx.read(() => this.#ctx.stmt(anyChange).get(lang)) === undefined) return true;
    const unmatched = `SELECT 1 FROM site_paths_changes c
      LEFT JOIN items i ON i.lang = c.lang AND i.type = c.type AND i.id = c.id AND ${publicItemSql('i')}
      LEFT JOIN site_paths s ON s.lang = c.lang AND s.type = c.type AND s.id = c.id
      WHERE c.lang = ? AND c.type IN (${types.map(() => '?').join(', ')})
        AND NOT ((i.id IS NULL AND s.id IS NULL)
          OR (i.id IS NOT NULL AND s.id IS NOT NULL AND s.link IS i.link))
      LIMIT 1`;
    return this.#ctx.write(() => {
      if (this.#ctx.stmt(unmatched).get(lang, ...types) !== undefined) return false;
      this.#ctx.stmt('DELETE FROM site_paths_changes WHERE lang = ?').run(lang);
      return true;
    }, 'checking changed site paths');
  }

  /**
   * `matchPublicItems`, and when the rows match, the language's changes logged from then on
   * (in the same transaction): a cache from before the log is checked whole once.
   */
  matchPublicItemsAndLog(lang: string, types: readonly ItemType[]): boolean {
    return this.#ctx.write(() => {
      if (!this.matchPublicItems(lang, types)) return false;
      this.#startLogging(lang);
      return true;
    }, 'checking site paths');
  }

  /**
   * Forgets a language's rows and its state, and empties the connection's scratch set of
   * taken paths (`take`), to assign every path again. The changes logged so far are read by
   * the assignment that follows; those made from here on are logged for the next check.
   */
  clear(lang: string): void {
    this.#ctx.write(() => {
      this.#ctx.stmt('DELETE FROM site_paths WHERE lang = ?').run(lang);
      this.#ctx.stmt('DELETE FROM site_paths_state WHERE lang = ?').run(lang);
      this.#startLogging(lang);
    }, 'clearing site paths');
    this.#scratch('site_paths_taken', 'folded');
  }

  /**
   * Stores the rows `place` makes of `items`, in one write: `place` gets a `take` that claims a
   * path (compared as the caller folded it) and answers false when it was claimed already.
   * Claims are kept in a temporary table (on disk, in SQLite's own cache), not in memory.
   */
  placeAll<T>(
    lang: string,
    items: readonly T[],
    place: (item: T, take: (folded: string) => boolean) => SitePathRow,
  ): void {
    const claim = this.#ctx.stmt('INSERT OR IGNORE INTO temp.site_paths_taken (folded) VALUES (?)');
    const insert = this.#ctx.stmt(`INSERT INTO site_paths
      (lang, type, id, link, link_key, site_path, fallback) VALUES (?, ?, ?, ?, ?, ?, ?)`);
    const take = (folded: string): boolean => claim.run(folded).changes === 1;
    this.#ctx.write(() => {
      for (const item of items) {
        const row = place(item, take);
        insert.run(
          lang,
          row.type,
          row.id,
          row.link,
          row.linkKey,
          row.sitePath,
          row.fallback ? 1 : 0,
        );
      }
    }, 'storing site paths');
  }

  /** Records the state of a complete assignment, and empties the scratch set of taken paths. */
  finish(lang: string, state: SitePathsState): void {
    this.#ctx.write(
      () =>
        this.#ctx
          .stmt(
            'INSERT OR REPLACE INTO site_paths_state (lang, home_url, rules, digest) VALUES (?, ?, ?, ?)',
          )
          .run(lang, state.homeUrl, state.rules, state.digest),
      'storing site paths',
    );
    this.#scratch('site_paths_taken', 'folded');
  }

  /** One item's row. */
  get(lang: string, type: ItemType, id: number): SitePathRow | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<RowOfTable>('SELECT * FROM site_paths WHERE lang = ? AND type = ? AND id = ?')
        .get(lang, type, id),
    );
    return row === undefined ? undefined : fromRow(row);
  }

  /** The site path of the first item (pages first, then by id) whose link has `linkKey`. */
  pathOfLink(lang: string, linkKey: string): string | undefined {
    return this.#ctx.read(
      () =>
        this.#ctx
          .stmt(
            `SELECT site_path FROM site_paths WHERE lang = ? AND link_key = ? AND link_key IS NOT NULL
              ORDER BY ${TYPE_RANK}, id LIMIT 1`,
          )
          .pluck()
          .get(lang, linkKey) as string | undefined,
    );
  }

  /** `[type:id, site path]` of every row, ordered by that key as JavaScript compares strings. */
  *byItemKey(lang: string): Generator<[string, string]> {
    // Keys are ASCII (`posts:12`): SQLite's byte order is JavaScript's code-unit order.
    const rows = this.#ctx.read(() =>
      this.#ctx
        .stmt<{ k: string; site_path: string }>(
          `SELECT type || ':' || id AS k, site_path FROM site_paths WHERE lang = ? ORDER BY k`,
        )
        .iterate(lang),
    );
    for (const row of rows) yield [row.k, row.site_path];
  }

  /** Every row of a language in (type, id) order, `chunkSize` a query. */
  *rows(lang: string, chunkSize = 2000): Generator<SitePathRow> {
    let last: { type: string; id: number } = { type: '', id: 0 };
    for (;;) {
      const chunk = this.#ctx.read(() =>
        this.#ctx
          .stmt<RowOfTable>(
            `SELECT * FROM site_paths WHERE lang = ? AND (type, id) > (?, ?)
              ORDER BY type, id LIMIT ?`,
          )
          .all(lang, last.type, last.id, chunkSize),
      );
      for (const row of chunk) yield fromRow(row);
      if (chunk.length < chunkSize) return;
      last = chunk.at(-1) ?? last;
    }
  }

  /**
   * Rows whose item's stored output is current (made from its content by `transformVersion`),
   * with that output's HTML, in (type, id) order, `chunkSize` a query: the items whose links a
   * removed page may have broken.
   */
  *withCurrentHtml(
    lang: string,
    transformVersion: string,
    chunkSize = 200,
  ): Generator<SitePathRow & { html: string }> {
    let last: { type: string; id: number } = { type: '', id: 0 };
    for (;;) {
      const chunk = this.#ctx.read(() =>
        this.#ctx
          .stmt<RowOfTable & { html: string }>(
            `SELECT s.*, t.html FROM site_paths s
              JOIN items i ON i.lang = s.lang AND i.type = s.type AND i.id = s.id
              JOIN transformed t ON t.lang = s.lang AND t.type = s.type AND t.id = s.id
              WHERE s.lang = ? AND (s.type, s.id) > (?, ?)
                AND t.source_hash = i.content_hash AND t.transform_version = ?
              ORDER BY s.type, s.id LIMIT ?`,
          )
          .all(lang, last.type, last.id, transformVersion, chunkSize),
      );
      for (const row of chunk) yield { ...fromRow(row), html: row.html };
      if (chunk.length < chunkSize) return;
      last = chunk.at(-1) ?? last;
    }
  }

  /** Starts a scratch set of file names (`addFile`, `hasFile`), emptied if it existed. */
  startFiles(): void {
    this.#scratch('site_paths_files', 'file');
  }

  addFile(file: string): void {
    this.#ctx.write(
      () =>
        this.#ctx.stmt('INSERT OR IGNORE INTO temp.site_paths_files (file) VALUES (?)').run(file),
      'noting a page file',
    );
  }

  hasFile(file: string): boolean {
    return (
      this.#ctx.read(() =>
        this.#ctx.stmt('SELECT 1 FROM temp.site_paths_files WHERE file = ?').get(file),
      ) !== undefined
    );
  }

  /** Empties the scratch set of file names. */
  endFiles(): void {
    this.#scratch('site_paths_files', 'file');
  }

  #isLogged(lang: string): boolean {
    const sql = 'SELECT 1 FROM site_paths_logging WHERE lang = ?';
    return this.#ctx.read(() => this.#ctx.stmt(sql).get(lang)) !== undefined;
  }

  /** Empties the language's log and has the triggers log its items' changes from now on. */
  #startLogging(lang: string): void {
    this.#ctx.stmt('DELETE FROM site_paths_changes WHERE lang = ?').run(lang);
    this.#ctx.stmt('INSERT OR IGNORE INTO site_paths_logging (lang) VALUES (?)').run(lang);
  }

  /** A temporary one-column set of this connection, created or emptied. */
  #scratch(table: string, column: string): void {
    this.#ctx.read(() => {
      this.#ctx.db.exec(
        `CREATE TEMP TABLE IF NOT EXISTS ${table} (${column} TEXT PRIMARY KEY) WITHOUT ROWID`,
      );
      this.#ctx.db.exec(`DELETE FROM temp.${table}`);
    }, 'preparing a scratch table');
  }
}

interface RowOfTable {
  type: ItemType;
  id: number;
  link: string | null;
  link_key: string | null;
  site_path: string;
  fallback: number;
}

function fromRow(row: RowOfTable): SitePathRow {
  return {
    type: row.type,
    id: row.id,
    link: row.link,
    linkKey: row.link_key,
    sitePath: row.site_path,
    fallback: row.fallback === 1,
  };
}
