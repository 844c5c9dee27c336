/**
 * When to retry and how long to wait: pure functions, so the decisions are unit-tested
 * without a server and the interceptor stays a thin piece of plumbing.
 */

/** Methods whose repetition cannot do anything twice. */
const IDEMPOTENT_METHODS = new Set(['GET', 'HEAD', 'OPTIONS', 'PUT', 'DELETE', 'TRACE']);

/**
 * Statuses worth another attempt: timeouts, rate limiting and server faults. 501 and 505 say
 * the server will never do this, so they are final.
 */
export function isRetryableStatus(status: number, idempotent: boolean): boolean {
  if (status === 408 || status === 429) return true;
  if (!idempotent) {
    // A non-idempotent request is repeated only when the server says it did not act on it.
    return status === 503;
  }
  return status >= 500 && status <= 599 && status !== 501 && status !== 505;
}

/** Transport errors that a new attempt may cure. */
const RETRYABLE_ERROR_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EAI_AGAIN',
  'ENETDOWN',
  'ENETUNREACH',
  'EHOSTDOWN',
  'EHOSTUNREACH',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_RES_CONTENT_LENGTH_MISMATCH',
  'CMS_ATTEMPT_TIMEOUT',
]);

/** Errors that prove the request never reached the server, so even a POST may be repeated. */
const NOT_SENT_ERROR_CODES = new Set(['ECONNREFUSED', 'UND_ERR_CONNECT_TIMEOUT', 'EAI_AGAIN']);

export function isIdempotentMethod(method: string): boolean {
  return IDEMPOTENT_METHODS.has(method.toUpperCase());
}

export function isRetryableError(error: unknown, idempotent: boolean): boolean {
  const code = errorCode(error);
  if (code === undefined) return false;
  return idempotent ? RETRYABLE_ERROR_CODES.has(code) : NOT_SENT_ERROR_CODES.has(code);
}

export function errorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null) return undefined;
  const code = (error as { code?: unknown }).code;
  if (typeof code === 'string') return code;
  // Node wraps some socket errors (`fetch failed` style); look one level down.
  const cause = (error as { cause?: unknown }).cause;
  if (typeof cause === 'object' && cause !== null) {
    const inner = (cause as { code?: unknown }).code;
    if (typeof inner === 'string') return inner;
  }
  return undefined;
}

/**
 * `Retry-After` as milliseconds from `now`: either delta-seconds or an HTTP date. Returns
 * undefined when absent or unreadable; a date in the past means "now" (0).
 */
export function parseRetryAfter(
  value: string | string[] | undefined,
  now: number,
): number | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (text === undefined) return undefined;
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  if (/^\d+(\.\d+)?$/.test(trimmed)) {
    return Math.round(Number(trimmed) * 1000);
  }
  // HTTP dates always name the day or month; this keeps `-5` or `2024` from parsing as years.
  if (!/[A-Za-z]{3}/.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  if (Number.isNaN(at)) return undefined;
  return Math.max(0, at - now);
}

export interface BackoffSettings {
  /** Base of the exponential growth. */
  readonly baseMs: number;
  /** Cap of a delay the server did not ask for. */
  readonly maxMs: number;
  /** Cap of a delay the server asked for. */
  readonly retryAfterMaxMs: number;
  readonly random: () => number;
}

/**
 * Delay before retry number `retry` (1 for the first retry). Without `Retry-After`: full
 * jitter, `random() * min(maxMs, baseMs * 2^(retry-1))`, so many clients hitting one sick
 * server spread out. With it: what the server asked, up to `retryAfterMaxMs`, and never less
 * than the server asked when that fits under the cap.
 */
export function retryDelay(
  retry: number,
  retryAfterMs: number | undefined,
  settings: BackoffSettings,
): number {
  if (retryAfterMs !== undefined) {
    return Math.min(retryAfterMs, settings.retryAfterMaxMs);
  }
  const ceiling = Math.min(settings.maxMs, settings.baseMs * 2 ** Math.max(0, retry - 1));
  const r = settings.random();
  const unit = Number.isFinite(r) ? Math.min(Math.max(r, 0), 1) : 0;
  return Math.floor(unit * ceiling);
}
