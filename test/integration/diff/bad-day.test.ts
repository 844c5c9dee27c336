import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { badDay } from '../../helpers/bad-day-scenario.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { getJson } from '../../helpers/reference.js';

/**
 * The bad day (test/helpers/bad-day-scenario.ts) against the reference site: the helper does
 * on the site what it says (checked through the site's routes and records), and the snapshot
 * and the cache hold the states before and after.
 */
describe('the bad-day scenario', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-bad-day-');

  it('deletes a post and its image for good, trashes one, bulk-edits five; snapshot before, cache after', async () => {
    const { site, temp } = fixture;
    const day = await badDay(site, temp.dir);
    const { post, media } = day.deleted;
    expect(post.featured_media).toBe(media.id);
    expect(day.deleted.linkedFrom.length).toBeGreaterThan(0);
    expect(site.control.getItem('pl', 'posts', post.id)).toBeUndefined();
    expect(site.control.getItem('pl', 'media', media.id)).toBeUndefined();
    expect((await fetch(media.source_url)).status).toBe(404);
    expect(site.control.getItem('pl', 'posts', day.trashed.id)?.status).toBe('trash');
    expect(day.trashed.status).toBe('publish');

    expect(day.edited).toHaveLength(5);
    const ids = new Set([post.id, day.trashed.id, ...day.edited.map((edit) => edit.before.id)]);
    expect(ids.size).toBe(7);
    for (const { before, after } of day.edited) {
      const stored = site.control.getItem('pl', 'posts', before.id);
      expect(stored?.title).toBe(`Bulk edited ${before.id}`);
      expect(after.title.raw).toBe(stored?.title);
      expect(before.title.raw).not.toBe(after.title.raw);
      expect(before.excerpt.raw).not.toBe(after.excerpt.raw);
      expect(before.status).toBe('publish');
    }
    const slugEdit = day.edited.find((edit) => edit.before.id === day.slugChanged)!;
    expect(slugEdit.after.slug).toBe(`bulk-edited-${day.slugChanged}`);
    expect(slugEdit.before.slug).not.toBe(slugEdit.after.slug);
    expect(site.control.getItem('pl', 'posts', day.statusChanged)?.status).toBe('draft');
    const publicNow = await getJson(site, 'pl', `/cms/v2/posts/${day.statusChanged}`);
    expect(publicNow.status).toBe(401);
    expect(Date.parse(day.before)).toBeLessThan(Date.now());

    expect(existsSync(day.snapshot)).toBe(true);
    const snapshot = openStore(day.snapshot, { readonly: true });
    const cache = openStore(day.cache, { readonly: true });
    try {
      expect(snapshot.items.get('pl', 'posts', post.id)?.deletedAt).toBeNull();
      expect(snapshot.items.get('pl', 'media', media.id)?.deletedAt).toBeNull();
      // A tombstone, not a missing row: the row is there and carries its deletion time.
      expect(cache.items.get('pl', 'posts', post.id)).toBeDefined();
      expect(cache.items.get('pl', 'posts', post.id)!.deletedAt).toEqual(expect.any(String));
      expect(cache.items.get('pl', 'posts', day.trashed.id)?.status).toBe('trash');
      const firstEdit = day.edited[0]!.before.id as number;
      expect(JSON.parse(cache.items.get('pl', 'posts', firstEdit)!.json).title.raw).toBe(
        `Bulk edited ${firstEdit}`,
      );
      expect(JSON.parse(snapshot.items.get('pl', 'posts', firstEdit)!.json).title.raw).toBe(
        day.edited[0]!.before.title.raw,
      );
    } finally {
      snapshot.close();
      cache.close();
    }
  }, 120_000);
});
