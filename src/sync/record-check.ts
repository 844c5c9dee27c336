import { nestsDeeperThan } from '../client/json-depth.js';
import type { CmsItem } from '../store/index.js';
import { isGmt } from './gmt-time.js';

/**
 * Records nested deeper than this are skipped: real ones nest about ten levels, and the cache
 * (canonical JSON, SQLite's JSON functions, limited to 1,000) must never meet one it cannot
 * hash or index.
 */
export const MAX_RECORD_DEPTH = 100;

/** Why a listed record cannot be stored however it is read, or undefined when it can. */
export function unstorableReason(record: unknown): string | undefined {
  return nestsDeeperThan(record, MAX_RECORD_DEPTH)
    ? `nested deeper than ${MAX_RECORD_DEPTH} levels`
    : undefined;
}

/** An item the crawl can use: an object with a positive integer id and a `modified_gmt`. */
export interface CrawlItem extends CmsItem {
  readonly modified_gmt: string;
}

export interface BadRecord {
  /** Position in the page. */
  readonly index: number;
  /** The id when there was a usable one, for the log line. */
  readonly id: number | undefined;
  readonly reason: string;
}

/**
 * Splits a fetched page into usable items and bad records (logged, counted and skipped by the
 * caller, never stored half-understood). Pure.
 */
export function checkRecords(records: readonly unknown[]): {
  items: CrawlItem[];
  bad: BadRecord[];
} {
  const items: CrawlItem[] = [];
  const bad: BadRecord[] = [];
  records.forEach((record, index) => {
    if (typeof record !== 'object' || record === null || Array.isArray(record)) {
      bad.push({ index, id: undefined, reason: `not an object (${describe(record)})` });
      return;
    }
    const id = (record as { id?: unknown }).id;
    if (typeof id !== 'number' || !Number.isSafeInteger(id) || id <= 0) {
      bad.push({ index, id: undefined, reason: `no positive integer id (${describe(id)})` });
      return;
    }
    const modified = (record as { modified_gmt?: unknown }).modified_gmt;
    if (!isGmt(modified)) {
      bad.push({ index, id, reason: `no modified_gmt timestamp (${describe(modified)})` });
      return;
    }
    const unstorable = unstorableReason(record);
    if (unstorable !== undefined) {
      bad.push({ index, id, reason: unstorable });
      return;
    }
    items.push(record as CrawlItem);
  });
  return { items, bad };
}

function describe(value: unknown): string {
  if (value === undefined) return 'missing';
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'a list';
  if (typeof value === 'string') return JSON.stringify(value.slice(0, 40));
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return `a ${typeof value}`;
}
