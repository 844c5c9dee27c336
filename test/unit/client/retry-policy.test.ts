import { describe, expect, it } from 'vitest';
import {
  isRetryableError,
  isRetryableStatus,
  parseRetryAfter,
  retryDelay,
} from '../../../src/client/retry-policy.js';

const settings = { baseMs: 100, maxMs: 1_000, retryAfterMaxMs: 60_000, random: () => 0.5 };

describe('parseRetryAfter', () => {
  const now = Date.parse('2024-05-01T12:00:00Z');

  it('reads delta-seconds', () => {
    expect(parseRetryAfter('3', now)).toBe(3_000);
    expect(parseRetryAfter(' 0 ', now)).toBe(0);
    expect(parseRetryAfter(['2', '9'], now)).toBe(2_000);
  });

  it('reads an HTTP date relative to now, and a past date as 0', () => {
    expect(parseRetryAfter('Wed, 01 May 2024 12:00:07 GMT', now)).toBe(7_000);
    expect(parseRetryAfter('Wed, 01 May 2024 11:00:00 GMT', now)).toBe(0);
  });

  it('ignores absent or unreadable values', () => {
    expect(parseRetryAfter(undefined, now)).toBeUndefined();
    expect(parseRetryAfter('', now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
    expect(parseRetryAfter('-5', now)).toBeUndefined();
  });
});

describe('retryDelay', () => {
  it('grows exponentially under full jitter and stops at maxMs', () => {
    expect(retryDelay(1, undefined, settings)).toBe(50);
    expect(retryDelay(2, undefined, settings)).toBe(100);
    expect(retryDelay(3, undefined, settings)).toBe(200);
    expect(retryDelay(10, undefined, settings)).toBe(500);
    expect(retryDelay(10, undefined, { ...settings, random: () => 0.999 })).toBe(999);
    expect(retryDelay(3, undefined, { ...settings, random: () => 0 })).toBe(0);
  });

  it('waits what Retry-After asks, even beyond maxMs, up to retryAfterMaxMs', () => {
    expect(retryDelay(1, 5_000, settings)).toBe(5_000);
    expect(retryDelay(1, 3_600_000, settings)).toBe(60_000);
  });
});

describe('isRetryableStatus', () => {
  it('retries 408, 429 and 5xx for idempotent requests, never other 4xx', () => {
    for (const status of [408, 429, 500, 502, 503, 504])
      expect(isRetryableStatus(status, true)).toBe(true);
    for (const status of [400, 401, 403, 404, 409, 410, 501, 505])
      expect(isRetryableStatus(status, true)).toBe(false);
  });

  it('retries a non-idempotent request only when the server did not act on it', () => {
    expect(isRetryableStatus(429, false)).toBe(true);
    expect(isRetryableStatus(503, false)).toBe(true);
    expect(isRetryableStatus(408, false)).toBe(true);
    expect(isRetryableStatus(500, false)).toBe(false);
    expect(isRetryableStatus(502, false)).toBe(false);
  });
});

describe('isRetryableError', () => {
  it('retries transport faults, and only never-sent ones for non-idempotent requests', () => {
    const reset = Object.assign(new Error('reset'), { code: 'ECONNRESET' });
    const refused = Object.assign(new Error('refused'), { code: 'ECONNREFUSED' });
    expect(isRetryableError(reset, true)).toBe(true);
    expect(isRetryableError(reset, false)).toBe(false);
    expect(isRetryableError(refused, false)).toBe(true);
    expect(isRetryableError(new Error('no code'), true)).toBe(false);
    expect(
      isRetryableError(Object.assign(new Error('x'), { code: 'UND_ERR_INVALID_ARG' }), true),
    ).toBe(false);
  });
});
