import { CmsMirrorError, HttpError, NetworkError } from '../errors.js';
import type { RawResponse } from './collect-handler.js';
import { isJsonContentType } from './json-body.js';
import { redactUrl } from './redact.js';
import { AttemptTimeoutError } from './response-attempt.js';
import { GaveUpError } from './retry-interceptor.js';

/**
 * Turning what the transport gives into the project's typed errors. Every URL that goes into
 * an error is redacted here or was redacted before.
 */

/** A transport failure (after retries) as a NetworkError; typed errors pass through. */
export function toClientError(error: Error, method: string, url: string): Error {
  if (error instanceof CmsMirrorError) return error;
  const safeUrl = redactUrl(url);
  if (error instanceof GaveUpError) return gaveUpError(method, safeUrl, error);
  if (error instanceof AttemptTimeoutError) {
    return new NetworkError(
      { method, url: safeUrl, reason: `timed out (${error.message})` },
      { cause: error },
    );
  }
  const code = (error as { code?: unknown }).code;
  const reason = typeof code === 'string' ? `${code}: ${error.message}` : error.message;
  return new NetworkError({ method, url: safeUrl, reason }, { cause: error });
}

/**
 * The answer the interceptor stopped at, as an HttpError whose message says why it stopped
 * there: the retries it made, or the wait it was asked for and refused.
 */
function gaveUpError(method: string, url: string, error: GaveUpError): HttpError {
  const wait = error.refusedWait;
  const note =
    wait === undefined
      ? `after ${error.attempts} attempts (${error.attempts - 1} retries)`
      : `and asked to wait ${describeMs(wait.askedMs)} (Retry-After: ${wait.header.trim().slice(0, 60)}), more than http.retryAfterMaxMs (${wait.capMs} ms): stopped without waiting`;
  return httpError(method, url, error.response, note);
}

function describeMs(ms: number): string {
  return ms >= 3_600_000 ? `${Math.round(ms / 360_000) / 10} h` : `${Math.round(ms / 1000)} s`;
}

/** A non-2xx answer as an HttpError with the server's `code`/`message` when its body has them. */
export function httpError(method: string, url: string, raw: RawResponse, note?: string): HttpError {
  let body: unknown;
  let serverCode: string | undefined;
  let serverMessage: string | undefined;
  const contentType = headerText(raw.headers['content-type']);
  if (raw.body.length > 0) {
    const text = raw.body.toString('utf8');
    try {
      body = JSON.parse(text);
    } catch {
      // An HTML error page: keep a short excerpt, not megabytes.
      body = isJsonContentType(contentType) ? text.slice(0, 500) : undefined;
    }
  }
  if (typeof body === 'object' && body !== null) {
    const { code, message } = body as { code?: unknown; message?: unknown };
    if (typeof code === 'string') serverCode = code;
    if (typeof message === 'string') serverMessage = message;
  }
  return new HttpError({
    status: raw.status,
    method,
    url,
    body,
    ...(note === undefined ? {} : { note }),
    ...(serverCode === undefined ? {} : { serverCode }),
    ...(serverMessage === undefined ? {} : { serverMessage }),
  });
}

export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
