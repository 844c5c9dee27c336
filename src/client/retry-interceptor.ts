import type { IncomingHttpHeaders } from 'node:http';
import type { Dispatcher } from 'undici';
import { BodyError } from '../errors.js';
import { parseJsonBody } from './json-body.js';
import type { ClientEvent } from './options.js';
import { redactUrl } from './redact.js';
import { Attempt, headerText, type AttemptOwner } from './response-attempt.js';
import {
  errorCode,
  isIdempotentMethod,
  isRetryableError,
  isRetryableStatus,
  parseRetryAfter,
  retryDelay,
  type BackoffSettings,
} from './retry-policy.js';

/**
 * An undici interceptor that owns everything between "send this request" and "here is a
 * whole, usable response": per-attempt timeout, body size limit, JSON validity of 2xx bodies,
 * and retries with backoff. It buffers the body before handing anything downstream, because a
 * response can only be retried as long as nobody has seen any of it — that is what lets a body
 * cut short mid-way be retried like a reset connection.
 */

/** Per-request extras, passed in the dispatch options under `cms`. */
export interface CmsDispatchExtras {
  /** `json`: a 2xx body must be UTF-8 JSON (a cut one is retried). @default 'any' */
  readonly expect?: 'json' | 'any';
  /** Whether repeating the request is harmless. @default true for GET, HEAD, PUT, DELETE, OPTIONS */
  readonly idempotent?: boolean;
  /** Overrides the interceptor's body limit for this request. */
  readonly maxBodyBytes?: number;
}

export type CmsDispatchOptions = Dispatcher.DispatchOptions & { readonly cms?: CmsDispatchExtras };

export interface RetryInterceptorSettings {
  /** Retries after the first attempt. */
  readonly retries: number;
  readonly backoff: BackoffSettings;
  /** Time one attempt may take, from dispatch to the last body byte. */
  readonly timeoutMs: number;
  readonly maxBodyBytes: number;
  readonly sleep: (ms: number) => Promise<void>;
  readonly now: () => number;
  /**
   * Awaited before every attempt (the rate limiter), so retries are paced like first tries;
   * resolves with the time the start was granted.
   */
  readonly pace?: (() => Promise<number>) | undefined;
  readonly onEvent?: ((event: ClientEvent) => void) | undefined;
}

/**
 * A retryable answer (429, 5xx, ...) the interceptor stops at: its retries are spent, or the
 * server asked (`Retry-After`) for a longer wait than `retryAfterMaxMs`. Carries the answer;
 * the client turns it into an HttpError whose message says which (response-errors.ts).
 */
export class GaveUpError extends Error {
  readonly code = 'CMS_GAVE_UP';

  constructor(
    readonly response: {
      readonly status: number;
      readonly headers: IncomingHttpHeaders;
      readonly body: Buffer;
    },
    readonly attempts: number,
    /** Set when the server asked to wait longer than the cap. */
    readonly refusedWait?: {
      readonly askedMs: number;
      readonly header: string;
      readonly capMs: number;
    },
  ) {
    super(`gave up after ${attempts} attempts (status ${response.status})`);
    this.name = 'GaveUpError';
  }
}

export function createRetryInterceptor(
  settings: RetryInterceptorSettings,
): Dispatcher.DispatcherComposeInterceptor {
  return (dispatch) =>
    function cmsRetryInterceptor(opts, handler) {
      new RetryRun(opts as CmsDispatchOptions, dispatch, handler, settings).start();
      return true;
    };
}

/** The controller the downstream handler sees for the whole request, across attempts. */
class RunController implements Dispatcher.DispatchController {
  #reason: Error | null = null;

  constructor(private readonly onAbort: (reason: Error) => void) {}

  get aborted(): boolean {
    return this.#reason !== null;
  }
  get paused(): boolean {
    return false;
  }
  get reason(): Error | null {
    return this.#reason;
  }
  abort(reason: Error): void {
    if (this.#reason !== null) return;
    this.#reason = reason ?? new Error('aborted');
    this.onAbort(this.#reason);
  }
  // The body is handed over in one piece after it is complete, so there is nothing to pause.
  pause(): void {}
  resume(): void {}
}

class RetryRun implements AttemptOwner {
  readonly #opts: Dispatcher.DispatchOptions;
  readonly #extras: CmsDispatchExtras;
  readonly #dispatch: Dispatcher.Dispatch;
  readonly #handler: Dispatcher.DispatchHandler;
  readonly #settings: RetryInterceptorSettings;
  readonly #controller: RunController;
  readonly #url: string;
  readonly #idempotent: boolean;
  #attempts = 0;
  #current: Attempt | undefined;
  #done = false;

  constructor(
    opts: CmsDispatchOptions,
    dispatch: Dispatcher.Dispatch,
    handler: Dispatcher.DispatchHandler,
    settings: RetryInterceptorSettings,
  ) {
    const { cms, ...rest } = opts;
    this.#extras = cms ?? {};
    this.#opts = {
      ...rest,
      headersTimeout: rest.headersTimeout ?? settings.timeoutMs,
      bodyTimeout: rest.bodyTimeout ?? settings.timeoutMs,
    };
    this.#dispatch = dispatch;
    this.#handler = handler;
    this.#settings = settings;
    this.#url = redactUrl(`${String(opts.origin ?? '')}${opts.path}`);
    // A streamed body cannot be sent twice, whatever the method.
    const replayable =
      rest.body === undefined ||
      rest.body === null ||
      typeof rest.body === 'string' ||
      rest.body instanceof Uint8Array;
    this.#idempotent = replayable && (this.#extras.idempotent ?? isIdempotentMethod(rest.method));
    this.#controller = new RunController((reason) => this.#current?.abort(reason));
  }

  get method(): string {
    return this.#opts.method;
  }

  get maxBodyBytes(): number {
    return this.#extras.maxBodyBytes ?? this.#settings.maxBodyBytes;
  }

  tooLarge(): BodyError {
    return new BodyError({
      method: this.method,
      url: this.#url,
      reason: 'too-large',
      detail: `the response is larger than the limit of ${this.maxBodyBytes} bytes (maxBodyBytes)`,
    });
  }

  start(): void {
    this.#handler.onRequestStart?.(this.#controller, {});
    void this.#next(0);
  }

  async #next(delayMs: number): Promise<void> {
    let pacedAt: number | undefined;
    try {
      if (delayMs > 0) await this.#settings.sleep(delayMs);
      if (this.#settings.pace) pacedAt = await this.#settings.pace();
    } catch (error) {
      this.#fail(error as Error);
      return;
    }
    if (this.#controller.aborted) {
      this.#fail(this.#controller.reason ?? new Error('aborted'));
      return;
    }
    this.#attempts += 1;
    const attempt = new Attempt(this);
    this.#current = attempt;
    attempt.arm(this.#settings.timeoutMs);
    this.#settings.onEvent?.({
      type: 'attempt',
      method: this.method,
      url: this.#url,
      attempt: this.#attempts,
      ...(pacedAt === undefined ? {} : { pacedAt }),
    });
    try {
      this.#dispatch(this.#opts, attempt);
    } catch (error) {
      attempt.onResponseError(undefined, error as Error);
    }
  }

  #canRetry(): boolean {
    return this.#attempts <= this.#settings.retries && !this.#controller.aborted;
  }

  #retry(reason: string, retryAfterMs: number | undefined): void {
    const delayMs = retryDelay(this.#attempts, retryAfterMs, this.#settings.backoff);
    this.#settings.onEvent?.({
      type: 'retry',
      method: this.method,
      url: this.#url,
      attempt: this.#attempts,
      delayMs,
      reason,
    });
    void this.#next(delayMs);
  }

  attemptEnded(attempt: Attempt, trailers: IncomingHttpHeaders): void {
    const body = attempt.body();
    const status = attempt.status;
    this.#settings.onEvent?.({
      type: 'response',
      method: this.method,
      url: this.#url,
      status,
      bytes: body.length,
    });
    if (this.#controller.aborted) {
      this.#fail(this.#controller.reason ?? new Error('aborted'));
      return;
    }
    if (isRetryableStatus(status, this.#idempotent)) {
      const header = headerText(attempt.headers['retry-after']);
      const askedMs = parseRetryAfter(header, this.#settings.now());
      const capMs = this.#settings.backoff.retryAfterMaxMs;
      const response = { status, headers: attempt.headers, body };
      if (askedMs !== undefined && askedMs > capMs && header !== undefined) {
        // Waiting less than asked would only be refused again; waiting more stalls the run.
        this.#fail(new GaveUpError(response, this.#attempts, { askedMs, header, capMs }));
        return;
      }
      if (this.#canRetry()) {
        this.#retry(`status ${status}`, askedMs);
        return;
      }
      if (this.#attempts > 1) {
        this.#fail(new GaveUpError(response, this.#attempts));
        return;
      }
    }
    const checkJson =
      this.#extras.expect === 'json' &&
      status >= 200 &&
      status < 300 &&
      status !== 204 &&
      this.method !== 'HEAD';
    if (checkJson) {
      const parsed = parseJsonBody(
        body,
        headerText(attempt.headers['content-type']),
        headerText(attempt.headers['content-encoding']),
      );
      if (!parsed.ok) {
        if (parsed.reason === 'malformed' && this.#idempotent && this.#canRetry()) {
          this.#retry('malformed body', undefined);
          return;
        }
        const attempts = parsed.reason === 'malformed' ? ` (after ${this.#attempts} attempts)` : '';
        this.#fail(
          new BodyError({
            method: this.method,
            url: this.#url,
            reason: parsed.reason,
            detail: parsed.detail + attempts,
          }),
        );
        return;
      }
    }
    this.#deliver(attempt, body, trailers);
  }

  attemptFailed(error: Error): void {
    if (this.#controller.aborted) {
      this.#fail(this.#controller.reason ?? error);
      return;
    }
    if (
      !(error instanceof BodyError) &&
      isRetryableError(error, this.#idempotent) &&
      this.#canRetry()
    ) {
      this.#retry(errorCode(error) ?? error.message, undefined);
      return;
    }
    this.#fail(error);
  }

  #deliver(attempt: Attempt, body: Buffer, trailers: IncomingHttpHeaders): void {
    if (this.#done) return;
    this.#done = true;
    const handler = this.#handler;
    handler.onResponseStart?.(
      this.#controller,
      attempt.status,
      attempt.headers,
      attempt.statusMessage,
    );
    if (body.length > 0) handler.onResponseData?.(this.#controller, body);
    handler.onResponseEnd?.(this.#controller, trailers);
  }

  #fail(error: Error): void {
    if (this.#done) return;
    this.#done = true;
    this.#handler.onResponseError?.(this.#controller, error);
  }
}
