import type { StoreContext } from './store-context.js';
import type { ItemType } from './types.js';
import { fromJsonColumn } from './json-column.js';

export type EditState = 'pending' | 'failed' | 'done';

/** A local change waiting to be written to the remote. */
export interface Edit {
  readonly id: number;
  readonly lang: string;
  readonly type: ItemType;
  /** null for an item to create. */
  readonly itemId: number | null;
  readonly file: string | null;
  /** The fields to write (a JSON object as the remote's write route accepts it). */
  readonly fields: Readonly<Record<string, unknown>>;
  readonly baseModifiedGmt: string | null;
  readonly state: EditState;
  /** Why the last attempt failed (the sub-response's code and message), else null. */
  readonly error: string | null;
  readonly createdAt: string;
  readonly updatedAt: string;
}

export interface EditInput {
  readonly lang: string;
  readonly type: ItemType;
  readonly itemId?: number | null;
  readonly file?: string | null;
  readonly fields: Readonly<Record<string, unknown>>;
  readonly baseModifiedGmt?: string | null;
}

/** Fields to change; absent keeps the stored value. */
export interface EditPatch {
  readonly state?: EditState;
  readonly error?: string | null;
  readonly fields?: Readonly<Record<string, unknown>>;
  /** Set after a create succeeded, so a retry updates instead of creating twice. */
  readonly itemId?: number | null;
  readonly baseModifiedGmt?: string | null;
}

export interface EditFilter {
  readonly state?: EditState;
  readonly lang?: string;
  readonly type?: ItemType;
  readonly itemId?: number;
}

interface EditRow {
  id: number;
  lang: string;
  type: ItemType;
  item_id: number | null;
  file: string | null;
  fields: string;
  base_modified_gmt: string | null;
  state: EditState;
  error: string | null;
  created_at: string;
  updated_at: string;
}

function fromRow(row: EditRow): Edit {
  const fields = fromJsonColumn(row.fields);
  return {
    id: row.id,
    lang: row.lang,
    type: row.type,
    itemId: row.item_id,
    file: row.file,
    fields:
      fields !== null && typeof fields === 'object' ? (fields as Record<string, unknown>) : {},
    baseModifiedGmt: row.base_modified_gmt,
    state: row.state,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** `edits`: the push queue. Rows are kept after success (`done`) as a record of what was sent. */
export class EditsRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /** Queues an edit as `pending`; returns it with its id. */
  add(input: EditInput): Edit {
    const insert = this.#ctx.stmt(`
      INSERT INTO edits (lang, type, item_id, file, fields, base_modified_gmt, state, error,
                         created_at, updated_at)
      VALUES (?, ?, ?, ?, ?, ?, 'pending', NULL, ?, ?)`);
    const id = this.#ctx.write(() => {
      const now = this.#ctx.nowIso();
      return Number(
        insert.run(
          input.lang,
          input.type,
          input.itemId ?? null,
          input.file ?? null,
          JSON.stringify(input.fields),
          input.baseModifiedGmt ?? null,
          now,
          now,
        ).lastInsertRowid,
      );
    }, 'queueing an edit');
    const edit = this.get(id);
    if (edit === undefined) throw new Error(`edit ${id} vanished right after insertion`);
    return edit;
  }

  get(id: number): Edit | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx.stmt<EditRow>('SELECT * FROM edits WHERE id = ?').get(id),
    );
    return row === undefined ? undefined : fromRow(row);
  }

  /** Edits in queue order (id), filtered. */
  list(filter: EditFilter = {}): Edit[] {
    const where: string[] = [];
    const params: unknown[] = [];
    for (const [column, value] of [
      ['state', filter.state],
      ['lang', filter.lang],
      ['type', filter.type],
      ['item_id', filter.itemId],
    ] as const) {
      if (value === undefined) continue;
      where.push(`${column} = ?`);
      params.push(value);
    }
    const sql = `SELECT * FROM edits${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id`;
    return this.#ctx.read(() =>
      this.#ctx
        .stmt<EditRow>(sql)
        .all(...params)
        .map(fromRow),
    );
  }

  /** Applies a patch; returns the updated edit, or undefined when the id is unknown. */
  update(id: number, patch: EditPatch): Edit | undefined {
    const update = this.#ctx.stmt(`
      UPDATE edits SET
        state = coalesce(@state, state),
        error = CASE WHEN @setError THEN @error ELSE error END,
        fields = coalesce(@fields, fields),
        item_id = CASE WHEN @setItemId THEN @itemId ELSE item_id END,
        base_modified_gmt = CASE WHEN @setBase THEN @base ELSE base_modified_gmt END,
        updated_at = @now
      WHERE id = @id`);
    const changes = this.#ctx.write(
      () =>
        update.run({
          id,
          state: patch.state ?? null,
          setError: patch.error !== undefined ? 1 : 0,
          error: patch.error ?? null,
          fields: patch.fields === undefined ? null : JSON.stringify(patch.fields),
          setItemId: patch.itemId !== undefined ? 1 : 0,
          itemId: patch.itemId ?? null,
          setBase: patch.baseModifiedGmt !== undefined ? 1 : 0,
          base: patch.baseModifiedGmt ?? null,
          now: this.#ctx.nowIso(),
        }).changes,
      'updating an edit',
    );
    return changes === 0 ? undefined : this.get(id);
  }

  remove(id: number): boolean {
    const remove = this.#ctx.stmt('DELETE FROM edits WHERE id = ?');
    return this.#ctx.write(() => remove.run(id).changes > 0, 'removing an edit');
  }
}
