/**
 * A server that answers every list page with items it never listed before (valid ids, moving
 * `modified_gmt`) would buy the crawl three more requests per page for ever: the budget's item
 * count is capped, so the stream stops with a SiteError once the cap is passed.
 */
import { describe, expect, it } from 'vitest';
import { SiteError } from '../../../src/errors.js';
import { CrawlBudget, type ListClient } from '../../../src/sync/crawl-budget.js';

/** A list route that invents `perPage` new posts on every request. */
function inventingClient(perPage: number): { client: ListClient; sent: () => number } {
  let sent = 0;
  const client: ListClient = {
    get: <T>() => {
      const first = sent * perPage + 1;
      sent += 1;
      const data = Array.from({ length: perPage }, (_, i) => ({
        id: first + i,
        modified_gmt: new Date(Date.UTC(2024, 0, 1, 0, 0, first + i)).toISOString().slice(0, 19),
      }));
      return Promise.resolve({ data: data as T, status: 200, headers: {} } as never);
    },
  };
  return { client, sent: () => sent };
}

async function crawlUntilStopped(budget: CrawlBudget, client: ListClient): Promise<unknown> {
  const counted = budget.wrap(client);
  // The test's own guard: far more requests than any cap allows means the budget never stops.
  for (let page = 1; page <= 5_000; page++) {
    try {
      await counted.get('cms/v2/posts', { page, per_page: 100 });
    } catch (error) {
      return error;
    }
  }
  return undefined;
}

describe('the crawl budget against a server that invents items', () => {
  it('stops once the site listed more items than the cap, within the cap’s request bound', async () => {
    const { client, sent } = inventingClient(100);
    const budget = new CrawlBudget(100, 0, 'posts in pl', 1_000);
    const error = await crawlUntilStopped(budget, client);
    expect(error).toBeInstanceOf(SiteError);
    expect((error as SiteError).exitCode).toBe(2);
    expect((error as SiteError).message).toContain('listed more than 1,000 posts in pl');
    // 1,000 items are 10 pages: at most 3 requests per page plus 10, and one page past the cap.
    expect(sent()).toBeLessThanOrEqual(3 * 10 + 10 + 1);
    expect(sent()).toBeGreaterThan(10);
  });

  it('by default allows the largest listing a walk reads (1,000,000 items)', async () => {
    const { client, sent } = inventingClient(100);
    const budget = new CrawlBudget(100, 0, 'posts in pl');
    const error = await crawlUntilStopped(budget, client);
    // 5,000 pages of new items (500,000) are within the default cap: no refusal yet.
    expect(error).toBeUndefined();
    expect(sent()).toBe(5_000);
  });
});
