import { join } from 'node:path';
import { expect } from 'vitest';
import type { Json, ReferenceSite } from './reference.js';
import {
  cli,
  deleteForGood,
  itemJson,
  linkOf,
  publishedPosts,
  pullBackup,
  records,
  sleep,
  trash,
  type SiteRecord,
} from './restore-site.js';
import type { TempCache } from './temp-cache.js';

/**
 * The bad day of issue 16 on the reference site: a backup pull and a snapshot; then one post
 * deleted for good with its featured image (shared by other posts and shown in content),
 * another trashed, five bulk-edited (title, content, slug); a backup pull. One more post links
 * to the deleted one (address and short link). The oracle is the site's records before.
 */
export interface BadDay {
  /** A time between the snapshot and the changes (ISO 8601 UTC). */
  readonly before: string;
  readonly snapshot: string;
  readonly deleted: number;
  readonly trashed: number;
  readonly edited: readonly number[];
  readonly image: number;
  readonly oldImage: Json;
  readonly oldLink: string;
  readonly posts: ReadonlyMap<number, SiteRecord>;
  readonly pages: ReadonlyMap<number, SiteRecord>;
  readonly mediaIds: ReadonlySet<number>;
}

export async function badDay(site: ReferenceSite, temp: TempCache): Promise<BadDay> {
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
  return {
    before,
    snapshot,
    deleted,
    trashed,
    edited,
    image,
    oldImage,
    oldLink,
    posts,
    pages,
    mediaIds,
  };
}

/**
 * The site holds what it held before the bad day: every post's title, content, status, slug,
 * parent and featured image (the deleted post and image under new ids, each exactly once),
 * every page as it was, and links to the deleted post and image moved to the new ones.
 */
export async function expectRestored(site: ReferenceSite, day: BadDay): Promise<void> {
  const { deleted, image, oldLink, posts } = day;
  const newPosts = [...records(site, 'posts').values()].filter((item) => !posts.has(item.id));
  const newImages = site.control
    .listItems('pl', 'media')
    .filter((item) => !day.mediaIds.has(item.id));
  expect(newPosts.map((item) => item.title)).toEqual([posts.get(deleted)!.title]);
  expect(newImages).toHaveLength(1);
  const [newPost] = newPosts as [SiteRecord];
  const newImage = newImages[0]!;
  const newLink = await linkOf(site, 'posts', newPost.id);
  const files = filePairs(day.oldImage, await itemJson(site, 'media', newImage.id));
  const expectedOf = (item: SiteRecord): SiteRecord => ({
    ...item,
    featuredMedia: item.featuredMedia === image ? newImage.id : item.featuredMedia,
    content: files
      .reduce((text, [from, to]) => text.split(from).join(to), item.content)
      .split(`href="${oldLink}"`)
      .join(`href="${newLink}"`)
      .split(`?p=${deleted}"`)
      .join(`?p=${newPost.id}"`)
      .split(`{"id":${image},`)
      .join(`{"id":${newImage.id},`)
      .replace(new RegExp(`cms-image-${image}\\b`, 'g'), `cms-image-${newImage.id}`),
  });
  const now = records(site, 'posts');
  for (const item of posts.values()) {
    const id = item.id === deleted ? newPost.id : item.id;
    expect({ ...now.get(id)!, id: item.id }, `post ${item.id}`).toEqual(expectedOf(item));
  }
  expect(now.size).toBe(posts.size);
  expect(records(site, 'pages')).toEqual(day.pages);
}

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
