/**
 * Every error cms-mirror raises on purpose. Callers and tests match on `code`, never on
 * message text. `exitCode` is what the CLI exits with when the error reaches the top:
 * 1 failure, 2 usage or configuration error, 3 finished with conflicts or partial failures.
 */
export type ExitCode = 1 | 2 | 3;

/**
 * Every `code` an error of cms-mirror carries, each raised by one class below. The last two are
 * given by the CLI to errors that are not ours (a file-system refusal, a bug).
 */
export const ERROR_CODES = [
  'E_USAGE',
  'E_CONFIG',
  'E_HTTP',
  'E_NETWORK',
  'E_SITE',
  'E_AUTH',
  'E_ACCESS',
  'E_STORE',
  'E_INPUT',
  'E_UNSAFE_PATH',
  'E_BODY',
  'E_UNSAFE_URL',
  'E_INSECURE_HTTP',
  'E_INTERRUPTED',
  'E_WORKER',
  'E_SEARCH_INDEX',
  'E_REFERENCE',
  'E_FILE_SYSTEM',
  'E_INTERNAL',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export interface CmsMirrorErrorOptions {
  cause?: unknown;
  exitCode?: ExitCode;
}

export class CmsMirrorError extends Error {
  readonly code: ErrorCode;
  readonly exitCode: ExitCode;
  /** A user error prints one line; anything else is a bug and prints its stack. */
  readonly isUserError: boolean = true;

  constructor(code: ErrorCode, message: string, options: CmsMirrorErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.exitCode = options.exitCode ?? 1;
  }
}

/** Bad flags or arguments on the command line. */
export class UsageError extends CmsMirrorError {
  constructor(message: string, options: CmsMirrorErrorOptions = {}) {
    super('E_USAGE', message, { exitCode: 2, ...options });
  }
}

/** A pipeline file (or flag) that does not fit the schema: names the file and the field. */
export class ConfigError extends CmsMirrorError {
  readonly file: string | undefined;
  readonly field: string | undefined;

  constructor(
    message: string,
    details: { file?: string; field?: string } = {},
    options: CmsMirrorErrorOptions = {},
  ) {
    super('E_CONFIG', message, { exitCode: 2, ...options });
    this.file = details.file;
    this.field = details.field;
  }
}

/** An HTTP answer outside 2xx, after retries. `url` never carries credentials. */
export class HttpError extends CmsMirrorError {
  readonly status: number;
  readonly method: string;
  readonly url: string;
  /** The `code` of the server's error body (`rest_invalid_param`, ...), when it sent one. */
  readonly serverCode: string | undefined;
  readonly serverMessage: string | undefined;
  readonly body: unknown;

  constructor(
    details: {
      status: number;
      method: string;
      url: string;
      serverCode?: string;
      serverMessage?: string;
      body?: unknown;
      /** What the client did about it (`after 6 attempts (5 retries)`), for the message. */
      note?: string;
    },
    options: CmsMirrorErrorOptions = {},
  ) {
    const server = details.serverCode
      ? ` (${details.serverCode}${details.serverMessage ? `: ${details.serverMessage}` : ''})`
      : '';
    const note = details.note === undefined ? '' : ` ${details.note}`;
    super(
      'E_HTTP',
      `${details.method} ${details.url} answered ${details.status}${server}${note}`,
      options,
    );
    this.status = details.status;
    this.method = details.method;
    this.url = details.url;
    this.serverCode = details.serverCode;
    this.serverMessage = details.serverMessage;
    this.body = details.body;
  }
}

/** The connection failed, timed out or the body was unreadable, after retries. */
export class NetworkError extends CmsMirrorError {
  readonly method: string;
  readonly url: string;

  constructor(
    details: { method: string; url: string; reason: string },
    options: CmsMirrorErrorOptions = {},
  ) {
    super('E_NETWORK', `${details.method} ${details.url} failed: ${details.reason}`, options);
    this.method = details.method;
    this.url = details.url;
  }
}

/** The URL answers, but not as a site of this interface (HTML, 404, missing namespaces). */
export class SiteError extends CmsMirrorError {
  readonly url: string;

  constructor(url: string, message: string, options: CmsMirrorErrorOptions = {}) {
    super('E_SITE', message, { exitCode: 2, ...options });
    this.url = url;
  }
}

/** Credentials were given but the site does not accept them. Never names which part is wrong. */
export class AuthError extends CmsMirrorError {
  constructor(message: string, options: CmsMirrorErrorOptions = {}) {
    super('E_AUTH', message, { exitCode: 2, ...options });
  }
}

/**
 * The site accepted the credentials, but the user's role may not read what was asked (a
 * subscriber asking for `context=edit`, an author asking for unpublished pages). `refused`
 * names the request that was refused, without credentials.
 */
export class AccessError extends CmsMirrorError {
  readonly refused: string;

  constructor(refused: string, message: string, options: CmsMirrorErrorOptions = {}) {
    super('E_ACCESS', message, { exitCode: 2, ...options });
    this.refused = refused;
  }
}

/** The cache file cannot be opened, read or written. */
export class StoreError extends CmsMirrorError {
  readonly file: string;

  constructor(file: string, message: string, options: CmsMirrorErrorOptions = {}) {
    super('E_STORE', message, options);
    this.file = file;
  }
}

/** A file the user gave (checkout file, template) is not valid input. */
export class InputError extends CmsMirrorError {
  readonly file: string;

  constructor(file: string, message: string, options: CmsMirrorErrorOptions = {}) {
    super('E_INPUT', message, { exitCode: 2, ...options });
    this.file = file;
  }
}

/** A path computed from remote data would leave the directory it must stay in. */
export class UnsafePathError extends CmsMirrorError {
  readonly path: string;

  constructor(path: string, message: string, options: CmsMirrorErrorOptions = {}) {
    super('E_UNSAFE_PATH', message, options);
    this.path = path;
  }
}

/**
 * A response body the client cannot use: larger than the configured limit, not UTF-8, not
 * JSON where JSON was expected, compressed unasked, nested too deep to process safely, or
 * still malformed (cut short) after the last retry.
 * `url` never carries credentials.
 */
export class BodyError extends CmsMirrorError {
  readonly method: string;
  readonly url: string;
  readonly reason: 'too-large' | 'not-utf8' | 'not-json' | 'malformed' | 'encoded' | 'too-deep';
  /** What is wrong with the body, without the method and URL. */
  readonly detail: string;

  constructor(
    details: { method: string; url: string; reason: BodyError['reason']; detail: string },
    options: CmsMirrorErrorOptions = {},
  ) {
    // Too large, not UTF-8, not JSON: the site is not what the user said it was (bad input,
    // exit 2). A body still cut short after the last retry is a transport failure (exit 1).
    super('E_BODY', `${details.method} ${details.url}: ${details.detail}`, {
      exitCode: details.reason === 'malformed' ? 1 : 2,
      ...options,
    });
    this.method = details.method;
    this.url = details.url;
    this.reason = details.reason;
    this.detail = details.detail;
  }
}

/** A URL taken from remote data points outside the origins the caller allowed. */
export class UnsafeUrlError extends CmsMirrorError {
  readonly url: string;

  constructor(url: string, message: string, options: CmsMirrorErrorOptions = {}) {
    super('E_UNSAFE_URL', message, options);
    this.url = url;
  }
}

/** Credentials would travel in clear text to another machine and the user did not opt in. */
export class InsecureTransportError extends CmsMirrorError {
  readonly origin: string;

  constructor(origin: string, options: CmsMirrorErrorOptions = {}) {
    super(
      'E_INSECURE_HTTP',
      `refusing to send credentials in clear text to ${origin} (plain http, not this machine): use https, or opt in with --allow-insecure-http or "http.allowInsecure: true" in the pipeline`,
      { exitCode: 2, ...options },
    );
    this.origin = origin;
  }
}

/** The user stopped a run (Ctrl-C, the end of a watch); what was committed stays. */
export class InterruptedError extends CmsMirrorError {
  constructor(message: string, options: CmsMirrorErrorOptions = {}) {
    super('E_INTERRUPTED', message, options);
  }
}

/** A worker thread of the build stopped or was closed before it answered. */
export class WorkerError extends CmsMirrorError {
  constructor(message: string, options: CmsMirrorErrorOptions = {}) {
    super('E_WORKER', message, options);
  }
}

/** Pagefind could not build the search index of a language. */
export class SearchIndexError extends CmsMirrorError {
  constructor(message: string, options: CmsMirrorErrorOptions = {}) {
    super('E_SEARCH_INDEX', message, options);
  }
}

/** The reference site's process (`demo`, `reference`) did not start as expected. */
export class ReferenceSiteError extends CmsMirrorError {
  constructor(message: string, options: CmsMirrorErrorOptions = {}) {
    super('E_REFERENCE', message, options);
  }
}

/** An error of ours rebuilt from its code and message, after it crossed a thread boundary. */
export function rebuildError(code: ErrorCode, message: string): CmsMirrorError {
  return new CmsMirrorError(code, message);
}

export function isCmsMirrorError(error: unknown): error is CmsMirrorError {
  return error instanceof CmsMirrorError;
}
