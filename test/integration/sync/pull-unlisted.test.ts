import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { pull, verify, type PullEvent } from '../../../src/sync/index.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { getJson } from '../../helpers/reference.js';
import { settingsFor } from '../../helpers/mirror-check.js';

/**
 * A site whose media total counts items an anonymous reader cannot list (media attached to a
 * draft): X-CMS-Total and the cache differ on a healthy site, and equal counts do not prove
 * that nothing was deleted (observed-behaviour.md, Collections).
 */
describe('pull of a site that counts items the reader cannot list', () => {
  const fixture = useSiteAndCache({ attachmentsFollowParent: true, languages: ['pl'] });

  function settings(fullSweepEvery?: number) {
    const base = settingsFor(fixture.site, fixture.temp.file, { languages: ['pl'], auth: false });
    return fullSweepEvery === undefined ? base : { ...base, pull: { fullSweepEvery } };
  }

  /** Ids the site lists to an anonymous reader and its X-CMS-Total, read over HTTP. */
  async function anonymousMedia(): Promise<{ listed: number[]; total: number }> {
    const response = await getJson(fixture.site, 'pl', '/cms/v2/media', {
      query: { per_page: 100 },
    });
    expect(response.status).toBe(200);
    return {
      listed: (response.body as { id: number }[]).map((item) => item.id).sort((a, b) => a - b),
      total: Number(response.headers.get('x-cms-total')),
    };
  }

  function liveMedia(): number[] {
    const store = openStore(fixture.temp.file, { readonly: true });
    try {
      return store.items
        .listIds('pl', 'media')
        .map((row) => row.id)
        .sort((a, b) => a - b);
    } finally {
      store.close();
    }
  }

  it('tombstones a listed item deleted for good, agrees with verify, and a no-op pull stays cheap', async () => {
    const { site } = fixture;
    const before = await anonymousMedia();
    expect(before.total).toBeGreaterThan(before.listed.length); // the site really has a gap
    const warnings: string[] = [];
    const onProgress = (event: PullEvent): void => {
      if (event.type === 'warning') warnings.push(event.message);
    };
    await pull(settings(), { onProgress });
    expect(liveMedia()).toEqual(before.listed);
    expect(warnings).toEqual([]);

    // A no-op pull: no rescan, no warning, at most 3 requests per collection after the index.
    site.control.clearLog();
    await pull(settings(), { onProgress });
    expect(warnings).toEqual([]);
    const requests = site.requests.filter((r) => r.lang === 'pl' && r.path !== '/');
    const media = requests.filter((r) => r.path.startsWith('/cms/v2/media'));
    expect(media.length).toBeLessThanOrEqual(3);
    expect(requests.filter((r) => r.path.startsWith('/cms/v2/')).length).toBeLessThanOrEqual(9);

    // Delete a listed media item for good.
    const victim = before.listed[0] as number;
    site.control.deleteItem('pl', 'media', victim);
    const after = await anonymousMedia();
    expect(after.listed).not.toContain(victim);
    const summary = await pull(settings(), { onProgress });
    expect(summary.languages['pl']?.deleted).toBe(1);
    expect(liveMedia()).toEqual(after.listed);
    expect(warnings).toEqual([]);

    const report = await verify(settings());
    expect(report.differences).toEqual([]);
    expect(report.ok).toBe(true);

    // And quiet again afterwards.
    site.control.clearLog();
    await pull(settings(), { onProgress });
    expect(warnings).toEqual([]);
    expect(
      site.requests.filter((r) => r.lang === 'pl' && r.path.startsWith('/cms/v2/media')).length,
    ).toBeLessThanOrEqual(3);
  });

  it('a deletion hidden by a newly unlisted item is found by the periodic full sweep', async () => {
    const { site } = fixture;
    await pull(settings(3));
    const before = await anonymousMedia();
    // One listed media item deleted for good, and a new one attached to a draft: the total
    // does not move, so counts alone cannot see the deletion.
    const victim = before.listed[0] as number;
    site.control.deleteItem('pl', 'media', victim);
    const draft = site.control.listItems('pl', 'posts').find((item) => item.status === 'draft');
    expect(draft).toBeDefined();
    site.control.createItems('pl', 'media', 1, { parent: draft!.id });
    const after = await anonymousMedia();
    expect(after.total).toBe(before.total);
    // verify always compares ids: it sees the difference right away.
    const report = await verify(settings(3));
    expect(report.ok).toBe(false);
    expect(report.differences).toContainEqual(
      expect.objectContaining({ collection: 'media', id: victim, kind: 'extra' }),
    );
    // The first two pulls after the full listing: counts agree, the deletion stays unseen.
    for (let i = 0; i < 2; i++) {
      await pull(settings(3));
      expect(liveMedia()).toContain(victim);
    }
    await pull(settings(3)); // the third after the full listing: another full listing
    expect(liveMedia()).toEqual(after.listed);
    expect((await verify(settings(3))).ok).toBe(true);
  });
});
