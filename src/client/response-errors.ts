import { CmsMirrorError, HttpError, NetworkError } from '../errors.js';
import type { RawResponse } from './collect-handler.js';
import { isJsonContentType } from './json-body.js';
import { redactUrl } from './redact.js';
import { AttemptTimeoutError } from './retry-interceptor.js';

/**
 * Turning what the transport gives into the project's typed errors. Every URL that goes into
 * an error is redacted here or was redacted before.
 */

/** A transport failure (after retries) as a NetworkError; typed errors pass through. */
export function toClientError(error: Error, method: string, url: string): Error {
  if (error instanceof CmsMirrorError) return error;
  const safeUrl = redactUrl(url);
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

/** A non-2xx answer as an HttpError with the server's `code`/`message` when its body has them. */
export function httpError(method: string, url: string, raw: RawResponse): HttpError {
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
    ...(serverCode === undefined ? {} : { serverCode }),
    ...(serverMessage === undefined ? {} : { serverMessage }),
  });
}

export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
