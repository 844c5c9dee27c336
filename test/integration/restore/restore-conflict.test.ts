import { describe, expect, it } from 'vitest';
import { resolveSettings, restore } from '../../../src/index.js';
import { credentialEnv } from '../../helpers/cli-args.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import {
  commonArgs,
  publishedPosts,
  pullBackup,
  sleep,
  writesLogged,
} from '../../helpers/restore-site.js';

/**
 * Restore reads each item right before writing it: an item someone changes on the site after
 * restore planned it is a conflict, reported and not overwritten, unless `force`. The change
 * is made through the site's control hooks while restore waits between its plan and its
 * writes (`onPlanned`); the oracle is the site's record.
 */
describe('restore conflicts', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-restore-conflict-');

  async function bulkEditAndPull(): Promise<{ asOf: string; ids: number[]; titles: string[] }> {
    const { site, temp } = fixture;
    const ids = publishedPosts(site).slice(0, 3);
    const titles = ids.map((id) => site.control.getItem('pl', 'posts', id)!.title);
    await pullBackup(site, temp);
    await sleep(1100);
    const asOf = new Date().toISOString();
    await sleep(1100);
    for (const id of ids) site.control.updateItem('pl', 'posts', id, { title: `Bulk ${id}` });
    await pullBackup(site, temp);
    return { asOf, ids, titles };
  }

  function settings() {
    const { site, temp } = fixture;
    const flags = {
      pipeline: commonArgs(site, temp)[1],
      site: site.url,
      lang: 'pl',
      cache: temp.file,
    };
    return resolveSettings(flags, credentialEnv(site), process.cwd());
  }

  it('reports an item changed on the site after the plan and leaves it; the others are restored', async () => {
    const { site } = fixture;
    const { asOf, ids, titles } = await bulkEditAndPull();
    const [changed, ...others] = ids as [number, ...number[]];
    const report = await restore({
      settings: settings(),
      asOf,
      onPlanned: () => {
        site.control.clearLog();
        site.control.updateItem('pl', 'posts', changed, { title: 'Edited by a person meanwhile' });
      },
    });
    expect(report.conflicts).toBe(1);
    expect(report.languages['pl']!.conflicts.map((c) => c.id)).toEqual([changed]);
    expect(site.control.getItem('pl', 'posts', changed)!.title).toBe(
      'Edited by a person meanwhile',
    );
    expect(others.map((id) => site.control.getItem('pl', 'posts', id)!.title)).toEqual(
      titles.slice(1),
    );
    expect(writesLogged(site).filter((w) => w.includes(`/posts/${changed}`))).toEqual([]);
  }, 120_000);

  it('overwrites such an item with force', async () => {
    const { site } = fixture;
    const { asOf, ids, titles } = await bulkEditAndPull();
    const report = await restore({
      settings: settings(),
      asOf,
      force: true,
      onPlanned: () => {
        site.control.updateItem('pl', 'posts', ids[0]!, { title: 'Edited by a person meanwhile' });
      },
    });
    expect(report.conflicts).toBe(0);
    expect(ids.map((id) => site.control.getItem('pl', 'posts', id)!.title)).toEqual(titles);
  }, 120_000);
});
