import { SiteError } from '../errors.js';

/** One request inside `POST batch/v1`. `path` is relative to the API root, e.g. `/cms/v2/posts/12`. */
export interface BatchRequest {
  readonly method?: 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  readonly path: string;
  readonly body?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string | readonly string[]>>;
}

export type BatchValidation = 'require-all-validate' | 'normal';

export interface BatchSubResponse {
  readonly status: number;
  readonly body: unknown;
  /** Servers send `[]` for "no headers"; normalised to `{}`. */
  readonly headers: Readonly<Record<string, string | string[]>>;
}

/**
 * The 207 body. `failed` is `"validation"` when `require-all-validate` stopped everything (then
 * the requests that did validate come back as `null`), otherwise null. One entry per request,
 * in order.
 */
export interface BatchResult {
  readonly failed: string | null;
  readonly responses: readonly (BatchSubResponse | null)[];
}

/** The request body for `POST batch/v1`; paths get their leading slash if missing. */
export function batchBody(requests: readonly BatchRequest[], validation: BatchValidation): unknown {
  return {
    validation,
    requests: requests.map((request) => ({
      method: request.method ?? 'POST',
      path: request.path.startsWith('/') ? request.path : `/${request.path}`,
      ...(request.body === undefined ? {} : { body: request.body }),
      ...(request.headers === undefined ? {} : { headers: request.headers }),
    })),
  };
}

/**
 * Checks the shape of a batch answer against the number of requests sent, so callers can index
 * `responses[i]` without guarding. A wrong shape is a SiteError naming the URL.
 */
export function parseBatchResult(url: string, data: unknown, expected: number): BatchResult {
  const bad = (what: string): SiteError =>
    new SiteError(url, `${url} answered a batch with ${what}`);
  if (typeof data !== 'object' || data === null || Array.isArray(data))
    throw bad('a body that is not an object');
  const { failed, responses } = data as { failed?: unknown; responses?: unknown };
  if (failed !== undefined && failed !== null && typeof failed !== 'string')
    throw bad('a "failed" that is not a string');
  if (!Array.isArray(responses)) throw bad('no "responses" array');
  if (responses.length !== expected)
    throw bad(`${responses.length} responses for ${expected} requests`);
  const typed = responses.map((entry: unknown, index): BatchSubResponse | null => {
    if (entry === null) return null;
    if (typeof entry !== 'object' || Array.isArray(entry))
      throw bad(`response ${index} that is not an object`);
    const { status, body, headers } = entry as {
      status?: unknown;
      body?: unknown;
      headers?: unknown;
    };
    if (typeof status !== 'number' || !Number.isInteger(status))
      throw bad(`response ${index} without a status`);
    return { status, body, headers: normaliseHeaders(headers) };
  });
  return { failed: typeof failed === 'string' ? failed : null, responses: typed };
}

function normaliseHeaders(headers: unknown): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  if (typeof headers !== 'object' || headers === null || Array.isArray(headers)) return out;
  for (const [name, value] of Object.entries(headers)) {
    if (typeof value === 'string') out[name] = value;
    else if (typeof value === 'number' || typeof value === 'boolean') out[name] = String(value);
    else if (Array.isArray(value)) out[name] = value.map(String);
  }
  return out;
}
