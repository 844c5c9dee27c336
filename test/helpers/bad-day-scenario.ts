import { join } from 'node:path';
import { expect } from 'vitest';
import { credentialEnv, unpacedPipeline } from './cli-args.js';
import type { ItemType } from '../../src/store/index.js';
import { callApi, type Json, type ReferenceSite } from './reference.js';
import { servedItems } from './reliability-compare.js';
import { records, type SiteRecord } from './restore-site.js';
import { runCliCaptured } from './run-cli.js';

/**
 * The bad day of issue 16, against the reference site over real HTTP: a backup pull with
 * credentials, a snapshot, then on the site one post deleted for good with its featured image
 * (its own, also deleted for good), another post trashed and five posts bulk-edited through the
 * batch route (title, content and excerpt; one also its slug, one also its status), and a
 * second backup pull. Before the first pull one more post is made to link to the deleted post
 * (its address and its short link `?p=ID`) and to show its image (file URLs, block id and
 * class), so restore has links and files to move. What was done is recorded from the site's
 * own answers (edit context) and records, never from src/ rules, so tests of diff and restore
 * can use it as their oracle (`expectRestored` below).
 *
 *   const day = await badDay(fixture.site, fixture.temp.dir);
 *   await runCliCaptured(['diff', ...day.args, '--snapshot', day.snapshot], { env: day.env });
 */
export interface BadDay {
  readonly site: ReferenceSite;
  readonly lang: string;
  /** The backup cache, pulled before and after the changes. */
  readonly cache: string;
  /** `backup --to` of the cache, made before the changes. */
  readonly snapshot: string;
  /** An ISO 8601 UTC time after the snapshot and before the first change. */
  readonly before: string;
  /** `--pipeline P --site URL --lang L --cache C`, for any command on the cache. */
  readonly args: readonly string[];
  /** The environment with the site's credentials. */
  readonly env: NodeJS.ProcessEnv;
  /** The post deleted for good and its featured image (also deleted), as they were. */
  readonly deleted: {
    readonly post: Json;
    readonly media: Json;
    /** Posts and pages whose content linked to the deleted post (by its URL) before. */
    readonly linkedFrom: readonly number[];
    /** The post the scenario made link to it (address and short link) and show its image. */
    readonly linking: number;
  };
  /** The trashed post as it was. */
  readonly trashed: Json;
  /** The five bulk-edited posts, as they were and as the edit left them, in edit order. */
  readonly edited: readonly { readonly before: Json; readonly after: Json }[];
  /** The edited post whose slug the bulk edit also changed. */
  readonly slugChanged: number;
  /** The edited post whose status the bulk edit also changed (publish → draft). */
  readonly statusChanged: number;
  /** The site's records before the changes (from its control hooks): posts, pages, media ids. */
  readonly was: {
    readonly posts: ReadonlyMap<number, SiteRecord>;
    readonly pages: ReadonlyMap<number, SiteRecord>;
    readonly mediaIds: ReadonlySet<number>;
  };
}

const sleep = (ms: number): Promise<void> => new Promise((done) => setTimeout(done, ms));

async function ok(site: ReferenceSite, lang: string, path: string, init: Json): Promise<Json> {
  const response = await callApi(site, lang, path, { auth: true, ...init });
  if (response.status >= 300)
    throw new Error(`${init.method ?? 'GET'} ${path}: ${response.status} ${response.text}`);
  return response.body;
}

async function editItem(site: ReferenceSite, lang: string, path: string): Promise<Json> {
  return ok(site, lang, path, { query: { context: 'edit' } });
}

/** Every item of a collection the admin sees, in id order (the oracle's own listing). */
async function everything(site: ReferenceSite, lang: string, type: ItemType): Promise<Json[]> {
  return [...(await servedItems(site, lang, type, 'edit')).values()];
}

/** Ids of the items whose raw content contains `link` (the path part is enough). */
function linking(items: readonly Json[], link: string): number[] {
  const path = new URL(link).pathname;
  return items.filter((item) => String(item.content?.raw ?? '').includes(path)).map((i) => i.id);
}

interface Choice {
  victim: Json;
  linkedFrom: number[];
  trashed: Json;
  edited: Json[];
  linking: Json;
}

/**
 * The victim is the public post most linked from other content (restore must relink it);
 * trashed and edited posts are the next public ones by id. None has media attached to it
 * (deleting it would move them up a level, unseen by a pull: modified does not change).
 */
async function choose(site: ReferenceSite, lang: string): Promise<Choice> {
  const posts = await everything(site, lang, 'posts');
  const all = [...posts, ...(await everything(site, lang, 'pages'))];
  const parents = new Set((await everything(site, lang, 'media')).map((media) => media.post));
  const open = posts.filter(
    (post) => post.status === 'publish' && post.password === '' && !parents.has(post.id),
  );
  const ranked = open
    .map((post) => ({ post, from: linking(all, post.link).filter((id) => id !== post.id) }))
    .sort((x, y) => y.from.length - x.from.length || x.post.id - y.post.id);
  const victim = ranked[0]!;
  const rest = open.filter((post) => post.id !== victim.post.id);
  if (rest.length < 7 || victim.from.length === 0)
    throw new Error('the reference site has too few public, linked posts for the bad day');
  return {
    victim: victim.post,
    linkedFrom: victim.from,
    trashed: rest[0],
    edited: rest.slice(1, 6),
    linking: rest[6],
  };
}

/**
 * Gives the victim a featured image of its own (attached to it), before anything is pulled:
 * deleting a shared image would change other posts too.
 */
async function ownImage(site: ReferenceSite, lang: string, victim: number): Promise<void> {
  const [image] = site.control.createItems(lang, 'media', 1, { parent: victim });
  await ok(site, lang, `/cms/v2/posts/${victim}`, {
    method: 'POST',
    body: { featured_media: image!.id },
  });
}

/**
 * Makes `linking` link to the post (address and short link) and show its image (the block a
 * site's editor writes: block id, class and file URLs), through the site's control hook.
 */
function linkTo(site: ReferenceSite, lang: string, linking: number, post: Json, media: Json) {
  const sizes = Object.values((media.media_details?.sizes ?? {}) as Record<string, Json>);
  const srcset = sizes.map((size) => `${size.source_url} ${size.width}w`).join(', ');
  const content =
    `<p>See <a href="${post.link}">the post</a> and <a href="${site.url}/${lang}/?p=${post.id}">its short link</a>.</p>\n` +
    `<!-- cms:image {"id":${media.id},"sizeSlug":"full"} -->\n` +
    `<figure class="cms-block-image"><img src="${media.source_url}" class="cms-image-${media.id}" srcset="${srcset}" /></figure>\n` +
    `<!-- /cms:image -->`;
  site.control.updateItem(lang, 'posts', linking, { content });
}

async function cli(env: NodeJS.ProcessEnv, argv: string[]): Promise<void> {
  const result = await runCliCaptured(argv, { env });
  if (result.code !== 0)
    throw new Error(`${argv.join(' ')}: exit ${result.code}: ${result.stderr}`);
}

/** The bulk edit: five posts through one batch request, as an admin's bulk action sends them. */
async function bulkEdit(
  site: ReferenceSite,
  lang: string,
  posts: readonly Json[],
): Promise<Json[]> {
  const requests = posts.map((post, n) => ({
    method: 'POST',
    path: `/cms/v2/posts/${post.id}`,
    body: {
      title: `Bulk edited ${post.id}`,
      content: `<!-- cms:paragraph -->\n<p>Rewritten by the bulk edit of ${post.id}.</p>\n<!-- /cms:paragraph -->`,
      excerpt: `Excerpt of the bulk edit of ${post.id}.`,
      ...(n === 3 ? { slug: `bulk-edited-${post.id}` } : {}),
      ...(n === 4 ? { status: 'draft' } : {}),
    },
  }));
  const answer = await ok(site, lang, '/batch/v1', { method: 'POST', body: { requests } });
  const statuses = answer.responses.map((response: Json) => response?.status);
  if (statuses.some((status: number) => status !== 200))
    throw new Error(`bulk edit: ${JSON.stringify(answer)}`);
  return Promise.all(posts.map((post) => editItem(site, lang, `/cms/v2/posts/${post.id}`)));
}

/** Runs `argv` on the day's cache with its credentials (`restore …`, `pull …`): its result. */
export function onCache(day: BadDay, command: string, argv: readonly string[] = []) {
  return runCliCaptured([command, ...day.args, ...argv], { env: day.env });
}

/** Runs the bad day on `site` (language `lang`), with the cache and snapshot in `dir`. */
export async function badDay(site: ReferenceSite, dir: string, lang = 'pl'): Promise<BadDay> {
  const cache = join(dir, 'cache.sqlite');
  const snapshot = join(dir, 'snapshot.sqlite');
  const args = ['--pipeline', unpacedPipeline(dir), '--site', site.url, '--lang', lang];
  const env = credentialEnv(site);
  const chosen = await choose(site, lang);
  await ownImage(site, lang, chosen.victim.id);
  const post = await editItem(site, lang, `/cms/v2/posts/${chosen.victim.id}`);
  const media = await editItem(site, lang, `/cms/v2/media/${post.featured_media}`);
  linkTo(site, lang, chosen.linking.id, post, media);
  const linkedFrom = [...new Set([...chosen.linkedFrom, chosen.linking.id])];

  await cli(env, ['pull', ...args, '--cache', cache, '--backup', '--json']);
  await cli(env, ['backup', '--cache', cache, '--to', snapshot]);
  const was = {
    posts: records(site, 'posts', lang),
    pages: records(site, 'pages', lang),
    mediaIds: new Set(site.control.listItems(lang, 'media').map((item) => item.id)),
  };
  // Past the second of the pull: site dates have whole seconds.
  await sleep(1100);
  const before = new Date().toISOString();
  await sleep(1100);

  await ok(site, lang, `/cms/v2/posts/${post.id}`, { method: 'DELETE', query: { force: true } });
  await ok(site, lang, `/cms/v2/media/${media.id}`, { method: 'DELETE', query: { force: true } });
  const trashed = await editItem(site, lang, `/cms/v2/posts/${chosen.trashed.id}`);
  await ok(site, lang, `/cms/v2/posts/${trashed.id}`, { method: 'DELETE' });
  const edits = await bulkEdit(site, lang, chosen.edited);
  await cli(env, ['pull', ...args, '--cache', cache, '--backup', '--json']);

  return {
    site,
    lang,
    cache,
    snapshot,
    before,
    args: [...args, '--cache', cache],
    env,
    deleted: { post, media, linkedFrom, linking: chosen.linking.id },
    trashed,
    edited: chosen.edited.map((was, n) => ({ before: was, after: edits[n] })),
    slugChanged: chosen.edited[3].id,
    statusChanged: chosen.edited[4].id,
    was,
  };
}

/**
 * The site holds what it held before the bad day: every post's title, content, status, slug,
 * parent and featured image (the deleted post and image under new ids, each exactly once),
 * every page as it was, and links to the deleted post and image moved to the new ones.
 */
export async function expectRestored(day: BadDay): Promise<void> {
  const { site, lang, was } = day;
  const { post: oldPost, media: oldImage } = day.deleted;
  const newPosts = [...records(site, 'posts', lang).values()].filter((i) => !was.posts.has(i.id));
  const newImages = site.control.listItems(lang, 'media').filter((i) => !was.mediaIds.has(i.id));
  expect(newPosts.map((item) => item.title)).toEqual([was.posts.get(oldPost.id)!.title]);
  expect(newImages).toHaveLength(1);
  const newPost = await editItem(site, lang, `/cms/v2/posts/${newPosts[0]!.id}`);
  const newImage = await editItem(site, lang, `/cms/v2/media/${newImages[0]!.id}`);
  const files = filePairs(oldImage, newImage);
  const [image, deleted] = [oldImage.id as number, oldPost.id as number];
  const expectedOf = (item: SiteRecord): SiteRecord => ({
    ...item,
    featuredMedia: item.featuredMedia === image ? newImage.id : item.featuredMedia,
    content: files
      .reduce((text, [from, to]) => text.split(from).join(to), item.content)
      .split(`href="${oldPost.link}"`)
      .join(`href="${newPost.link}"`)
      .split(`?p=${deleted}"`)
      .join(`?p=${newPost.id}"`)
      .split(`{"id":${image},`)
      .join(`{"id":${newImage.id},`)
      .replace(new RegExp(`cms-image-${image}\\b`, 'g'), `cms-image-${newImage.id}`),
  });
  const now = records(site, 'posts', lang);
  for (const item of was.posts.values()) {
    const id = item.id === deleted ? newPost.id : item.id;
    expect({ ...now.get(id)!, id: item.id }, `post ${item.id}`).toEqual(expectedOf(item));
  }
  expect(now.size).toBe(was.posts.size);
  expect(records(site, 'pages', lang)).toEqual(was.pages);
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
