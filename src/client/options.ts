import { ConfigError } from '../errors.js';
import { redactUrl } from './redact.js';
import { checkCredentialTransport } from './transport-guard.js';

/** Application-password credentials, sent as HTTP Basic. Never logged, never returned. */
export interface Credentials {
  readonly user: string;
  readonly password: string;
}

/** One thing the client did, for progress output and debugging. URLs are already redacted. */
export type ClientEvent =
  | {
      readonly type: 'attempt';
      readonly method: string;
      readonly url: string;
      readonly attempt: number;
      /** When the rate limit let this attempt start (`Date.now()`); absent when unlimited. */
      readonly pacedAt?: number;
    }
  | {
      readonly type: 'retry';
      readonly method: string;
      readonly url: string;
      readonly attempt: number;
      readonly delayMs: number;
      readonly reason: string;
    }
  | {
      readonly type: 'response';
      readonly method: string;
      readonly url: string;
      readonly status: number;
      readonly bytes: number;
    };

export interface ClientOptions {
  /** Base URL of the site, e.g. `http://127.0.0.1:8787` (no credentials in it). */
  readonly site: string;
  /** Language path segment; the API root is `{site}/{lang}/cms-json/`. */
  readonly lang: string;
  /** Application-password credentials. @default undefined (anonymous) */
  readonly auth?: Credentials | undefined;
  /**
   * Send credentials to an `http:` site that is not loopback (see transport-guard.ts).
   * @default false
   */
  readonly allowInsecure?: boolean | undefined;
  /** Requests in flight at once (also the number of kept-alive connections). @default 6 */
  readonly concurrency?: number;
  /** Request attempts started per second, retries included; 0 = unlimited. @default 20 */
  readonly requestsPerSecond?: number;
  /** Time one attempt may take, from sending to the last body byte. @default 30_000 */
  readonly timeoutMs?: number;
  /** Retries after the first attempt (so `retries + 1` attempts at most). @default 5 */
  readonly retries?: number;
  /** Base of the exponential backoff (full jitter). @default 250 */
  readonly retryBaseMs?: number;
  /** Upper bound of one backoff delay that the server did not ask for. @default 10_000 */
  readonly retryMaxMs?: number;
  /**
   * Longest delay the server may ask for with `Retry-After`; a server may ask for more than
   * `retryMaxMs`, but a run should not stall for an hour on one header: an answer that asks
   * for more than this is not retried, it fails at once (the message says what was asked).
   * @default 60_000
   */
  readonly retryAfterMaxMs?: number;
  /** `User-Agent` header. @default 'cms-mirror/0.1' */
  readonly userAgent?: string;
  /** Largest response body accepted, in bytes. @default 67_108_864 (64 MiB) */
  readonly maxBodyBytes?: number;
  /** Receives every attempt, retry and response (URLs redacted). @default undefined */
  readonly onEvent?: ((event: ClientEvent) => void) | undefined;
  /** Sleeps between retries; injectable so tests do not wait. @default setTimeout-based */
  readonly sleep?: (ms: number) => Promise<void>;
  /** Random source in [0, 1) for the backoff jitter. @default Math.random */
  readonly random?: () => number;
  /** Clock for `Retry-After` HTTP dates. @default Date.now */
  readonly now?: () => number;
}

export interface ResolvedClientOptions {
  readonly site: string;
  readonly lang: string;
  readonly apiRoot: string;
  readonly auth: Credentials | undefined;
  readonly concurrency: number;
  readonly requestsPerSecond: number;
  readonly timeoutMs: number;
  readonly retries: number;
  readonly retryBaseMs: number;
  readonly retryMaxMs: number;
  readonly retryAfterMaxMs: number;
  readonly userAgent: string;
  readonly maxBodyBytes: number;
  readonly onEvent: ((event: ClientEvent) => void) | undefined;
  readonly sleep: (ms: number) => Promise<void>;
  readonly random: () => number;
  readonly now: () => number;
}

export const DEFAULT_USER_AGENT = 'cms-mirror/0.1';
export const DEFAULT_MAX_BODY_BYTES = 64 * 1024 * 1024;

const defaultSleep = (ms: number): Promise<void> =>
  new Promise((resolve) => {
    setTimeout(resolve, ms);
  });

/**
 * Checks every option at once and reports all problems in one ConfigError, each saying what
 * was expected and what was got. Secrets are never echoed.
 */
export function resolveClientOptions(options: ClientOptions): ResolvedClientOptions {
  const problems: string[] = [];
  const site = checkSite(options.site, problems);
  // Before anything else is checked or any connection made: a refusal, not a typo.
  if (site !== '') {
    checkCredentialTransport({
      site,
      credentials: options.auth !== undefined,
      allowInsecure: options.allowInsecure,
    });
  }
  const lang = options.lang;
  if (typeof lang !== 'string' || !/^[A-Za-z0-9][A-Za-z0-9_-]*$/.test(lang)) {
    problems.push(`lang: expected a language path segment such as "pl", got ${describe(lang)}`);
  }
  checkAuth(options.auth, problems);
  const limits = checkLimits(options, problems);
  if (
    options.userAgent !== undefined &&
    (typeof options.userAgent !== 'string' || options.userAgent === '')
  ) {
    problems.push(`userAgent: expected a non-empty string, got ${describe(options.userAgent)}`);
  }
  if (problems.length > 0) {
    throw new ConfigError(`invalid client options: ${problems.join('; ')}`, {
      field: problems.length === 1 ? problems[0]?.split(':')[0] : undefined,
    });
  }
  return {
    site,
    lang,
    apiRoot: `${site}/${lang}/cms-json/`,
    auth: options.auth,
    ...limits,
    userAgent: options.userAgent ?? DEFAULT_USER_AGENT,
    onEvent: options.onEvent,
    sleep: options.sleep ?? defaultSleep,
    random: options.random ?? Math.random,
    now: options.now ?? Date.now,
  };
}

/** The base URL without a trailing slash ('' when it is unusable: a problem says why). */
function checkSite(value: unknown, problems: string[]): string {
  if (typeof value !== 'string' || value === '') {
    problems.push(
      `site: expected a base URL such as http://127.0.0.1:8787, got ${describe(value)}`,
    );
    return '';
  }
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    problems.push(
      `site: expected an absolute http(s) URL, got ${JSON.stringify(redactUrl(value))}`,
    );
    return '';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') {
    problems.push(`site: expected an http: or https: URL, got ${parsed.protocol}`);
  }
  if (parsed.username !== '' || parsed.password !== '') {
    // Credentials in a URL end up in logs and shell history; they belong in the environment.
    problems.push(
      'site: expected a URL without user:password (put credentials in CMS_USER/CMS_APP_PASSWORD), got a URL with credentials',
    );
  }
  if (parsed.search !== '' || parsed.hash !== '') {
    problems.push(`site: expected a base URL without query or fragment, got ${redactUrl(value)}`);
  }
  return `${parsed.origin}${parsed.pathname}`.replace(/\/+$/, '');
}

function checkAuth(auth: ClientOptions['auth'], problems: string[]): void {
  if (auth === undefined) return;
  const { user, password } = auth as Partial<Credentials>;
  if (typeof user !== 'string' || user === '' || user.includes(':')) {
    problems.push('auth.user: expected a non-empty user name without ":"');
  }
  if (typeof password !== 'string' || password === '') {
    problems.push('auth.password: expected a non-empty application password');
  }
}

type Limits = Pick<
  ResolvedClientOptions,
  | 'concurrency'
  | 'requestsPerSecond'
  | 'timeoutMs'
  | 'retries'
  | 'retryBaseMs'
  | 'retryMaxMs'
  | 'retryAfterMaxMs'
  | 'maxBodyBytes'
>;

/** The numeric settings with their defaults and bounds, in the order problems are listed. */
function checkLimits(options: ClientOptions, problems: string[]): Limits {
  const o = options;
  const p = problems;
  return {
    concurrency: integer(o.concurrency, 6, 'concurrency', 1, 256, p),
    requestsPerSecond: number(o.requestsPerSecond, 20, 'requestsPerSecond', 0, 10_000, p),
    timeoutMs: integer(o.timeoutMs, 30_000, 'timeoutMs', 1, 3_600_000, p),
    retries: integer(o.retries, 5, 'retries', 0, 100, p),
    retryBaseMs: integer(o.retryBaseMs, 250, 'retryBaseMs', 0, 600_000, p),
    retryMaxMs: integer(o.retryMaxMs, 10_000, 'retryMaxMs', 0, 600_000, p),
    retryAfterMaxMs: integer(o.retryAfterMaxMs, 60_000, 'retryAfterMaxMs', 0, 3_600_000, p),
    maxBodyBytes: integer(
      o.maxBodyBytes,
      DEFAULT_MAX_BODY_BYTES,
      'maxBodyBytes',
      1,
      Number.MAX_SAFE_INTEGER,
      p,
    ),
  };
}

function integer(
  value: unknown,
  fallback: number,
  name: string,
  min: number,
  max: number,
  problems: string[],
): number {
  return ranged(value, fallback, { name, min, max, integer: true }, problems);
}

function number(
  value: unknown,
  fallback: number,
  name: string,
  min: number,
  max: number,
  problems: string[],
): number {
  return ranged(value, fallback, { name, min, max, integer: false }, problems);
}

/** A value in [min, max], or the fallback with a problem that says what was expected and got. */
function ranged(
  value: unknown,
  fallback: number,
  range: { name: string; min: number; max: number; integer: boolean },
  problems: string[],
): number {
  if (value === undefined) return fallback;
  const { name, min, max } = range;
  const fits = range.integer ? Number.isInteger(value) : Number.isFinite(value);
  if (typeof value !== 'number' || !fits || value < min || value > max) {
    const kind = range.integer ? 'an integer' : 'a number';
    problems.push(`${name}: expected ${kind} from ${min} to ${max}, got ${describe(value)}`);
    return fallback;
  }
  return value;
}

function describe(value: unknown): string {
  if (typeof value === 'string') return JSON.stringify(value);
  if (value === null) return 'null';
  if (typeof value === 'number') return String(value);
  return typeof value;
}
