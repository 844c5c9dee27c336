import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { pull } from '../../../src/sync/index.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { getJson } from '../../helpers/reference.js';
import { remoteItems, settingsFor } from '../../helpers/mirror-check.js';

/**
 * A page's link holds its ancestors' slugs: moving a page changes its descendants' links
 * while their `modified_gmt` stays, so the incremental pull must refetch them by parent.
 */
describe('pull after a parent page moves', () => {
  const fixture = useSiteAndCache();

  /** A published page with a published child and grandchild: from the seed, else created. */
  function family(lang: string): { top: number; child: number; grandchild: number } {
    const { site } = fixture;
    const pages = site.control.listItems(lang, 'pages').filter((p) => p.status === 'publish');
    const byId = new Map(pages.map((p) => [p.id, p]));
    for (const grandchild of pages) {
      const child = byId.get(grandchild.parent);
      const top = child === undefined ? undefined : byId.get(child.parent);
      if (child !== undefined && top !== undefined) {
        return { top: top.id, child: child.id, grandchild: grandchild.id };
      }
    }
    const top = site.control.createItems(lang, 'pages', 1)[0]!.id;
    const child = site.control.createItems(lang, 'pages', 1, { parent: top })[0]!.id;
    const grandchild = site.control.createItems(lang, 'pages', 1, { parent: child })[0]!.id;
    return { top, child, grandchild };
  }

  async function siteLink(lang: string, id: number): Promise<string> {
    return (await getJson(fixture.site, lang, `/cms/v2/pages/${id}`)).body.link as string;
  }

  for (const auth of [true, false]) {
    it(`${auth ? 'with credentials' : 'anonymously'}: the descendants' cached links follow a new parent slug`, async () => {
      const { site, temp } = fixture;
      const settings = settingsFor(site, temp.file, { languages: ['pl'], auth });
      const ids = family('pl');
      await pull(settings);
      const oldChildLink = await siteLink('pl', ids.child);
      const mode = auth ? 'edit' : 'view';
      const linksBefore = await remoteItems(site, 'pl', 'pages', mode);

      site.control.updateItem('pl', 'pages', ids.top, { slug: 'moved-parent' });
      const childLink = await siteLink('pl', ids.child);
      const grandchildLink = await siteLink('pl', ids.grandchild);
      expect(childLink).not.toBe(oldChildLink);
      expect(childLink).toContain('/moved-parent/');
      expect(grandchildLink).toContain('/moved-parent/');
      // Every page whose link the move changed (the seed's family may be wider than three).
      const moved = [...(await remoteItems(site, 'pl', 'pages', mode))].filter(
        ([id, page]) => linksBefore.get(id)?.link !== page.link,
      );
      expect(moved.length).toBeGreaterThanOrEqual(3);

      site.control.clearLog();
      const summary = await pull(settings);
      // The moved page and its descendants; nothing else.
      expect(summary.languages['pl']).toMatchObject({
        created: 0,
        updated: moved.length,
        deleted: 0,
      });
      expect(
        site.requests.filter((r) => r.path === '/cms/v2/pages' && r.query['parent[]'] !== undefined)
          .length,
      ).toBeGreaterThan(0);
      const store = openStore(temp.file, { readonly: true });
      try {
        expect(store.items.get('pl', 'pages', ids.top)?.link).toBe(await siteLink('pl', ids.top));
        expect(store.items.get('pl', 'pages', ids.child)?.link).toBe(childLink);
        expect(store.items.get('pl', 'pages', ids.grandchild)?.link).toBe(grandchildLink);
        for (const [id, page] of moved)
          expect(store.items.get('pl', 'pages', id)?.link).toBe(page.link);
      } finally {
        store.close();
      }

      // Nothing moved since: no children requests.
      site.control.clearLog();
      const again = await pull(settings);
      expect(again.languages['pl']).toMatchObject({ created: 0, updated: 0, deleted: 0 });
      expect(site.requests.filter((r) => r.query['parent[]'] !== undefined)).toEqual([]);
    });
  }
});
