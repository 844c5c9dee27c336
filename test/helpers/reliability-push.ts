/**
 * The push scenario of the reliability suite: a pulled, checked-out cache of `pl`, and a
 * fixed set of local edits (title updates, a page body, new items, trashes) written into the
 * checkout files. `expectPushLanded` then checks the site holds exactly those edits, each
 * once: updated titles, one item per create (counted by title over every status, trash
 * included), trashed items in the trash, and nothing else changed.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { expect } from 'vitest';
import { resolveSettings, type Settings } from '../../src/config/settings.js';
import type { HttpSettings } from '../../src/config/pipeline-schema.js';
import { checkout } from '../../src/push/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { pull } from '../../src/sync/index.js';
import { useSiteAndCache, type SiteAndCache } from './mirror-fixture.js';
import type { ReferenceSite } from './reference.js';
import type { TempCache } from './temp-cache.js';
import { credentialEnv } from './cli-args.js';

export interface PushPlan {
  readonly dir: string;
  /** post id → the title written into its file. */
  readonly titles: ReadonlyMap<number, string>;
  /** page id → the body written into its file. */
  readonly bodies: ReadonlyMap<number, string>;
  /** Titles of the new files (each must exist exactly once on the site afterwards). */
  readonly creates: readonly string[];
  readonly trashed: readonly number[];
  /** `modified_gmt` (epoch seconds) of every item before the push, to prove nothing else moved. */
  readonly before: ReadonlyMap<string, number>;
  /** How many posts carried each title before the push. */
  readonly titleCounts: ReadonlyMap<string, number>;
  /** post id → its title before the push. */
  readonly oldTitles: ReadonlyMap<number, string>;
}

export function pushSettings(
  site: ReferenceSite,
  cache: string,
  http: Partial<HttpSettings> = {},
): Settings {
  const settings = resolveSettings({ site: site.url, lang: 'pl', cache }, credentialEnv(site));
  settings.http = { ...settings.http, requestsPerSecond: 0, ...http };
  return settings;
}

function withStore<T>(file: string, fn: (store: Store) => T): T {
  const store = openStore(file);
  try {
    return fn(store);
  } finally {
    store.close();
  }
}

function replaceInFile(file: string, from: RegExp, to: string): void {
  const text = readFileSync(file, 'utf8');
  const next = text.replace(from, to);
  expect(next, `${file} should change`).not.toBe(text);
  writeFileSync(file, next);
}

/** A fresh site of the push scenario (60 posts, `pl` only) and temp cache per test, for every push reliability test. */
export function usePushSite(): SiteAndCache {
  return useSiteAndCache({ posts: 60, languages: ['pl'] }, 'cms-mirror-rel-');
}

/** Pulls `pl` into `temp.file` (no faults) and checks it out into `temp.dir/content`; returns that directory. */
export async function preparePushCache(site: ReferenceSite, temp: TempCache): Promise<string> {
  const dir = path.join(temp.dir, 'content');
  const summary = await pull(pushSettings(site, temp.file));
  expect(summary.status).toBe('ok');
  withStore(temp.file, (store) => checkout({ store, dir, languages: ['pl'] }));
  return dir;
}

export interface EditCounts {
  readonly updates: number;
  readonly creates: number;
  readonly trashes: number;
  readonly pages: number;
}

/**
 * Edits the checkout files of round `round`: post titles, page bodies, new posts (half of
 * them drafts, all with a slug but the last, which the site must name itself) and trashes,
 * each a different item from the previous rounds' where it matters.
 */
export function planPushEdits(
  site: ReferenceSite,
  cache: string,
  dir: string,
  round: number,
  counts: EditCounts = { updates: 30, creates: 6, trashes: 2, pages: 2 },
): PushPlan {
  const files = withStore(cache, (store) => {
    const published = (type: 'posts' | 'pages') =>
      [...store.items.iterate('pl', type, { statuses: ['publish'] })].map((row) => ({
        id: row.id,
        file: store.checkouts.get('pl', type, row.id)!.file,
      }));
    return { posts: published('posts'), pages: published('pages') };
  });
  expect(files.posts.length).toBeGreaterThanOrEqual(counts.updates + counts.trashes);
  const titles = new Map<number, string>();
  for (const { id, file } of files.posts.slice(0, counts.updates)) {
    const title = `Nowy tytuł ${id} (${round})`;
    replaceInFile(file, /^title: .*$/m, `title: ${title}`);
    titles.set(id, title);
  }
  const trashed: number[] = [];
  const trashFrom = files.posts.length - counts.trashes;
  for (const { id, file } of files.posts.slice(trashFrom)) {
    replaceInFile(file, /^status: .*$/m, 'status: trash');
    trashed.push(id);
  }
  const bodies = new Map<number, string>();
  for (const { id, file } of files.pages.slice(0, counts.pages)) {
    const body = `<p>Nowa treść strony ${id} (${round})</p>`;
    replaceInFile(file, /\n---\n[\s\S]*$/, `\n---\n${body}\n`);
    bodies.set(id, body);
  }
  const creates: string[] = [];
  for (let n = 1; n <= counts.creates; n++) {
    const title = `Utworzony wpis ${round}.${n}`;
    const slug = n === counts.creates ? '' : `slug: utworzony-wpis-${round}-${n}\n`;
    writeFileSync(
      path.join(dir, 'pl', 'posts', `new-${round}-${n}.html`),
      `---\ntitle: ${title}\n${slug}status: ${n % 2 === 0 ? 'draft' : 'publish'}\n---\n<p>Treść ${round}.${n}</p>\n`,
    );
    creates.push(title);
  }
  const before = new Map<string, number>();
  for (const type of ['posts', 'pages'] as const)
    for (const item of site.control.listItems('pl', type))
      before.set(`${type}/${item.id}`, item.modifiedGmt);
  const titleCounts = new Map<string, number>();
  const oldTitles = new Map<number, string>();
  for (const item of site.control.listItems('pl', 'posts')) {
    titleCounts.set(item.title, (titleCounts.get(item.title) ?? 0) + 1);
    oldTitles.set(item.id, item.title);
  }
  return { dir, titles, bodies, creates, trashed, before, titleCounts, oldTitles };
}

/** The site holds exactly the planned edits, each applied once, and nothing else changed. */
export function expectPushLanded(site: ReferenceSite, plan: PushPlan): void {
  const posts = site.control.listItems('pl', 'posts');
  const pages = site.control.listItems('pl', 'pages');
  const byId = new Map(posts.map((item) => [item.id, item]));
  for (const [id, title] of plan.titles) expect(byId.get(id)?.title, `post ${id}`).toBe(title);
  for (const id of plan.trashed) expect(byId.get(id)?.status, `post ${id}`).toBe('trash');
  for (const [id, body] of plan.bodies)
    expect(pages.find((page) => page.id === id)?.content, `page ${id}`).toBe(body);
  for (const title of plan.creates) {
    const found = posts.filter((item) => item.title === title);
    expect(
      found.map((item) => item.id),
      `posts titled "${title}"`,
    ).toHaveLength(1);
  }
  // Every other title appears as often as before (the seed may repeat titles): no duplicates.
  const counts = new Map<string, number>();
  for (const item of posts) counts.set(item.title, (counts.get(item.title) ?? 0) + 1);
  const expected = new Map(plan.titleCounts);
  for (const [id, title] of plan.titles) {
    const old = plan.oldTitles.get(id)!;
    expected.set(old, (expected.get(old) ?? 0) - 1);
    expected.set(title, (expected.get(title) ?? 0) + 1);
  }
  for (const title of plan.creates) expected.set(title, (expected.get(title) ?? 0) + 1);
  for (const [title, count] of expected) if (count === 0) expected.delete(title);
  expect(new Map([...counts].sort()), 'posts per title').toEqual(new Map([...expected].sort()));
  const touched = new Set([
    ...[...plan.titles.keys(), ...plan.trashed].map((id) => `posts/${id}`),
    ...[...plan.bodies.keys()].map((id) => `pages/${id}`),
  ]);
  const moved = [...plan.before]
    .filter(([key]) => !touched.has(key))
    .filter(([key, modified]) => {
      const [type, id] = key.split('/') as ['posts' | 'pages', string];
      return site.control.getItem('pl', type, Number(id))?.modifiedGmt !== modified;
    })
    .map(([key]) => key);
  expect(moved, 'items nobody edited').toEqual([]);
  expect(posts.length).toBe(
    [...plan.before.keys()].filter((key) => key.startsWith('posts/')).length + plan.creates.length,
  );
}

/** Edits still queued (pending or failed) in the cache. */
export function queuedEdits(cache: string): number {
  return withStore(
    cache,
    (store) =>
      store.edits.list({ state: 'pending' }).length + store.edits.list({ state: 'failed' }).length,
  );
}
