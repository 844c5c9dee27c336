import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import type { Json } from '../../helpers/reference.js';
import {
  cli,
  commonArgs,
  deleteForGood,
  itemJson,
  linkOf,
  publishedPosts,
  pullBackup,
  records,
  sleep,
  trash,
  writesLogged,
  type SiteRecord,
} from '../../helpers/restore-site.js';

/**
 * The bad day of the issue, end to end against the reference site over HTTP with real cache
 * files: a backup pull and a snapshot; then on the site one post deleted for good with its
 * featured image, another trashed, five bulk-edited; a pull; `restore --as-of` a time before
 * the changes; a pull. The oracle is the site's own records taken before the changes.
 */
/** The old file's URLs (the full file and each size) and the new file's of the same size. */
function filePairs(old: Json, now: Json): [string, string][] {
  const sizes = (json: Json): Record<string, { source_url: string }> =>
    (json.media_details?.sizes ?? {}) as Record<string, { source_url: string }>;
  const pairs: [string, string][] = Object.entries(sizes(old)).map(([name, size]) => [
    size.source_url,
    sizes(now)[name]?.source_url ?? (now.source_url as string),
  ]);
  pairs.push([old.source_url as string, now.source_url as string]);
  return pairs.sort((a, b) => b[0].length - a[0].length);
}

describe('cms-mirror restore --as-of', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-restore-');

  it('puts the site back as it was (new ids aside, links included); a second run sends no writes', async () => {
    const { site, temp } = fixture;
    const args = commonArgs(site, temp);
    const [deleted, trashed, linking, ...rest] = publishedPosts(site).filter(
      (id) => site.control.getItem('pl', 'posts', id)!.featuredMedia !== 0,
    ) as [number, number, number, ...number[]];
    const edited = rest.slice(0, 5);
    expect(edited).toHaveLength(5);
    const image = site.control.getItem('pl', 'posts', deleted)!.featuredMedia;
    const oldLink = await linkOf(site, 'posts', deleted);
    const linkingContent = `<p>See <a href="${oldLink}">the post</a> and <a href="${site.url}/pl/?p=${deleted}">its short link</a>.</p>`;
    site.control.updateItem('pl', 'posts', linking, { content: linkingContent });

    await pullBackup(site, temp);
    const snapshot = join(temp.dir, 'before.sqlite');
    expect((await cli(site, ['backup', '--cache', temp.file, '--to', snapshot])).code).toBe(0);
    const posts = records(site, 'posts');
    const pages = records(site, 'pages');
    const mediaIds = new Set(site.control.listItems('pl', 'media').map((item) => item.id));
    await sleep(1100);
    const before = new Date().toISOString();
    await sleep(1100);

    const oldImage = await itemJson(site, 'media', image);
    await deleteForGood(site, 'media', image);
    await deleteForGood(site, 'posts', deleted);
    await trash(site, 'posts', trashed);
    for (const id of edited) {
      site.control.updateItem('pl', 'posts', id, {
        title: `Bulk edited ${id}`,
        content: `<p>Rewritten by the bulk edit of ${id}.</p>`,
        slug: `bulk-${id}`,
      });
    }
    await pullBackup(site, temp);

    const restored = await cli(site, ['restore', ...args, '--as-of', before, '--json']);
    expect(restored.code, restored.stderr).toBe(0);
    await pullBackup(site, temp);

    // The re-created post and image: on the site now, not before.
    const newPost = [...records(site, 'posts').values()].find(
      (item) => !posts.has(item.id) && item.title === posts.get(deleted)!.title,
    );
    const newImage = site.control.listItems('pl', 'media').find((item) => !mediaIds.has(item.id));
    expect(newPost).toBeDefined();
    expect(newImage).toBeDefined();
    const newLink = await linkOf(site, 'posts', newPost!.id);
    // The image is uploaded again: content showing it shows the new one (its id and files).
    const files = filePairs(oldImage, await itemJson(site, 'media', newImage!.id));
    const expectedOf = (item: SiteRecord): SiteRecord => ({
      ...item,
      featuredMedia: item.featuredMedia === image ? newImage!.id : item.featuredMedia,
      content: files
        .reduce((text, [from, to]) => text.split(from).join(to), item.content)
        .split(`href="${oldLink}"`)
        .join(`href="${newLink}"`)
        .split(`?p=${deleted}"`)
        .join(`?p=${newPost!.id}"`)
        .split(`{"id":${image},`)
        .join(`{"id":${newImage!.id},`)
        .replace(new RegExp(`cms-image-${image}\\b`, 'g'), `cms-image-${newImage!.id}`),
    });
    const now = records(site, 'posts');
    for (const item of posts.values()) {
      const id = item.id === deleted ? newPost!.id : item.id;
      expect({ ...now.get(id)!, id: item.id }, `post ${item.id}`).toEqual(expectedOf(item));
    }
    expect(now.size).toBe(posts.size);
    expect(records(site, 'pages')).toEqual(pages);
    expect(now.get(linking)!.content).toContain(`?p=${newPost!.id}"`);

    // Again: nothing left to send.
    site.control.clearLog();
    const again = await cli(site, ['restore', ...args, '--as-of', before, '--json']);
    expect(again.code, again.stderr).toBe(0);
    expect(writesLogged(site)).toEqual([]);
    const second = JSON.parse(again.stdout);
    expect(second.counts.writes).toBe(0);
    // Found through the recorded mapping, not searched for again as after a crash.
    expect(second.languages.pl.done).toEqual([]);
  }, 240_000);
});
