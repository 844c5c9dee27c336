/**
 * Issue 4: `cms-mirror run` is incremental. On an unchanged site the second run skips the
 * build; after one post's title changes on the site, the run rewrites exactly the files that
 * show that title (its page, its neighbours' post navigation, the listing page and the feed),
 * the sitemap (its `lastmod`) and its search bundle — and nothing else; after a deletion the
 * page is removed. Written files are found by nanosecond mtime and inode, not by trusting
 * the report, and the report's counters must match them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  diffSnapshots,
  filesContaining,
  pageFileOf,
  sitePathOfLink,
  snapshotFiles,
  startMirror,
  type Mirror,
} from '../../helpers/e2e-site.js';
import { getJson, type Json } from '../../helpers/reference.js';

const NEW_TITLE = 'Zupełnie nowy tytuł wpisu testowego';

describe('cms-mirror run, incrementally', () => {
  let mirror: Mirror;
  let posts: { id: number; file: string; title: string }[];

  beforeAll(async () => {
    mirror = await startMirror();
    const listed = await getJson(mirror.site, 'pl', '/cms/v2/posts', {
      query: { per_page: 100 },
    });
    posts = (listed.body as Json[])
      .filter((post) => !post.sticky && !post.content.protected)
      .map((post) => ({
        id: post.id as number,
        title: post.title.rendered as string,
        file: pageFileOf(sitePathOfLink(mirror.site, 'pl', post.link as string)),
      }));
    expect(posts.length).toBeGreaterThan(10);
  });
  afterAll(async () => {
    await mirror?.close();
  });

  it('skips the build when the site did not change', async () => {
    const first = await mirror.run();
    for (const lang of ['pl', 'es']) {
      expect(first.build.languages[lang]?.skipped).toBe(false);
      expect(first.build.languages[lang]?.written).toBeGreaterThan(50);
    }
    const before = snapshotFiles(mirror.outDir);
    const second = await mirror.run();
    expect(second.pull.total).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    for (const lang of ['pl', 'es']) {
      expect(second.build.languages[lang]).toMatchObject({ skipped: true, written: 0, removed: 0 });
    }
    expect(diffSnapshots(before, snapshotFiles(mirror.outDir))).toEqual({
      written: [],
      removed: [],
    });
  });

  it('after one title edit, rewrites exactly the files that show it, the sitemap and its search bundle', async () => {
    const target = posts[4] as (typeof posts)[number];
    const unrelated = [posts[0], posts[posts.length - 1]].map((post) => post?.file as string);
    const langDir = path.join(mirror.outDir, 'pl');
    const before = snapshotFiles(langDir);
    expect(filesContaining(before, NEW_TITLE)).toEqual([]);
    const oldShowing = filesContaining(before, `>${target.title}<`);
    expect(oldShowing.length).toBeGreaterThanOrEqual(3);

    mirror.site.control.updateItem('pl', 'posts', target.id, { title: NEW_TITLE });
    const run = await mirror.run();
    expect(run.pull.languages['pl']?.updated).toBe(1);
    expect(run.build.languages['es']?.skipped).toBe(true);
    const pl = run.build.languages['pl'];
    expect(pl?.skipped).toBe(false);

    const after = snapshotFiles(langDir);
    const { written, removed } = diffSnapshots(before, after);
    const showing = filesContaining(after, NEW_TITLE);
    // The post itself, at least one listing page, the feed, and its older and newer neighbours.
    expect(showing).toContain(target.file);
    expect(showing).toContain('feed.xml');
    expect(showing.some((file) => /^(?:index\.html|page\/\d+\/index\.html)$/.test(file))).toBe(
      true,
    );
    expect(showing.filter((file) => /^\d{4}\/\d{2}\//.test(file)).length).toBe(3);
    const bundles = new Set(
      written.filter((file) => file.startsWith('pagefind/')).map((file) => file.split('/')[1]),
    );
    expect(bundles.size).toBe(1);
    const bundle = [...bundles][0] as string;
    const searchFiles = written.filter((file) => file.startsWith(`pagefind/${bundle}/`));
    expect(searchFiles.length).toBeGreaterThan(0);
    expect(written).toEqual([...new Set([...showing, 'sitemap.xml', ...searchFiles])].sort());
    for (const file of unrelated) expect(written).not.toContain(file);
    // Only replaced search files go away (Pagefind names them by content).
    expect(removed.every((file) => file.startsWith(`pagefind/${bundle}/`))).toBe(true);
    expect(pl).toMatchObject({ written: written.length, removed: removed.length });
    expect(pl?.unchanged).toBe(after.size - written.length);
  });

  it('removes the page of a post deleted on the site', async () => {
    const target = posts[8] as (typeof posts)[number];
    const file = path.join(mirror.outDir, 'pl', target.file);
    expect(fs.existsSync(file)).toBe(true);
    mirror.site.control.deleteItem('pl', 'posts', target.id);
    const run = await mirror.run();
    expect(run.pull.languages['pl']?.deleted).toBe(1);
    expect(run.build.languages['pl']?.removed).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(path.dirname(file))).toBe(false);
  });
});
