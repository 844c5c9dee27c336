import { describe, expect, it } from 'vitest';
import {
  earlierGmt,
  gmtFromHttpDate,
  isGmt,
  laterGmt,
  queryTime,
  shiftGmt,
} from '../../../src/sync/gmt-time.js';

describe('gmt-time', () => {
  it('recognises the remote format only', () => {
    expect(isGmt('2024-03-14T02:00:00')).toBe(true);
    expect(isGmt('2024-03-14T02:00:00Z')).toBe(false);
    expect(isGmt('2024-03-14 02:00:00')).toBe(false);
    expect(isGmt('2024-13-45T02:00:00')).toBe(false);
    expect(isGmt(1710381600)).toBe(false);
    expect(isGmt(null)).toBe(false);
  });

  it('shifts across minute, day and year boundaries', () => {
    expect(shiftGmt('2024-03-14T02:00:00', -1)).toBe('2024-03-14T01:59:59');
    expect(shiftGmt('2024-12-31T23:59:59', 1)).toBe('2025-01-01T00:00:00');
    expect(shiftGmt('2024-03-01T00:00:00', -1)).toBe('2024-02-29T23:59:59');
  });

  it('sends query times with an explicit Z so the site time zone cannot shift them', () => {
    expect(queryTime('2024-03-14T02:00:00')).toBe('2024-03-14T02:00:00Z');
  });

  it('reads the HTTP Date header as GMT', () => {
    expect(gmtFromHttpDate('Thu, 14 Mar 2024 02:00:05 GMT')).toBe('2024-03-14T02:00:05');
    expect(gmtFromHttpDate(['Thu, 14 Mar 2024 02:00:05 GMT'])).toBe('2024-03-14T02:00:05');
    expect(gmtFromHttpDate('not a date')).toBeUndefined();
    expect(gmtFromHttpDate(undefined)).toBeUndefined();
  });

  it('picks the later and the earlier timestamp, treating null as none', () => {
    expect(laterGmt('2024-01-01T00:00:00', '2024-01-01T00:00:01')).toBe('2024-01-01T00:00:01');
    expect(laterGmt(null, '2024-01-01T00:00:01')).toBe('2024-01-01T00:00:01');
    expect(laterGmt(null, null)).toBeNull();
    expect(earlierGmt('2024-01-01T00:00:00', '2024-01-01T00:00:01')).toBe('2024-01-01T00:00:00');
    expect(earlierGmt('2024-01-01T00:00:00', null)).toBe('2024-01-01T00:00:00');
  });
});
