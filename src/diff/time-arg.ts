import { UsageError } from '../errors.js';
import { parseDuration } from '../duration.js';

const ISO_WITH_ZONE =
  /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2})$/i;
const DAYS = /^(\d+(?:\.\d+)?)d$/;
const DAY_MS = 86_400_000;

/**
 * A TIME flag: ISO 8601 with `Z` or an offset (a time without a zone would mean a different
 * instant on every machine, so it is refused), or a duration back from `now` (`90m`, `24h`,
 * `7d`; hours and below through the watch command's parser). Pure.
 */
export function parseTimeArg(text: string, now: Date, flag: string): Date {
  const trimmed = text.trim();
  if (ISO_WITH_ZONE.test(trimmed)) {
    const ms = Date.parse(trimmed);
    if (Number.isFinite(ms)) return new Date(ms);
  } else {
    const days = DAYS.exec(trimmed);
    const back = days !== null ? Math.round(Number(days[1]) * DAY_MS) : durationOrNaN(trimmed);
    if (back >= 1 && Number.isSafeInteger(back)) return new Date(now.getTime() - back);
  }
  throw new UsageError(
    `${flag}: expected an ISO 8601 time with Z or an offset (2026-11-24T06:00:00Z) or a duration back from now (90m, 24h, 7d), got "${text}"`,
  );
}

function durationOrNaN(text: string): number {
  try {
    return parseDuration(text);
  } catch (error) {
    if (error instanceof UsageError) return NaN;
    throw error;
  }
}
