/**
 * Where in a run a request falls, read from the reference site's request log: the phase of a
 * pull or a migration each request belongs to (by method, path and query, as the interface
 * names them) and its language. The crash tests trace a clean run with it, choose each kill
 * point as "the n-th request of phase P in language L", and check where each kill landed.
 */
import type { RequestLogEntry } from '../../src/reference/index.js';
import { createRng } from '../../src/reference/rng.js';

export type Phase =
  | 'index'
  | 'seo'
  | 'crawl'
  | 'count'
  | 'probe'
  | 'children'
  | 'lookup'
  | 'revisions'
  | 'autosaves'
  | 'media'
  | 'embed'
  | 'upload'
  | 'batch'
  | 'other';

const COLLECTION = /^\/cms\/v2\/(posts|pages|media)(?:\/\d+\/(revisions|autosaves))?$/;

function has(entry: RequestLogEntry, key: string): boolean {
  return entry.query[key] !== undefined || entry.query[`${key}[]`] !== undefined;
}

/** The phase a request belongs to. */
export function phaseOf(entry: RequestLogEntry): Phase {
  const { method, path } = entry;
  if (path.includes('/cms-content/uploads/')) return 'media';
  if (path === '/' || path === '') return 'index';
  if (path.startsWith('/oembed/')) return 'embed';
  if (path.startsWith('/seo/')) return 'seo';
  if (path === '/batch/v1') return 'batch';
  const collection = COLLECTION.exec(path);
  if (collection === null) return 'other';
  if (collection[2] !== undefined) return collection[2] as 'revisions' | 'autosaves';
  if (method === 'POST') return 'upload';
  if (has(entry, 'include')) return 'probe';
  if (has(entry, 'parent')) return 'children';
  if (has(entry, 'slug') || has(entry, 'search')) return 'lookup';
  if (entry.query['per_page'] === '1' && entry.query['page'] === undefined) return 'count';
  return 'crawl';
}

/** `phase lang`, the key of a trace. */
export function placeOf(entry: RequestLogEntry): string {
  return `${phaseOf(entry)} ${entry.lang ?? '-'}`;
}

/** Requests per place (default `phase lang`) of a slice of the log (a clean run's trace). */
export function traceOf(
  entries: readonly RequestLogEntry[],
  place: (entry: RequestLogEntry) => string = placeOf,
): Map<string, number> {
  const trace = new Map<string, number>();
  for (const entry of entries) trace.set(place(entry), (trace.get(place(entry)) ?? 0) + 1);
  return trace;
}

/** A kill point: the `nth` request of `place` (`phase lang`) in a run. */
export interface KillPoint {
  readonly place: string;
  readonly nth: number;
}

/**
 * One kill point per entry of `places`, each at a request drawn (seeded) among the requests
 * the clean trace made there. Throws when a place never occurs in the trace: a kill could not
 * land there, and the test would prove nothing about it.
 */
export function killPointsIn(
  seed: number,
  trace: ReadonlyMap<string, number>,
  places: readonly string[],
): KillPoint[] {
  const rng = createRng(seed);
  return places.map((place) => {
    const count = trace.get(place) ?? 0;
    if (count === 0)
      throw new Error(`no request of "${place}" in the clean run: ${[...trace].join('; ')}`);
    return { place, nth: 1 + Math.floor(rng() * count) };
  });
}

/**
 * A predicate for `runChild({ killWhen })`: true on the `nth` request of `point.place`, as
 * `place` names requests (default `placeOf`).
 */
export function killAt(
  point: KillPoint,
  place: (entry: RequestLogEntry) => string = placeOf,
): (entry: RequestLogEntry) => boolean {
  let seen = 0;
  return (entry) => {
    if (place(entry) !== point.place) return false;
    seen += 1;
    return seen === point.nth;
  };
}
