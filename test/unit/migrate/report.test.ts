import { describe, expect, it } from 'vitest';
import { emptyReport } from '../../../src/migrate/report.js';

/**
 * The report every migration starts from (and that callers such as the batch creator are handed
 * in tests): it must say that nothing happened yet, so a run that stops early reports no
 * conflict, no stop and no plan it did not make.
 */
describe('emptyReport', () => {
  it('says that nothing was created, found, stopped, warned about or planned', () => {
    expect(emptyReport()).toStrictEqual({
      created: { media: 0, pages: 0, posts: 0 },
      skipped: 0,
      recovered: 0,
      adopted: 0,
      conflicts: [],
      stopped: false,
      relinked: 0,
      failed: [],
      warnings: [],
      planText: '',
      requests: 0,
      batches: 0,
      seo: undefined,
    });
  });

  it('lists the created counts in migration order: media first, then pages, then posts', () => {
    expect(Object.keys(emptyReport().created)).toEqual(['media', 'pages', 'posts']);
  });

  it('gives each run lists of its own', () => {
    const first = emptyReport();
    first.warnings.push('a warning of the first run');
    first.failed.push({ type: 'posts', sourceId: 1, message: 'refused' });
    const second = emptyReport();
    expect(second.warnings).toEqual([]);
    expect(second.failed).toEqual([]);
  });
});
