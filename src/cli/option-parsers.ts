import { InvalidArgumentError } from 'commander';

/** Commander argument parsers: a bad value is a usage error (exit 2) naming what was expected. */
export function nonNegativeInt(value: string): number {
  if (!/^\d+$/.test(value))
    throw new InvalidArgumentError(`expected a whole number ≥ 0, got "${value}"`);
  return Number(value);
}

export function port(value: string): number {
  const parsed = /^\d+$/.test(value) ? Number(value) : NaN;
  if (!(parsed >= 0 && parsed <= 65535)) {
    throw new InvalidArgumentError(`expected a port number 0–65535, got "${value}"`);
  }
  return parsed;
}
