import { UsageError } from '../errors.js';
import { createRng } from './rng.js';
import type { Rng } from './rng.js';

/**
 * Fault injection for reliability tests: added latency and, per request, at most one of a
 * 500, a 429 with Retry-After, a dropped connection, a truncated body or a long hang. Draws
 * come from a seeded RNG, so a test sees the same faults on every run. Apart from the draws,
 * `batchCut` makes every batch stop part-way and drop its answer.
 */
export interface FaultSpec {
  /** Delay added to every request, in ms; `[min, max]` draws uniformly. @default 0 */
  readonly latencyMs?: number | readonly [number, number];
  /** Probability of a 500 with a JSON error body. @default 0 */
  readonly error?: number;
  /** Probability of a 429 with `Retry-After`. @default 0 */
  readonly tooManyRequests?: number;
  /** Seconds sent in `Retry-After` on a 429. @default 1 */
  readonly retryAfterSeconds?: number;
  /** Probability of destroying the socket without an answer. @default 0 */
  readonly reset?: number;
  /** Probability of sending only the first half of the body (correct status). @default 0 */
  readonly truncate?: number;
  /** Probability of hanging `slowMs` before answering. @default 0 */
  readonly slow?: number;
  /** How long a slow request hangs, in ms. @default 30000 */
  readonly slowMs?: number;
  /** Seed of the fault RNG. @default 1 */
  readonly seed?: number;
  /**
   * A batch (`POST /batch/v1`) carries out only its first `batchCut` sub-requests, then the
   * connection is dropped without an answer: a server process that dies in the middle of a
   * batch (what it did stays done, the client never hears of it). Every batch while set.
   * @default none
   */
  readonly batchCut?: number;
}

export type FaultKind = 'none' | 'error' | '429' | 'reset' | 'truncate' | 'slow';

export interface FaultDecision {
  readonly kind: FaultKind;
  readonly delayMs: number;
}

const KNOWN_KEYS = [
  'latency',
  'error',
  '429',
  'reset',
  'truncate',
  'slow',
  'slowMs',
  'retryAfter',
  'faultSeed',
  'batchCut',
];

function fail(message: string): never {
  throw new UsageError(`Invalid fault spec: ${message}`);
}

function parseMs(key: string, value: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s)?$/.exec(value.trim());
  if (!match) fail(`${key} must be a duration like 20ms or 2s, got "${value}"`);
  const amount = Number(match[1]);
  return match[2] === 's' ? amount * 1000 : amount;
}

function parseProbability(key: string, value: string): number {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || number < 0 || number > 1) {
    fail(`${key} must be a probability between 0 and 1, got "${value}"`);
  }
  return number;
}

function parseInteger(key: string, value: string): number {
  if (!/^\d+$/.test(value.trim())) fail(`${key} must be a whole number >= 0, got "${value}"`);
  return Number(value);
}

/** Keys of the string form that set a probability, and the field each sets. */
const PROBABILITY_KEYS = {
  error: 'error',
  '429': 'tooManyRequests',
  reset: 'reset',
  truncate: 'truncate',
  slow: 'slow',
} as const;

/** Keys of the string form that set a whole number, and the field each sets. */
const INTEGER_KEYS = {
  retryAfter: 'retryAfterSeconds',
  faultSeed: 'seed',
  batchCut: 'batchCut',
} as const;

/**
 * Parses `latency=20ms,error=0.1,429=0.05,reset=0.02` (see FaultSpec for every key).
 * Throws UsageError naming the key on an unknown key or a bad value.
 */
export function parseFaults(spec: string): FaultSpec {
  const out: {
    -readonly [K in keyof FaultSpec]: FaultSpec[K];
  } = {};
  const trimmed = spec.trim();
  if (trimmed === '' || trimmed === 'none') return {};
  for (const part of trimmed.split(',')) {
    const eq = part.indexOf('=');
    if (eq <= 0) fail(`"${part.trim()}" is not key=value (known keys: ${KNOWN_KEYS.join(', ')})`);
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    switch (key) {
      case 'latency': {
        const range = value.split('..');
        if (range.length === 2) {
          const min = parseMs(key, range[0] as string);
          const max = parseMs(key, range[1] as string);
          if (max < min) fail(`latency range "${value}" has its maximum below its minimum`);
          out.latencyMs = [min, max];
        } else out.latencyMs = parseMs(key, value);
        break;
      }
      case 'slowMs':
        out.slowMs = parseMs(key, value);
        break;
      default:
        if (Object.hasOwn(PROBABILITY_KEYS, key)) {
          out[PROBABILITY_KEYS[key as keyof typeof PROBABILITY_KEYS]] = parseProbability(
            key,
            value,
          );
        } else if (Object.hasOwn(INTEGER_KEYS, key)) {
          out[INTEGER_KEYS[key as keyof typeof INTEGER_KEYS]] = parseInteger(key, value);
        } else fail(`unknown key "${key}" (known keys: ${KNOWN_KEYS.join(', ')})`);
    }
  }
  return validateFaults(out);
}

/** Checks a FaultSpec given as an object (same rules as the string form). */
export function validateFaults(spec: FaultSpec): FaultSpec {
  for (const key of ['error', 'tooManyRequests', 'reset', 'truncate', 'slow'] as const) {
    const value = spec[key];
    if (value !== undefined && !(Number.isFinite(value) && value >= 0 && value <= 1)) {
      fail(`${key} must be a probability between 0 and 1, got ${String(value)}`);
    }
  }
  const sum =
    (spec.error ?? 0) +
    (spec.tooManyRequests ?? 0) +
    (spec.reset ?? 0) +
    (spec.truncate ?? 0) +
    (spec.slow ?? 0);
  if (sum > 1 + 1e-9) fail(`the fault probabilities add up to ${sum}, more than 1`);
  const latency = spec.latencyMs;
  const latencies =
    latency === undefined ? [] : typeof latency === 'number' ? [latency] : [...latency];
  if (latencies.some((ms) => !Number.isFinite(ms) || ms < 0)) fail('latency must be >= 0 ms');
  const cut = spec.batchCut;
  if (cut !== undefined && !(Number.isInteger(cut) && cut >= 0))
    fail(`batchCut must be a whole number >= 0, got ${String(cut)}`);
  return spec;
}

export class FaultInjector {
  readonly spec: FaultSpec;
  readonly #rng: Rng;

  constructor(spec: FaultSpec | string = {}) {
    this.spec = typeof spec === 'string' ? parseFaults(spec) : validateFaults(spec);
    this.#rng = createRng(this.spec.seed ?? 1);
  }

  get active(): boolean {
    const s = this.spec;
    return Boolean(s.latencyMs || s.error || s.tooManyRequests || s.reset || s.truncate || s.slow);
  }

  decide(): FaultDecision {
    if (!this.active) return { kind: 'none', delayMs: 0 };
    const { latencyMs } = this.spec;
    let delayMs = 0;
    if (typeof latencyMs === 'number') delayMs = latencyMs;
    else if (latencyMs) delayMs = latencyMs[0] + this.#rng() * (latencyMs[1] - latencyMs[0]);
    const draw = this.#rng();
    let threshold = 0;
    const kinds: [FaultKind, number | undefined][] = [
      ['reset', this.spec.reset],
      ['error', this.spec.error],
      ['429', this.spec.tooManyRequests],
      ['truncate', this.spec.truncate],
      ['slow', this.spec.slow],
    ];
    for (const [kind, probability] of kinds) {
      threshold += probability ?? 0;
      if (draw < threshold) return { kind, delayMs };
    }
    return { kind: 'none', delayMs };
  }
}
