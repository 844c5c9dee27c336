import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { pull, type PullEvent } from '../../../src/sync/index.js';
import { expectTombstone } from '../../helpers/reliability-compare.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { callApi, shiftDate } from '../../helpers/reference.js';
import {
  cachedItems,
  expectItemsEqual,
  remoteItems,
  settingsFor,
} from '../../helpers/mirror-check.js';

describe('pull after changes on the site', () => {
  const fixture = useSiteAndCache();

  /** Published posts of `lang`, oldest first, as the site stores them. */
  function publishedPosts(lang: string): number[] {
    return fixture.site.control
      .listItems(lang, 'posts')
      .filter((item) => item.status === 'publish' && item.password === '')
      .map((item) => item.id);
  }

  async function makeChanges(lang: string): Promise<{
    edited: number;
    created: number;
    trashed: number;
    unpublished: number;
    deleted: number;
  }> {
    const { site } = fixture;
    const [edited, trashed, unpublished, deleted] = publishedPosts(lang) as [
      number,
      number,
      number,
      number,
    ];
    site.control.updateItem(lang, 'posts', edited, { title: 'Edited between pulls' });
    const created = site.control.createItems(lang, 'posts', 1)[0]!.id;
    expect(
      (await callApi(site, lang, `/cms/v2/posts/${trashed}`, { method: 'DELETE', auth: true }))
        .status,
    ).toBe(200);
    site.control.updateItem(lang, 'posts', unpublished, { status: 'draft' });
    expect(
      (
        await callApi(site, lang, `/cms/v2/posts/${deleted}`, {
          method: 'DELETE',
          auth: true,
          query: { force: true },
        })
      ).status,
    ).toBe(200);
    return { edited, created, trashed, unpublished, deleted };
  }

  it('with credentials: an edit, a new item, a trash, an unpublish and a forced delete all show up', async () => {
    const { site, temp } = fixture;
    const settings = settingsFor(site, temp.file, { languages: ['pl'] });
    await pull(settings);
    const ids = await makeChanges('pl');
    const summary = await pull(settings);
    expect(summary.languages['pl']).toMatchObject({ created: 1, updated: 3, deleted: 1 });
    const store = openStore(temp.file, { readonly: true });
    try {
      await expectItemsEqual(store, site, ['pl'], 'edit');
      expect(store.items.get('pl', 'posts', ids.trashed)?.status).toBe('trash');
      expect(store.items.get('pl', 'posts', ids.unpublished)?.status).toBe('draft');
      expect(store.items.get('pl', 'posts', ids.edited)?.title).toBe('Edited between pulls');
      // Left the site: kept as a tombstone, never silently dropped from the backup.
      expectTombstone(store, 'pl', 'posts', ids.deleted);
    } finally {
      store.close();
    }
  });

  it('anonymously: trashed, unpublished and deleted posts are tombstoned', async () => {
    const { site, temp } = fixture;
    const settings = settingsFor(site, temp.file, { languages: ['es'], auth: false });
    await pull(settings);
    const ids = await makeChanges('es');
    const summary = await pull(settings);
    expect(summary.languages['es']).toMatchObject({ created: 1, updated: 1, deleted: 3 });
    const store = openStore(temp.file, { readonly: true });
    try {
      await expectItemsEqual(store, site, ['es'], 'view');
      for (const id of [ids.trashed, ids.unpublished, ids.deleted]) {
        expectTombstone(store, 'es', 'posts', id);
      }
    } finally {
      store.close();
    }
  });

  it('mirrors all of 250 items that share one modified timestamp', async () => {
    const { site, temp } = fixture;
    const created = site.control.createItems('pl', 'posts', 250).map((item) => item.id);
    site.control.setModified('pl', 'posts', created, '2024-09-01T12:00:00');
    const settings = settingsFor(site, temp.file, { languages: ['pl'] });
    await pull(settings);
    const store = openStore(temp.file, { readonly: true });
    try {
      const cached = cachedItems(store, 'pl', 'posts');
      for (const id of created) expect(cached.has(id), `post ${id}`).toBe(true);
      await expectItemsEqual(store, site, ['pl'], 'edit');
    } finally {
      store.close();
    }
    expect(
      site.requests.some(
        (r) => r.query['orderby'] === 'id' && r.query['modified_before'] === '2024-09-01T12:00:01Z',
      ),
    ).toBe(true);
  });

  it('misses nothing and terminates when items are edited, created and deleted while it crawls', async () => {
    const { site, temp } = fixture;
    const bulk = site.control.createItems('pl', 'posts', 320).map((item) => item.id);
    bulk.forEach((id, n) =>
      site.control.setModified('pl', 'posts', [id], shiftDate('2024-10-01T00:00:00', n)),
    );
    const settings = settingsFor(site, temp.file, { languages: ['pl'] });
    let pages = 0;
    const during = async (event: PullEvent): Promise<void> => {
      if (
        event.type !== 'progress' ||
        event.collection !== 'posts' ||
        event.phase !== 'crawl' ||
        event.done === 0
      )
        return;
      pages += 1;
      if (pages === 1) {
        site.control.updateItem('pl', 'posts', bulk[5]!, { title: 'read, then edited' });
        site.control.updateItem('pl', 'posts', bulk[250]!, { title: 'edited before being read' });
        site.control.createItems('pl', 'posts', 3);
        site.control.deleteItem('pl', 'posts', bulk[50]!); // read on page 1, then deleted
        site.control.deleteItem('pl', 'posts', bulk[200]!); // deleted before being read
      }
      if (pages === 2) site.control.updateItem('pl', 'posts', bulk[150]!, { status: 'trash' });
    };
    const first = await pull({ ...settings }, { onProgress: (event) => void during(event) });
    expect(pages).toBeGreaterThanOrEqual(3);
    let store = openStore(temp.file, { readonly: true });
    try {
      const cached = cachedItems(store, 'pl', 'posts');
      const remote = await remoteItems(site, 'pl', 'posts', 'edit');
      // Everything on the site after the crawl is in the cache (no item missed)...
      for (const id of remote.keys()) expect(cached.has(id), `post ${id}`).toBe(true);
      expect(cached.get(bulk[250]!)?.title.raw).toBe('edited before being read');
      expect(cached.get(bulk[5]!)?.title.raw).toBe('read, then edited');
      // ...and each item was counted once.
      expect(first.total.created + first.total.updated + first.total.unchanged).toBe(
        store.items.count('pl', 'posts', { includeDeleted: true }) +
          store.items.count('pl', 'pages', { includeDeleted: true }) +
          store.items.count('pl', 'media', { includeDeleted: true }),
      );
    } finally {
      store.close();
    }
    await pull(settings);
    store = openStore(temp.file, { readonly: true });
    try {
      await expectItemsEqual(store, site, ['pl'], 'edit');
      // What the cache held is kept as a tombstone; what it never saw is not made up.
      expectTombstone(store, 'pl', 'posts', bulk[50]!);
      const unseen = store.items.get('pl', 'posts', bulk[200]!);
      expect(unseen === undefined || unseen.deletedAt !== null, 'never live').toBe(true);
    } finally {
      store.close();
    }
  });
});

describe('pull switching between anonymous and credentialed access', () => {
  const fixture = useSiteAndCache();

  it('re-crawls in the new context: edit adds drafts and raw fields, view tombstones them again', async () => {
    const { site, temp } = fixture;
    await pull(settingsFor(site, temp.file, { languages: ['pl'], auth: false }));
    const edit = await pull(settingsFor(site, temp.file, { languages: ['pl'] }));
    expect(edit.total.created).toBeGreaterThan(0); // drafts, private, trash
    let store = openStore(temp.file, { readonly: true });
    try {
      await expectItemsEqual(store, site, ['pl'], 'edit');
    } finally {
      store.close();
    }
    const view = await pull(settingsFor(site, temp.file, { languages: ['pl'], auth: false }));
    expect(view.total.deleted).toBe(edit.total.created);
    store = openStore(temp.file, { readonly: true });
    try {
      await expectItemsEqual(store, site, ['pl'], 'view');
    } finally {
      store.close();
    }
  });
});
