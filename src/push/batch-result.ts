import type { BatchResult } from '../client/batch.js';
import type { BatchChunk } from './batch-planner.js';

/**
 * What each request of a batch came to. Observed answers (observed-behaviour.md): HTTP 207
 * with one entry per request in order; with `require-all-validate` and an invalid request,
 * `failed: "validation"`, nothing ran and the requests that did validate come back `null`.
 */

export interface SubSuccess {
  readonly ref: string;
  readonly ok: true;
  readonly status: number;
  /** The item as the site now has it (the sub-response body). */
  readonly item: Readonly<Record<string, unknown>>;
}

export interface SubFailure {
  readonly ref: string;
  readonly ok: false;
  /** Undefined when the request was valid but never ran. */
  readonly status: number | undefined;
  /** The site's error code, or `not_run` for a valid request that another one stopped. */
  readonly code: string;
  /** The site's message, with the per-parameter reasons it gave. */
  readonly message: string;
  /** True when this request itself was fine and can simply be sent again. */
  readonly notRun: boolean;
}

export type SubOutcome = SubSuccess | SubFailure;

export const NOT_RUN_MESSAGE = 'not run: another request in the same batch failed validation';

export function interpretBatchResult(chunk: BatchChunk, result: BatchResult): SubOutcome[] {
  if (result.responses.length !== chunk.refs.length) {
    throw new RangeError(
      `batch answered ${result.responses.length} responses for ${chunk.refs.length} requests`,
    );
  }
  return chunk.refs.map((ref, index): SubOutcome => {
    const response = result.responses[index];
    if (response === null || response === undefined) {
      return {
        ref,
        ok: false,
        status: undefined,
        code: 'not_run',
        message: NOT_RUN_MESSAGE,
        notRun: true,
      };
    }
    const body = response.body;
    if (
      response.status >= 200 &&
      response.status < 300 &&
      isObject(body) &&
      result.failed === null
    ) {
      return { ref, ok: true, status: response.status, item: body };
    }
    const { code, message } = siteError(body, response.status);
    return { ref, ok: false, status: response.status, code, message, notRun: false };
  });
}

/**
 * The site's `{code, message, data: {params}}` as one line: `rest_invalid_param` says only
 * "Invalid parameter(s): status"; the reason per parameter is in `data.params`.
 */
export function siteError(body: unknown, status: number): { code: string; message: string } {
  if (!isObject(body)) return { code: `http_${status}`, message: `the site answered ${status}` };
  const code = typeof body.code === 'string' ? body.code : `http_${status}`;
  let message = typeof body.message === 'string' ? body.message : `the site answered ${status}`;
  const data = body.data;
  if (isObject(data) && isObject(data.params)) {
    const reasons = Object.entries(data.params)
      .filter((entry): entry is [string, string] => typeof entry[1] === 'string')
      .map(([, reason]) => reason);
    if (reasons.length > 0) message = `${message} (${reasons.join('; ')})`;
  }
  return { code, message };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
