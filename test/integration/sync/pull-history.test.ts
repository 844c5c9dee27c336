import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { pull } from '../../../src/sync/index.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { callApi } from '../../helpers/reference.js';
import { settingsFor } from '../../helpers/mirror-check.js';

/**
 * The kept history of a backup cache: every version a `--backup` pull stores, with the pull
 * that saw it, and the pull that first missed an item. The oracle is what the test changed on
 * the site (control routes and REST calls), and the site's own records.
 */
describe('pull --backup keeps the history of every item', () => {
  const fixture = useSiteAndCache();

  function publishedPosts(): number[] {
    return fixture.site.control
      .listItems('pl', 'posts')
      .filter((item) => item.status === 'publish' && item.password === '')
      .map((item) => item.id);
  }

  it('a first version per item, one more per change, a gone row for a deletion, nothing for the unchanged', async () => {
    const { site, temp } = fixture;
    const settings = settingsFor(site, temp.file, { languages: ['pl'], backup: true });
    const first = await pull(settings);
    const [edited, trashed, deleted] = publishedPosts() as [number, number, number];
    site.control.updateItem('pl', 'posts', edited, { title: 'Kept in history' });
    const trash = await callApi(site, 'pl', `/cms/v2/posts/${trashed}`, {
      method: 'DELETE',
      auth: true,
    });
    expect(trash.status).toBe(200);
    site.control.deleteItem('pl', 'posts', deleted);
    const second = await pull(settings);
    await pull(settings); // a no-op pull adds nothing

    const sitePosts = site.control.listItems('pl', 'posts');
    const store = openStore(temp.file, { readonly: true });
    try {
      const versions = (id: number) => store.itemVersions.versionsOf('pl', 'posts', id);
      // Every post the site held at the first pull has exactly one version from it...
      const untouched = sitePosts.filter((item) => ![edited, trashed].includes(item.id));
      expect(untouched.length).toBeGreaterThan(3);
      for (const item of untouched) {
        expect(versions(item.id).map((v) => [v.runId, v.gone])).toEqual([[first.runId, false]]);
      }
      // ...an edited one a second version seen by the second pull, with the new title...
      const edits = versions(edited);
      expect(edits.map((v) => [v.runId, v.gone])).toEqual([
        [first.runId, false],
        [second.runId, false],
      ]);
      expect(JSON.parse(edits[1]!.json!).title.raw).toBe('Kept in history');
      expect(JSON.parse(edits[0]!.json!).title.raw).not.toBe('Kept in history');
      // ...a trashed one a version in the trash...
      expect(versions(trashed).map((v) => v.status)).toEqual(['publish', 'trash']);
      // ...and one deleted for good a gone row from the pull that first missed it.
      const gone = versions(deleted);
      expect(gone.map((v) => [v.runId, v.gone, v.json])).toEqual([
        [first.runId, false, expect.any(String)],
        [second.runId, true, null],
      ]);
      expect(gone[1]!.seenAt).toBe(store.items.get('pl', 'posts', deleted)?.deletedAt);
      expect(store.itemVersions.historyStart('pl')?.runId).toBe(first.runId);
    } finally {
      store.close();
    }
  });

  it('keeps nothing without --backup', async () => {
    const { site, temp } = fixture;
    await pull(settingsFor(site, temp.file, { languages: ['pl'] }));
    const store = openStore(temp.file, { readonly: true });
    try {
      expect(store.items.count('pl', 'posts')).toBeGreaterThan(0);
      expect(store.itemVersions.historyStart('pl')).toBeUndefined();
      expect(store.itemVersions.versionsOf('pl', 'posts', publishedPosts()[0]!)).toEqual([]);
    } finally {
      store.close();
    }
  });
});
