import { describe, expect, it } from 'vitest';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import {
  cli,
  commonArgs,
  deleteForGood,
  pullBackup,
  sleep,
  writesLogged,
} from '../../helpers/restore-site.js';

/**
 * A page deleted for good with its featured image, against the reference site over HTTP with
 * a real cache file: the site moves its child pages up a level (to its own parent) and clears
 * the image from every item that featured it, without changing their `modified` (as deployed
 * servers do). `restore --deleted-since` creates the page and the image again and puts the
 * children back under the new page and the new image back as featured image, both on the page
 * and on another page that featured it. The oracle is the site's records (control hooks).
 */
describe('restore of a page deleted for good', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-restore-page-');

  it('creates it again, moves its children back under the new id and re-links its image', async () => {
    const { site, temp } = fixture;
    const page = (id: number) => site.control.getItem('pl', 'pages', id)!;
    const [top] = site.control.createItems('pl', 'pages', 1, { title: 'Top page' });
    const [gone] = site.control.createItems('pl', 'pages', 1, {
      title: 'Page deleted by mistake',
      slug: 'deleted-by-mistake',
      parent: top!.id,
    });
    const [image] = site.control.createItems('pl', 'media', 1, {
      title: 'Its own image',
      parent: gone!.id,
    });
    site.control.updateItem('pl', 'pages', gone!.id, { featuredMedia: image!.id });
    const children = site.control.createItems('pl', 'pages', 2, { parent: gone!.id });
    const [sharing] = site.control.createItems('pl', 'pages', 1, { featuredMedia: image!.id });
    const childIds = children.map((child) => child.id);
    // Older than the pulls' overlap window, as on a real site: the second pull does not fetch
    // it again, so the cache keeps the featured image the site cleared.
    site.control.setModified('pl', 'pages', [sharing!.id], new Date(Date.now() - 3_600_000));
    const was = page(gone!.id);
    const mediaBefore = new Set(site.control.listItems('pl', 'media').map((item) => item.id));
    const pagesBefore = new Set(site.control.listItems('pl', 'pages').map((item) => item.id));

    await pullBackup(site, temp);
    await sleep(1100);
    const since = new Date().toISOString();
    await sleep(1100);
    await deleteForGood(site, 'pages', gone!.id);
    await deleteForGood(site, 'media', image!.id);
    // What the site did on its own: children up a level, the image featured by no one.
    expect(childIds.map((id) => page(id).parent)).toEqual([top!.id, top!.id]);
    expect(page(sharing!.id).featuredMedia).toBe(0);
    await pullBackup(site, temp);

    const args = commonArgs(site, temp);
    const restored = await cli(site, ['restore', ...args, '--deleted-since', since, '--json']);
    expect(restored.code, restored.stderr).toBe(0);

    const newPages = site.control.listItems('pl', 'pages').filter((p) => !pagesBefore.has(p.id));
    const newMedia = site.control.listItems('pl', 'media').filter((m) => !mediaBefore.has(m.id));
    expect(newPages.map((p) => p.title)).toEqual([was.title]);
    expect(newMedia.map((m) => m.title)).toEqual(['Its own image']);
    const again = newPages[0]!;
    const newImage = newMedia[0]!.id;
    expect(again.id).not.toBe(gone!.id);
    expect([again.slug, again.status, again.parent, again.content]).toEqual([
      was.slug,
      was.status,
      top!.id,
      was.content,
    ]);
    expect(again.featuredMedia).toBe(newImage);
    expect(childIds.map((id) => page(id).parent)).toEqual([again.id, again.id]);
    expect(page(sharing!.id).featuredMedia).toBe(newImage);

    // Done once: a second run sends nothing.
    site.control.clearLog();
    const second = await cli(site, ['restore', ...args, '--deleted-since', since, '--json']);
    expect(second.code, second.stderr).toBe(0);
    expect(writesLogged(site)).toEqual([]);
  }, 120_000);
});
