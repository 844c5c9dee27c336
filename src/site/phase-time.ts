/** How long a build's phase took, for its report. */
import { performance } from 'node:perf_hooks';

/** Seconds since `started` (a `performance.now()`), to the millisecond. */
export function secondsSince(started: number): number {
  return Math.round(performance.now() - started) / 1000;
}
