/**
 * The fault mix of the reliability suite and a way to know which faults a run met.
 *
 * The reference site draws one fault decision per API or upload request, in order of arrival,
 * from a seeded RNG; replaying the same spec over the request log tells exactly how many
 * requests were answered with each fault (the log alone cannot tell a cut body from a whole
 * one).
 */
import type { HttpSettings } from '../../src/config/pipeline-schema.js';
import { FaultInjector, type FaultKind } from '../../src/reference/faults.js';
import type { RequestLogEntry } from '../../src/reference/index.js';

/**
 * 10% 500s, 5% 429s with `Retry-After: 1`, 2% dropped connections, 1% cut JSON bodies, 1%
 * hangs of 4 s (beyond the client timeout below), a little latency.
 */
export const FAULTS =
  'latency=1ms..4ms,error=0.1,429=0.05,reset=0.02,truncate=0.01,slow=0.01,slowMs=4000,retryAfter=1,faultSeed=';

/** The fault spec with a seed (each scenario its own, so each meets its own sequence). */
export function faultSpec(seed: number): string {
  return `${FAULTS}${seed}`;
}

/**
 * Client settings for a faulty site: a timeout far below the hang (a hung request is
 * abandoned and retried), and enough retries that giving up is negligible: with ~19% of
 * attempts faulted, 11 attempts all failing has a probability of about 1e-8.
 */
export const FAULT_HTTP: HttpSettings = {
  concurrency: 6,
  requestsPerSecond: 0,
  timeoutMs: 1000,
  retries: 10,
};

export type FaultCounts = Record<FaultKind, number>;

/**
 * The fault each logged request got, replaying `spec` over `log` (which must start where the
 * spec was set). Only API and upload requests of a served language draw a decision (see
 * http-server.ts); the others get `none`.
 */
export function faultDecisions(spec: string, log: readonly RequestLogEntry[]): FaultKind[] {
  const injector = new FaultInjector(spec);
  return log.map((entry) => (entry.lang === undefined ? 'none' : injector.decide().kind));
}

/** How many of the logged requests got each fault. */
export function faultCounts(spec: string, log: readonly RequestLogEntry[]): FaultCounts {
  const counts: FaultCounts = { none: 0, error: 0, '429': 0, reset: 0, truncate: 0, slow: 0 };
  for (const kind of faultDecisions(spec, log)) counts[kind] += 1;
  return counts;
}
