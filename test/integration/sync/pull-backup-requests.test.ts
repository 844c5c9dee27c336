import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { pull } from '../../../src/sync/index.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { expectRevisionsEqual, remoteItems, settingsFor } from '../../helpers/mirror-check.js';

/**
 * A first backup asks for revisions and autosaves only of items whose
 * `_links["version-history"][0].count` says they have some (observed-behaviour.md); a server
 * that leaves the count out gets both lists asked for every item, as before.
 */
async function itemsOnSite(
  site: Parameters<typeof remoteItems>[0],
): Promise<{ total: number; parents: number }> {
  let total = 0;
  let parents = 0;
  for (const type of ['posts', 'pages', 'media'] as const) {
    const size = (await remoteItems(site, 'pl', type, 'edit')).size;
    total += size;
    if (type !== 'media') parents += size;
  }
  return { total, parents };
}

describe('first backup on a site where most items have no revisions', () => {
  const fixture = useSiteAndCache({ languages: ['pl'], posts: 300 });

  it('costs at most 1.1 requests per item, and every revision is still there', async () => {
    const { site, temp } = fixture;
    const summary = await pull(settingsFor(site, temp.file, { languages: ['pl'], backup: true }));
    expect(summary.status).toBe('ok');
    const sent = site.requests.filter((r) => r.lang === 'pl').length;
    const { total } = await itemsOnSite(site);
    expect(total).toBeGreaterThan(300);
    expect(sent / total).toBeLessThanOrEqual(1.1);
    const store = openStore(temp.file, { readonly: true });
    try {
      expect(await expectRevisionsEqual(store, site, ['pl'])).toBeGreaterThan(0);
      expect(store.revisions.count('pl')).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });
});

describe('first backup on a server that does not send the revision count', () => {
  const fixture = useSiteAndCache({ languages: ['pl'], posts: 40, versionCounts: false });

  it('asks every post and page for its revisions and autosaves, and stores them all', async () => {
    const { site, temp } = fixture;
    const summary = await pull(settingsFor(site, temp.file, { languages: ['pl'], backup: true }));
    expect(summary.status).toBe('ok');
    const { parents } = await itemsOnSite(site);
    const asked = (suffix: string): number =>
      new Set(
        site.requests.filter((r) => r.lang === 'pl' && r.path.endsWith(suffix)).map((r) => r.path),
      ).size;
    expect(asked('/revisions')).toBe(parents);
    expect(asked('/autosaves')).toBe(parents);
    const store = openStore(temp.file, { readonly: true });
    try {
      expect(await expectRevisionsEqual(store, site, ['pl'])).toBeGreaterThan(0);
    } finally {
      store.close();
    }
  });
});
