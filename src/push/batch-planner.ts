import type { BatchRequest } from '../client/batch.js';
import type { CheckoutType } from './checkout-file.js';
import { collectionRoute } from '../collections.js';

/**
 * Turns edits into `POST batch/v1` calls: one language per call (the batch route lives under a
 * language's API root), at most `maxItems` requests each. Pure.
 */

/** Hard limit of the batch route in the spec; discovery may announce less, never more. */
export const BATCH_LIMIT = 25;

export interface PlannedEdit {
  /** The caller's handle for this edit (an `edits` row id, a file); comes back with its outcome. */
  readonly ref: string;
  readonly lang: string;
  readonly type: CheckoutType;
  /**
   * `update`: only the changed fields; `create`: a new item; `trash`: `DELETE` without
   * `force`, so the item goes to the trash and can be restored. Only an explicit request
   * (front matter `status: trash`, `--delete`) makes a `trash` — never a missing file.
   */
  readonly action: 'update' | 'create' | 'trash';
  /** Required for `update` and `trash`. */
  readonly id?: number;
  readonly body: Readonly<Record<string, unknown>>;
}

export interface BatchChunk {
  readonly lang: string;
  readonly requests: BatchRequest[];
  /** `refs[i]` is the edit behind `requests[i]`. */
  readonly refs: string[];
}

export interface BatchPlan {
  readonly chunks: BatchChunk[];
  /** Updates with nothing to send: no request is made for them. */
  readonly unchanged: string[];
}

export function planBatches(
  edits: readonly PlannedEdit[],
  options: { maxItems: number },
): BatchPlan {
  const { maxItems } = options;
  if (!Number.isInteger(maxItems) || maxItems < 1 || maxItems > BATCH_LIMIT) {
    throw new RangeError(
      `maxItems must be a whole number from 1 to ${BATCH_LIMIT}, got ${String(maxItems)}`,
    );
  }
  const byLang = new Map<string, { requests: BatchRequest[]; refs: string[] }>();
  const unchanged: string[] = [];
  for (const edit of edits) {
    const request = toRequest(edit);
    if (request === undefined) {
      unchanged.push(edit.ref);
      continue;
    }
    let group = byLang.get(edit.lang);
    if (!group) byLang.set(edit.lang, (group = { requests: [], refs: [] }));
    group.requests.push(request);
    group.refs.push(edit.ref);
  }
  const chunks: BatchChunk[] = [];
  for (const [lang, group] of byLang) {
    for (let start = 0; start < group.requests.length; start += maxItems) {
      chunks.push({
        lang,
        requests: group.requests.slice(start, start + maxItems),
        refs: group.refs.slice(start, start + maxItems),
      });
    }
  }
  return { chunks, unchanged };
}

function toRequest(edit: PlannedEdit): BatchRequest | undefined {
  const collection = `/${collectionRoute(edit.type)}`;
  switch (edit.action) {
    case 'create':
      return { method: 'POST', path: collection, body: { ...edit.body } };
    case 'update':
      if (Object.keys(edit.body).length === 0) return undefined;
      return { method: 'POST', path: `${collection}/${requireId(edit)}`, body: { ...edit.body } };
    case 'trash':
      // No `force`: the site moves the item to the trash (observed: DELETE without force).
      return { method: 'DELETE', path: `${collection}/${requireId(edit)}` };
  }
}

function requireId(edit: PlannedEdit): number {
  if (edit.id === undefined || !Number.isInteger(edit.id) || edit.id < 1) {
    throw new RangeError(`edit ${edit.ref}: ${edit.action} needs the item's id`);
  }
  return edit.id;
}
