/**
 * Dates as the interface writes and reads them. Items store instants as epoch seconds; the
 * wire shows `date`/`modified` in the site's fixed offset and `*_gmt` in GMT, both as
 * `YYYY-MM-DDTHH:MM:SS` with no offset (observed-behaviour.md).
 */

/** RFC 3339 as deployed servers accept it: `T`, `t` or a space; optional fraction and offset. */
const DATE_TIME =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|z|[+-]\d{2}(?::?\d{2})?)?$/;

function pad(value: number, width = 2): string {
  return String(value).padStart(width, '0');
}

/** Seconds east of GMT for a `gmt_offset` in hours (may be fractional, e.g. 5.5). */
export function offsetSeconds(gmtOffsetHours: number): number {
  return Math.round(gmtOffsetHours * 3600);
}

export function formatGmt(epochSeconds: number): string {
  const d = new Date(epochSeconds * 1000);
  return (
    `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}` +
    `T${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}`
  );
}

export function formatSiteLocal(epochSeconds: number, gmtOffsetHours: number): string {
  return formatGmt(epochSeconds + offsetSeconds(gmtOffsetHours));
}

/** Year and month (two digits) of the site-local date, as used in post links and upload paths. */
export function siteYearMonth(epochSeconds: number, gmtOffsetHours: number): [string, string] {
  const local = formatSiteLocal(epochSeconds, gmtOffsetHours);
  return [local.slice(0, 4), local.slice(5, 7)];
}

export function isDateTime(value: string): boolean {
  return parseDateTime(value, 0) !== undefined;
}

/**
 * Parses an RFC 3339 date-time to epoch seconds. A value without an offset is read in the
 * zone given by `assumedOffsetHours` (site-local for `date`, `after`, ...; 0 for `*_gmt`).
 * Returns undefined for anything that is not a real calendar date.
 */
export function parseDateTime(value: string, assumedOffsetHours: number): number | undefined {
  const m = DATE_TIME.exec(value);
  if (!m) return undefined;
  const [year, month, day, hour, minute, second] = m.slice(1, 7).map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  if (month < 1 || month > 12 || day < 1 || day > 31 || hour > 23 || minute > 59 || second > 59) {
    return undefined;
  }
  const utc = Date.UTC(year, month - 1, day, hour, minute, second);
  const check = new Date(utc);
  if (check.getUTCDate() !== day || check.getUTCMonth() !== month - 1) return undefined;
  const zone = m[7];
  let offset: number;
  if (zone === undefined) offset = offsetSeconds(assumedOffsetHours);
  else if (zone === 'Z' || zone === 'z') offset = 0;
  else {
    const sign = zone.startsWith('-') ? -1 : 1;
    const digits = zone.slice(1).replace(':', '');
    offset = sign * (Number(digits.slice(0, 2)) * 3600 + Number(digits.slice(2, 4) || '0') * 60);
  }
  return utc / 1000 - offset;
}

export function toEpochSeconds(date: Date): number {
  return Math.floor(date.getTime() / 1000);
}
