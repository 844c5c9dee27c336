import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import type { BodyError } from '../errors.js';

/**
 * One try of a request on the wire, for the retry interceptor: it collects the whole
 * response, aborts once the body passes the limit or the attempt passes its time, and hands
 * the outcome to its owner, which decides whether to retry.
 */

/** What an attempt needs of the run it belongs to. */
export interface AttemptOwner {
  readonly maxBodyBytes: number;
  /** The error for a body over `maxBodyBytes`. */
  tooLarge(): BodyError;
  /** The response arrived whole (status, headers and body are on the attempt). */
  attemptEnded(attempt: Attempt, trailers: IncomingHttpHeaders): void;
  attemptFailed(error: Error): void;
}

/** One attempt took longer than `timeoutMs`; retried like any other transport fault. */
export class AttemptTimeoutError extends Error {
  readonly code = 'CMS_ATTEMPT_TIMEOUT';

  constructor(readonly timeoutMs: number) {
    super(`no complete answer within ${timeoutMs} ms`);
    this.name = 'AttemptTimeoutError';
  }
}

/** One try on the wire: collects the response, enforces the limit and the timeout. */
export class Attempt implements Dispatcher.DispatchHandler {
  status = 0;
  statusMessage = '';
  headers: IncomingHttpHeaders = {};
  readonly #run: AttemptOwner;
  readonly #chunks: Buffer[] = [];
  #bytes = 0;
  #controller: Dispatcher.DispatchController | undefined;
  #pendingAbort: Error | undefined;
  #settled = false;
  #timer: NodeJS.Timeout | undefined;

  constructor(run: AttemptOwner) {
    this.#run = run;
  }

  arm(timeoutMs: number): void {
    this.#timer = setTimeout(() => this.abort(new AttemptTimeoutError(timeoutMs)), timeoutMs);
  }

  abort(reason: Error): void {
    if (this.#settled) return;
    if (this.#controller) {
      this.#controller.abort(reason);
    } else {
      // Not on a socket yet (queued or connecting): abort as soon as undici hands us control,
      // and settle now so the run does not wait for a connection that may never come.
      this.#pendingAbort = reason;
      this.onResponseError(undefined, reason);
    }
  }

  body(): Buffer {
    return this.#chunks.length === 1
      ? (this.#chunks[0] as Buffer)
      : Buffer.concat(this.#chunks, this.#bytes);
  }

  onRequestStart(controller: Dispatcher.DispatchController): void {
    this.#controller = controller;
    if (this.#pendingAbort) controller.abort(this.#pendingAbort);
  }

  onResponseStart(
    controller: Dispatcher.DispatchController,
    statusCode: number,
    headers: IncomingHttpHeaders,
    statusMessage?: string,
  ): void {
    if (this.#settled) return;
    this.status = statusCode;
    this.headers = headers;
    this.statusMessage = statusMessage ?? '';
    const declared = Number(headerText(headers['content-length']));
    if (Number.isFinite(declared) && declared > this.#run.maxBodyBytes) {
      controller.abort(this.#run.tooLarge());
    }
  }

  onResponseData(controller: Dispatcher.DispatchController, chunk: Buffer): void {
    if (this.#settled) return;
    this.#bytes += chunk.length;
    if (this.#bytes > this.#run.maxBodyBytes) {
      controller.abort(this.#run.tooLarge());
      return;
    }
    this.#chunks.push(chunk);
  }

  onResponseEnd(_controller: Dispatcher.DispatchController, trailers: IncomingHttpHeaders): void {
    if (!this.#settle()) return;
    this.#run.attemptEnded(this, trailers);
  }

  onResponseError(_controller: Dispatcher.DispatchController | undefined, error: Error): void {
    if (!this.#settle()) return;
    this.#run.attemptFailed(error);
  }

  #settle(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    clearTimeout(this.#timer);
    return true;
  }
}

export function headerText(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
