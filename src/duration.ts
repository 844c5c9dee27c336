import { UsageError } from './errors.js';

const UNITS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 } as const;

/**
 * `500ms`, `10s`, `5m`, `1h` (a decimal number is fine: `1.5s`) → whole milliseconds.
 * Pure; anything else — no unit, an unknown unit, zero — is a {@link UsageError} (exit 2)
 * saying what was expected and what was given.
 */
export function parseDuration(text: string, name?: string): number {
  const match = /^(\d+(?:\.\d+)?)(ms|s|m|h)$/.exec(text.trim());
  const ms = match ? Math.round(Number(match[1]) * UNITS[match[2] as keyof typeof UNITS]) : NaN;
  if (!(ms >= 1) || !Number.isSafeInteger(ms)) {
    throw new UsageError(
      `${name === undefined ? '' : `${name}: `}expected a duration such as 500ms, 10s, 5m or 1h, got "${text}"`,
    );
  }
  return ms;
}
