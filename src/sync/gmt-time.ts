/**
 * The remote's GMT timestamps (`2024-03-14T02:00:00`: to the second, no offset) and the
 * arithmetic the crawl needs on them. Pure. Such strings sort correctly as text, which the
 * crawl relies on for comparisons.
 */

const GMT_PATTERN = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/;

/** Whether `value` is a GMT timestamp in the remote's format. */
export function isGmt(value: unknown): value is string {
  return typeof value === 'string' && GMT_PATTERN.test(value) && Number.isFinite(toMs(value));
}

/** `gmt` moved by whole seconds, in the same format. */
export function shiftGmt(gmt: string, seconds: number): string {
  return new Date(toMs(gmt) + seconds * 1000).toISOString().slice(0, 19);
}

/**
 * The value sent as `modified_after` / `modified_before`. With the `Z` the server converts it
 * from GMT itself (observed); without an offset it would read it as site-local time, and the
 * site's `gmt_offset` would shift the window.
 */
export function queryTime(gmt: string): string {
  return `${gmt}Z`;
}

/** An HTTP `Date` header as a GMT timestamp, or undefined when absent or unreadable. */
export function gmtFromHttpDate(value: string | readonly string[] | undefined): string | undefined {
  const text = Array.isArray(value) ? value[0] : value;
  if (typeof text !== 'string') return undefined;
  const ms = Date.parse(text);
  return Number.isFinite(ms) ? new Date(ms).toISOString().slice(0, 19) : undefined;
}

/** The later of two timestamps; undefined/null count as "none". */
export function laterGmt(
  a: string | null | undefined,
  b: string | null | undefined,
): string | null {
  if (a === null || a === undefined) return b ?? null;
  if (b === null || b === undefined) return a;
  return a >= b ? a : b;
}

/** The earlier of two timestamps; undefined/null count as "none". */
export function earlierGmt(
  a: string | null | undefined,
  b: string | null | undefined,
): string | null {
  if (a === null || a === undefined) return b ?? null;
  if (b === null || b === undefined) return a;
  return a <= b ? a : b;
}

function toMs(gmt: string): number {
  return Date.parse(`${gmt}Z`);
}
