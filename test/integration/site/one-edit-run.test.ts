/**
 * Issue 17: a run after one edit rebuilds only what the edit touches, and misses nothing of
 * it. The oracle is a forced full build of the same cache into another folder: after the
 * incremental run the output must hold the same files with the same bytes (a page that shows
 * the item and was not rebuilt differs), and every file the run rewrote (by nanosecond mtime
 * and inode) must have new bytes (a page rewritten for nothing is a page planned for nothing).
 * Cases: a title edit (its page, listings, feed, sitemap, search) and a slug edit of a post
 * another post links to (the linking page changes too).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  diffSnapshots,
  pageFileOf,
  sitePathOfLink,
  snapshotFiles,
  startMirror,
  type Mirror,
} from '../../helpers/e2e-site.js';
import { getJson, type Json } from '../../helpers/reference.js';
import { runCliCaptured } from '../../helpers/run-cli.js';

describe('a run after one edit', () => {
  let mirror: Mirror;
  let posts: { id: number; link: string; file: string; html: string }[];

  beforeAll(async () => {
    mirror = await startMirror();
    await mirror.run();
    const listed = await getJson(mirror.site, 'pl', '/cms/v2/posts', {
      query: { per_page: 100 },
    });
    posts = (listed.body as Json[])
      .filter((post) => !post.content.protected)
      .map((post) => ({
        id: post.id as number,
        link: post.link as string,
        file: pageFileOf(sitePathOfLink(mirror.site, 'pl', post.link as string)),
        html: post.content.rendered as string,
      }));
    expect(posts.length).toBeGreaterThan(10);
  }, 300_000);
  afterAll(async () => {
    await mirror?.close();
  });

  /** Runs after `edit`; checks the output against a full build; returns the files rewritten. */
  async function runAfter(edit: () => void): Promise<string[]> {
    const langDir = path.join(mirror.outDir, 'pl');
    const before = snapshotFiles(langDir);
    edit();
    const run = await mirror.run();
    expect(run.pull.languages['pl']?.updated).toBe(1);
    const after = snapshotFiles(langDir);
    const { written } = diffSnapshots(before, after);

    const fullOut = path.join(mirror.temp.dir, 'full-output');
    const full = await runCliCaptured(
      [
        'build',
        '--force',
        ...['--pipeline', path.join(mirror.temp.dir, 'pipeline.yaml')],
        ...['--lang', 'pl,es', '--cache', mirror.cacheFile, '--out', fullOut, '--json'],
      ],
      { env: mirror.env, cwd: mirror.temp.dir },
    );
    expect(full.code, full.stderr).toBe(0);
    const fresh = snapshotFiles(path.join(fullOut, 'pl'));
    fs.rmSync(fullOut, { recursive: true, force: true });
    expect([...after.keys()].sort()).toEqual([...fresh.keys()].sort());
    const missed = [...fresh]
      .filter(([file, state]) => !after.get(file)?.bytes.equals(state.bytes))
      .map(([file]) => file);
    expect(missed, 'files the run left as they were but a full build makes differently').toEqual(
      [],
    );
    const forNothing = written.filter((file) =>
      before.get(file)?.bytes.equals(after.get(file)?.bytes ?? Buffer.alloc(0)),
    );
    expect(forNothing, 'files rewritten with the same bytes').toEqual([]);
    return written;
  }

  it('after a title edit: its page, a listing, the feed, the sitemap and its search bundle', async () => {
    const target = posts[5] as (typeof posts)[number];
    const written = await runAfter(() =>
      mirror.site.control.updateItem('pl', 'posts', target.id, { title: 'Tytuł po jednej edycji' }),
    );
    expect(written).toContain(target.file);
    expect(written).toContain('feed.xml');
    expect(written).toContain('sitemap.xml');
    expect(written.some((file) => /^(?:index\.html|page\/\d+\/index\.html)$/.test(file))).toBe(
      true,
    );
    expect(written.some((file) => file.startsWith('pagefind/'))).toBe(true);
    expect(written.length).toBeLessThan(40);
  }, 300_000);

  it('after a slug edit of a linked post: the pages linking to it too', async () => {
    const linked = posts.find((post) =>
      posts.some((other) => other.id !== post.id && other.html.includes(`href="${post.link}"`)),
    );
    expect(linked, 'the seed has a post another post links to').toBeDefined();
    const target = linked as (typeof posts)[number];
    const linking = posts
      .filter((other) => other.id !== target.id && other.html.includes(`href="${target.link}"`))
      .map((other) => other.file);
    const written = await runAfter(() =>
      mirror.site.control.updateItem('pl', 'posts', target.id, { slug: 'adres-po-jednej-edycji' }),
    );
    for (const file of linking) expect(written).toContain(file);
    expect(written.some((file) => file.includes('adres-po-jednej-edycji'))).toBe(true);
  }, 300_000);
});
