import type { BatchRequest } from '../client/index.js';
import type { ItemType } from '../collections.js';
import type { SiteSession } from '../push/site-session.js';
import { interpretBatchResult, type SubOutcome } from '../push/batch-result.js';
import { sendChunk } from '../push/send-chunk.js';
import type { Store } from '../store/index.js';
import type { LinkMap } from './relink-text.js';
import { keyOf } from './restore-plan.js';

/** One thing restore did (or, with `--dry-run`, would do) to an item. */
export interface DoneAction {
  readonly kind: 'recreate' | 'adopt' | 'untrash' | 'update' | 'trash' | 'relink';
  readonly type: ItemType;
  /** The item's id in the state wanted (its old id). */
  readonly id: number;
  /** The id on the site when it differs (a re-created item). */
  readonly newId?: number;
  readonly title: string;
  /** The fields sent (updates). */
  readonly fields: readonly string[];
}

export interface ItemProblem {
  readonly type: ItemType;
  readonly id: number;
  readonly message: string;
}

/** What one language of a restore did. */
export interface LanguageReport {
  readonly done: DoneAction[];
  readonly conflicts: ItemProblem[];
  readonly failed: ItemProblem[];
  /** Items created since the time restored to and left alone. */
  readonly leftNew: { type: ItemType; id: number; title: string }[];
  readonly notes: string[];
  unchanged: number;
}

/** The state of one language's restore while it runs. */
export interface RestoreRun {
  readonly store: Store;
  readonly session: SiteSession;
  readonly lang: string;
  readonly runId: number | null;
  readonly force: boolean;
  readonly maxItems: number;
  /** `type/oldId` → new id, this run's re-creations included. */
  readonly mapped: Map<string, number>;
  links: LinkMap;
  readonly report: LanguageReport;
  readonly counts: { requests: number; writes: number; batches: number };
  readonly onLine: ((line: string) => void) | undefined;
}

/** A write of one item through the batch route, and what to call it in the report. */
export interface WriteRequest {
  readonly request: BatchRequest;
  readonly type: ItemType;
  readonly id: number;
}

/**
 * Sends writes in chunks of the batch route's limit (one by one where the site allows no
 * batch, see send-chunk.ts) and hands each chunk's answers to `onChunk` before the next is
 * sent, so a chunk's outcome is recorded before anything else happens.
 */
export async function sendWrites(
  run: RestoreRun,
  writes: readonly WriteRequest[],
  onChunk: (writes: readonly WriteRequest[], outcomes: readonly SubOutcome[]) => void,
): Promise<void> {
  for (let start = 0; start < writes.length; start += run.maxItems) {
    const part = writes.slice(start, start + run.maxItems);
    const chunk = {
      lang: run.lang,
      requests: part.map((write) => write.request),
      refs: part.map((_, i) => String(i)),
    };
    const { result, batchCalls } = await sendChunk(run.session, chunk, 'normal');
    run.counts.batches += batchCalls;
    run.counts.requests += batchCalls > 0 ? batchCalls : part.length;
    run.counts.writes += part.length;
    onChunk(part, interpretBatchResult(chunk, result));
  }
}

/** Records a failed write in the report. */
export function failure(run: RestoreRun, write: WriteRequest, outcome: SubOutcome): void {
  if (outcome.ok) return;
  run.report.failed.push({
    type: write.type,
    id: write.id,
    message: `${outcome.code}: ${outcome.message}`,
  });
}

export const mappedKey = keyOf;
