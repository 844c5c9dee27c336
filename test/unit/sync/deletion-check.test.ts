import { describe, expect, it } from 'vitest';
import {
  countsAgree,
  fullSweepDue,
  unlistedAfterListing,
} from '../../../src/sync/deletion-check.js';
import { versionCount } from '../../../src/sync/version-count.js';

describe('countsAgree', () => {
  it('compares the total less what was unlisted at the last full listing', () => {
    expect(countsAgree({ remote: 8, local: 7, unlisted: 1 })).toBe(true);
    // A listed item deleted for good: total 7, cache still 7.
    expect(countsAgree({ remote: 7, local: 7, unlisted: 1 })).toBe(false);
    expect(countsAgree({ remote: 7, local: 6, unlisted: 1 })).toBe(true);
    expect(countsAgree({ remote: 5, local: 5, unlisted: null })).toBe(true);
    expect(countsAgree({ remote: 6, local: 5, unlisted: null })).toBe(false);
  });

  it('cannot agree without a count header', () => {
    expect(countsAgree({ remote: undefined, local: 0, unlisted: 0 })).toBe(false);
  });
});

describe('unlistedAfterListing', () => {
  it('is what the site counted but did not list, never negative, unknown without a total', () => {
    expect(unlistedAfterListing(8, 7)).toBe(1);
    expect(unlistedAfterListing(7, 8)).toBe(0);
    expect(unlistedAfterListing(undefined, 7)).toBeNull();
  });
});

describe('fullSweepDue', () => {
  it('lists in full on the Nth pull after a full listing, never with 0', () => {
    expect([0, 1, 2, 3].map((since) => fullSweepDue(since, 3))).toEqual([false, false, true, true]);
    expect(fullSweepDue(0, 1)).toBe(true);
    expect(fullSweepDue(null, 1)).toBe(true);
    expect(fullSweepDue(null, 20)).toBe(false);
    expect(fullSweepDue(1000, 0)).toBe(false);
  });
});

describe('versionCount', () => {
  const item = (links: unknown): string => JSON.stringify({ id: 1, _links: links });

  it('reads _links["version-history"][0].count', () => {
    expect(versionCount(item({ 'version-history': [{ count: 4, href: 'x' }] }))).toBe(4);
    expect(versionCount(item({ 'version-history': [{ count: 0, href: 'x' }] }))).toBe(0);
  });

  it('is undefined when the server does not send a usable count', () => {
    expect(versionCount(item({ 'version-history': [{ href: 'x' }] }))).toBeUndefined();
    expect(versionCount(item({}))).toBeUndefined();
    expect(versionCount(JSON.stringify({ id: 1 }))).toBeUndefined();
    expect(versionCount(item({ 'version-history': [{ count: -1 }] }))).toBeUndefined();
    expect(versionCount(item({ 'version-history': [{ count: '3' }] }))).toBeUndefined();
    expect(versionCount(item({ 'version-history': {} }))).toBeUndefined();
    expect(versionCount('not json')).toBeUndefined();
  });
});
