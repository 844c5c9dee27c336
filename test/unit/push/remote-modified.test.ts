import { describe, expect, it } from 'vitest';
import { fetchRemoteModified } from '../../../src/push/remote-modified.js';
import { FakeEditSite } from '../../helpers/fake-edit-site.js';

/**
 * What push compares a checkout's base with: the site's current `modified_gmt` of each item
 * (issue 11, mutation testing of the push conflict check). Every status an editor sees counts
 * as "still there"; a trashed or missing item is "gone".
 */
describe('fetchRemoteModified: the site’s modified_gmt of the items being pushed', () => {
  const EDITOR_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

  it('reads every item an editor sees, whatever its status, a chunk of per_page ids per request', async () => {
    const site = new FakeEditSite();
    for (const [n, status] of EDITOR_STATUSES.entries()) {
      site.add({ id: n + 1, status, modified_gmt: `2024-05-0${n + 1}T10:00:00` });
    }
    const found = await fetchRemoteModified(site.client(), 'posts', [5, 3, 1, 2, 4, 3], 2);
    expect([...found].sort(([a], [b]) => a - b)).toEqual([
      [1, '2024-05-01T10:00:00'],
      [2, '2024-05-02T10:00:00'],
      [3, '2024-05-03T10:00:00'],
      [4, '2024-05-04T10:00:00'],
      [5, '2024-05-05T10:00:00'],
    ]);
    // Each id asked once, in chunks of 2.
    expect(site.queries.map((query) => query['include'])).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('leaves out a trashed item and one the site does not have: both are gone', async () => {
    const site = new FakeEditSite();
    site.add({ id: 1, status: 'trash' });
    site.add({ id: 2, status: 'draft', modified_gmt: '2024-05-02T10:00:00' });
    const found = await fetchRemoteModified(site.client(), 'pages', [1, 2, 3], 100);
    expect([...found]).toEqual([[2, '2024-05-02T10:00:00']]);
  });

  it('reads a whole chunk of up to per_page ids in one request, past the site’s default page size', async () => {
    const site = new FakeEditSite();
    const ids = Array.from({ length: 15 }, (_, n) => n + 1);
    for (const id of ids) site.add({ id });
    const found = await fetchRemoteModified(site.client(), 'posts', ids, 100);
    expect([...found.keys()].sort((a, b) => a - b)).toEqual(ids);
    expect(site.queries).toHaveLength(1);
  });

  it('ignores records without a numeric id or a modified_gmt', async () => {
    const site = new FakeEditSite();
    site.add({ id: 1, modified_gmt: '2024-05-01T10:00:00' });
    site.junk.push(
      { id: '2', modified_gmt: '2024-05-02T10:00:00' },
      { id: 3 },
      { id: 4, modified_gmt: 7 },
    );
    const found = await fetchRemoteModified(site.client(), 'posts', [1, 2, 3, 4], 10);
    expect([...found]).toEqual([[1, '2024-05-01T10:00:00']]);
  });

  it('asks nothing for no ids', async () => {
    const site = new FakeEditSite();
    expect(await fetchRemoteModified(site.client(), 'posts', [], 10)).toEqual(new Map());
    expect(site.queries).toEqual([]);
  });
});
