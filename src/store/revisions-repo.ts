import type { StoreContext } from './store-context.js';
import type { CmsItem, ItemUpsertOutcome, ParentType, UpsertResult } from './types.js';
import { contentHash } from './canonical-json.js';
import { assertItemId } from './item-columns.js';

/** One stored revision or autosave; `json` as fetched. */
export interface StoredRevision {
  readonly lang: string;
  readonly parentType: ParentType;
  readonly parentId: number;
  readonly id: number;
  readonly author: number | null;
  readonly modifiedGmt: string | null;
  readonly json: string;
  readonly contentHash: string;
  readonly fetchedAt: string;
}

interface RevisionRow {
  lang: string;
  parent_type: ParentType;
  parent_id: number;
  id: number;
  author: number | null;
  modified_gmt: string | null;
  json: string;
  content_hash: string;
  fetched_at: string;
}

function fromRow(row: RevisionRow): StoredRevision {
  return {
    lang: row.lang,
    parentType: row.parent_type,
    parentId: row.parent_id,
    id: row.id,
    author: row.author,
    modifiedGmt: row.modified_gmt,
    json: row.json,
    contentHash: row.content_hash,
    fetchedAt: row.fetched_at,
  };
}

function optionalInt(value: unknown): number | null {
  return typeof value === 'number' && Number.isSafeInteger(value) ? value : null;
}

/**
 * The `revisions` and `autosaves` tables: same shape, same operations, one class for both.
 * The parent item must already be in `items` (foreign key): pull stores an item before its
 * revisions.
 */
export class RevisionsRepo {
  readonly #ctx: StoreContext;
  readonly #table: 'revisions' | 'autosaves';

  constructor(ctx: StoreContext, table: 'revisions' | 'autosaves') {
    this.#ctx = ctx;
    this.#table = table;
  }

  /**
   * Stores the revisions (or autosaves) of one parent in one transaction; outcomes as for
   * items. The parent is the one given, whatever the JSON's `parent` says (the route it came
   * from is authoritative).
   */
  upsertMany(
    lang: string,
    parentType: ParentType,
    parentId: number,
    revisions: readonly CmsItem[],
  ): UpsertResult {
    revisions.forEach((revision, index) => assertItemId(revision, index));
    const select = this.#ctx.stmt<{ content_hash: string; parent_type: string; parent_id: number }>(
      `SELECT content_hash, parent_type, parent_id FROM ${this.#table} WHERE lang = ? AND id = ?`,
    );
    const upsert = this.#ctx.stmt(`
      INSERT INTO ${this.#table} (lang, parent_type, parent_id, id, author, modified_gmt, json,
                                  content_hash, fetched_at)
      VALUES (@lang, @parentType, @parentId, @id, @author, @modifiedGmt, @json, @contentHash,
              @fetchedAt)
      ON CONFLICT (lang, id) DO UPDATE SET
        parent_type = excluded.parent_type, parent_id = excluded.parent_id,
        author = excluded.author, modified_gmt = excluded.modified_gmt, json = excluded.json,
        content_hash = excluded.content_hash, fetched_at = excluded.fetched_at`);
    return this.#ctx.write(() => {
      const fetchedAt = this.#ctx.nowIso();
      const outcomes: ItemUpsertOutcome[] = [];
      let created = 0;
      let updated = 0;
      let unchanged = 0;
      for (const revision of revisions) {
        const hash = contentHash(revision);
        const existing = select.get(lang, revision.id);
        if (
          existing !== undefined &&
          existing.content_hash === hash &&
          existing.parent_type === parentType &&
          existing.parent_id === parentId
        ) {
          unchanged += 1;
          outcomes.push({ id: revision.id, outcome: 'unchanged', undeleted: false });
          continue;
        }
        upsert.run({
          lang,
          parentType,
          parentId,
          id: revision.id,
          author: optionalInt(revision['author']),
          modifiedGmt:
            typeof revision['modified_gmt'] === 'string' ? revision['modified_gmt'] : null,
          json: JSON.stringify(revision),
          contentHash: hash,
          fetchedAt,
        });
        if (existing === undefined) created += 1;
        else updated += 1;
        outcomes.push({
          id: revision.id,
          outcome: existing === undefined ? 'created' : 'updated',
          undeleted: false,
        });
      }
      return { outcomes, created, updated, unchanged };
    }, `storing ${this.#table}`);
  }

  /** The revisions (autosaves) of one parent, newest `modified_gmt` first, then by id. */
  list(lang: string, parentType: ParentType, parentId: number): StoredRevision[] {
    return this.#ctx.read(() =>
      this.#ctx
        .stmt<RevisionRow>(
          `SELECT * FROM ${this.#table} WHERE lang = ? AND parent_type = ? AND parent_id = ?
           ORDER BY modified_gmt DESC, id DESC`,
        )
        .all(lang, parentType, parentId)
        .map(fromRow),
    );
  }

  get(lang: string, id: number): StoredRevision | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx
        .stmt<RevisionRow>(`SELECT * FROM ${this.#table} WHERE lang = ? AND id = ?`)
        .get(lang, id),
    );
    return row === undefined ? undefined : fromRow(row);
  }

  /** How many are stored for a language (all parents). */
  count(lang: string): number {
    return this.#ctx.read(
      () =>
        this.#ctx
          .stmt<{ n: number }>(`SELECT count(*) AS n FROM ${this.#table} WHERE lang = ?`)
          .get(lang)?.n ?? 0,
    );
  }
}
