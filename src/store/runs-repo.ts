import type { StoreContext } from './store-context.js';
import { fromJsonColumn, toJsonColumn } from './json-column.js';

export type RunStatus = 'running' | 'ok' | 'failed' | 'partial';

/** One command run. A row left `running` means the process died (or is still going). */
export interface Run {
  readonly id: number;
  readonly command: string;
  readonly startedAt: string;
  readonly finishedAt: string | null;
  readonly status: RunStatus;
  /** The command's counters (`created`, `updated`, `requests`...). */
  readonly counters: Readonly<Record<string, unknown>> | null;
}

interface RunRow {
  id: number;
  command: string;
  started_at: string;
  finished_at: string | null;
  status: RunStatus;
  counters: string | null;
}

function fromRow(row: RunRow): Run {
  const counters = fromJsonColumn(row.counters);
  return {
    id: row.id,
    command: row.command,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
    status: row.status,
    counters:
      counters !== null && typeof counters === 'object'
        ? (counters as Record<string, unknown>)
        : null,
  };
}

/** `runs`: one row per command run, for `status` and for "nothing changed, skip the build". */
export class RunsRepo {
  readonly #ctx: StoreContext;

  constructor(ctx: StoreContext) {
    this.#ctx = ctx;
  }

  /** Records the start of a run; returns its id. */
  start(command: string): number {
    const insert = this.#ctx.stmt(
      "INSERT INTO runs (command, started_at, status) VALUES (?, ?, 'running')",
    );
    return this.#ctx.write(
      () => Number(insert.run(command, this.#ctx.nowIso()).lastInsertRowid),
      'recording a run',
    );
  }

  /** Records the end of a run with its final status and counters. */
  finish(
    id: number,
    status: Exclude<RunStatus, 'running'>,
    counters?: Readonly<Record<string, unknown>>,
  ): Run {
    const update = this.#ctx.stmt(
      'UPDATE runs SET finished_at = ?, status = ?, counters = ? WHERE id = ?',
    );
    const changes = this.#ctx.write(
      () => update.run(this.#ctx.nowIso(), status, toJsonColumn(counters), id).changes,
      'recording a run',
    );
    const run = changes === 0 ? undefined : this.get(id);
    if (run === undefined) throw new RangeError(`no run with id ${id}`);
    return run;
  }

  get(id: number): Run | undefined {
    const row = this.#ctx.read(() =>
      this.#ctx.stmt<RunRow>('SELECT * FROM runs WHERE id = ?').get(id),
    );
    return row === undefined ? undefined : fromRow(row);
  }

  /** The most recent run, optionally of one command and/or status. */
  latest(filter: { readonly command?: string; readonly status?: RunStatus } = {}): Run | undefined {
    return this.list({ ...filter, limit: 1 })[0];
  }

  /** Runs, newest first. */
  list(
    filter: {
      readonly command?: string;
      readonly status?: RunStatus;
      readonly limit?: number;
    } = {},
  ): Run[] {
    const where: string[] = [];
    const params: unknown[] = [];
    if (filter.command !== undefined) {
      where.push('command = ?');
      params.push(filter.command);
    }
    if (filter.status !== undefined) {
      where.push('status = ?');
      params.push(filter.status);
    }
    const sql = `SELECT * FROM runs${where.length > 0 ? ` WHERE ${where.join(' AND ')}` : ''} ORDER BY id DESC LIMIT ?`;
    return this.#ctx.read(() =>
      this.#ctx
        .stmt<RunRow>(sql)
        .all(...params, filter.limit ?? -1)
        .map(fromRow),
    );
  }
}
