import { freshCursor, type CrawlCursor } from '../../../src/sync/crawl-plan.js';

/** A modified date the crawl-plan cases use as every watermark and tie. */
export const T = '2024-05-01T10:00:00';

/** A fresh crawl cursor with the fields a case sets. */
export function cursor(patch: Partial<CrawlCursor> = {}): CrawlCursor {
  return { ...freshCursor(null), ...patch };
}
