/**
 * The counters a pull reports (per language and in total), the events it emits while it runs,
 * and the small pure helpers to combine them.
 */
import type { ItemType } from '../store/index.js';

/** What one language (or the whole pull) did. The first eight keys are the documented summary. */
export interface PullCounters {
  /** HTTP attempts sent, retries included. */
  requests: number;
  /** Items new to the cache (or back after a tombstone). */
  created: number;
  /** Items whose content (or context) changed. */
  updated: number;
  /** Items tombstoned because they left the remote set. */
  deleted: number;
  /** Items read again and found identical (each item counted once per pull). */
  unchanged: number;
  /** Revisions and autosaves stored new or changed. */
  revisions: number;
  /** Bytes of media files downloaded. */
  media_bytes: number;
  seconds: number;
  /** Bad records: logged and skipped, never stored. */
  skipped: number;
  /** Media files downloaded (URLs already in the cache are not downloaded again). */
  media_files: number;
  /** Media URLs refused because their origin is not allowed (`media.allowedOrigins`). */
  media_refused: number;
  /** Media files, revisions or embeds that could not be fetched (retried by the next pull). */
  errors: number;
  /** oEmbed answers fetched (cached ones are not asked again). */
  embeds: number;
}

export type CounterName = keyof PullCounters;

export function emptyCounters(): PullCounters {
  return {
    requests: 0,
    created: 0,
    updated: 0,
    deleted: 0,
    unchanged: 0,
    revisions: 0,
    media_bytes: 0,
    seconds: 0,
    skipped: 0,
    media_files: 0,
    media_refused: 0,
    errors: 0,
    embeds: 0,
  };
}

/** The sum of several counters (seconds included; callers overwrite it with wall time). */
export function sumCounters(parts: readonly PullCounters[]): PullCounters {
  const total = emptyCounters();
  for (const part of parts) {
    for (const key of Object.keys(total) as CounterName[]) total[key] += part[key];
  }
  return total;
}

export interface PullSummary {
  readonly languages: Record<string, PullCounters>;
  readonly total: PullCounters;
  /** `partial` when some files, revisions or embeds could not be fetched (exit code 3). */
  readonly status: 'ok' | 'partial';
  /** The `runs` row of this pull. */
  readonly runId: number;
}

export type PullPhase = 'crawl' | 'deletions' | 'revisions' | 'assets' | 'done';

/** What a pull reports while it runs (the CLI turns these into progress bars or lines). */
export type PullEvent =
  | {
      readonly type: 'progress';
      readonly lang: string;
      readonly collection: ItemType;
      readonly phase: PullPhase;
      /** Items (or queued tasks) handled so far in this phase. */
      readonly done: number;
      /** Expected count when known. */
      readonly total: number | undefined;
    }
  | { readonly type: 'warning'; readonly lang: string; readonly message: string }
  /**
   * The first item of a collection stream stored as created or updated, as soon as it is
   * stored (at most once a stream): `run` starts the build's workers then, while the pull
   * goes on. Deletions are not reported here.
   */
  | { readonly type: 'changed'; readonly lang: string; readonly collection: ItemType };

/** Rounds seconds for reports (milliseconds are noise next to network time). */
export function roundSeconds(ms: number): number {
  return Math.round(ms / 10) / 100;
}
