/**
 * Issue 17: a run after one edit rebuilds only what the edit touches, and misses nothing of
 * it. The oracle is a forced full build of the same cache into another folder: after the
 * incremental run the output must hold the same files with the same bytes (a page that shows
 * the item and was not rebuilt differs), and every file the run rewrote (by nanosecond mtime
 * and inode) must have new bytes (a page rewritten for nothing is a page planned for nothing).
 * Cases: a title edit (its page, listings, feed, sitemap, search), a content edit (its search
 * bundle), a title edit of a post another post links to, a date change that moves a post in
 * the listing, a post unpublished, a new post, and a slug edit of a linked post (the linking
 * page changes too). Each also checks how the run planned `pl` (`plan` in the JSON): only the
 * pages the edit touches (`edits`) where the layout of the site stayed, every page (`full`)
 * where items moved, came or went. Where the last build placed each post is recorded with it
 * (for the next edit build): after each run it is the run's own build's, and the same as the
 * forced full build records.
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
import { checkLinks } from '../../helpers/link-check.js';
import { getJson, type Json } from '../../helpers/reference.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import { build, pull } from '../../../src/index.js';
import { openStore } from '../../../src/store/index.js';
import { startBuildWorkers, type BuildWorkers } from '../../../src/site/build-workers.js';

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

  type Planned = { plan?: string; planned?: number };
  /** When the search index a watch's build asked for is handed back to it. */
  type IndexGate = { released: Promise<void>; handedBack: boolean };

  /** `cms-mirror run`, as a scheduled job runs it. */
  async function viaRun(changed: 'updated' | 'created' | 'deleted'): Promise<Planned> {
    const run = await mirror.run();
    expect(run.pull.languages['pl']?.[changed]).toBe(1);
    return run.build.languages['pl'] as unknown as Planned;
  }

  /**
   * A pull, then the build `watch` makes (`pagesFirst`), its steps traced into `trace`. The
   * search index it asks for is handed back only once `released` says so (or after 30 s).
   */
  async function viaWatch(
    changed: 'updated' | 'created' | 'deleted',
    trace: string[],
    gate: IndexGate = { released: Promise.resolve(), handedBack: false },
  ): Promise<Planned> {
    const settings = mirror.settings();
    const pulled = await pull({ settings });
    expect(pulled.languages['pl']?.[changed]).toBe(1);
    const workers = startBuildWorkers();
    const held: BuildWorkers = {
      render: (input) => workers.render(input),
      indexShards: async (shards, lang, onBundle) => {
        const files = await workers.indexShards(shards, lang, onBundle);
        await Promise.race([gate.released, new Promise((resolve) => setTimeout(resolve, 30_000))]);
        gate.handedBack = true;
        return files;
      },
      stageShards: async (shards, lang, stageOf, onStaged) => {
        await workers.stageShards(shards, lang, stageOf, onStaged);
        await Promise.race([gate.released, new Promise((resolve) => setTimeout(resolve, 30_000))]);
        gate.handedBack = true;
      },
      warmUp: (dir) => workers.warmUp(dir),
      prepare: (target) => workers.prepare(target),
      useCompiles: (compiles) => workers.useCompiles(compiles),
      expectEdits: () => workers.expectEdits(),
      // Kept, as a watch keeps its workers: not let go by the build, closed below, once.
      rendersDone: () => undefined,
      indexingDone: () => undefined,
      close: () => Promise.resolve(),
    };
    try {
      const summary = await build({
        settings,
        changed: pulled.changed,
        pagesFirst: true,
        workers: () => held,
        trace: (step) => trace.push(step),
      });
      return summary.languages['pl'] as unknown as Planned;
    } finally {
      await workers.close();
    }
  }

  /**
   * Runs after `edit`; checks how `pl` was planned and the output against a full build;
   * returns the files rewritten.
   */
  async function runAfter(
    edit: () => void,
    plan: 'edits' | 'full',
    changed: 'updated' | 'created' | 'deleted' = 'updated',
    via: 'run' | 'watch' = 'run',
    trace: string[] = [],
    gate?: IndexGate,
  ): Promise<string[]> {
    const langDir = path.join(mirror.outDir, 'pl');
    const before = snapshotFiles(langDir);
    edit();
    const built = via === 'run' ? await viaRun(changed) : await viaWatch(changed, trace, gate);
    expect(built.plan).toBe(plan);
    // An edit plans its page, its neighbours, a listing page, the 404 and search pages.
    if (plan === 'edits') expect(built.planned).toBeLessThanOrEqual(6);
    const after = snapshotFiles(langDir);
    const { written } = diffSnapshots(before, after);
    const placedByRun = recordedPlacement();

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
    expect(placedByRun, 'the placement the run recorded, as a full build records it').toEqual(
      recordedPlacement(),
    );
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

  /** The placement recorded for `pl`, checked to be the last build's. */
  function recordedPlacement(): { facts: string; chunks: string[]; newest: string | null } {
    const store = openStore(mirror.cacheFile);
    try {
      const placement = store.buildPlacement.get('pl');
      expect(placement?.modelDigest).toBe(store.buildState.getState('pl')?.modelDigest);
      return {
        facts: placement?.facts ?? '',
        chunks: [...(placement?.chunks() ?? [])],
        newest: placement?.newest ?? null,
      };
    } finally {
      store.close();
    }
  }

  it('after a title edit: its page, a listing, the feed, the sitemap and its search bundle', async () => {
    const target = posts[5] as (typeof posts)[number];
    const written = await runAfter(
      () =>
        mirror.site.control.updateItem('pl', 'posts', target.id, {
          title: 'Tytuł po jednej edycji',
        }),
      'edits',
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

  it('after a title edit, as watch builds it: its page switched in before its search bundle is indexed', async () => {
    const target = posts[7] as (typeof posts)[number];
    // The search index is handed to the build only once the page is in the output: a build
    // that waits for it before switching the page in waits 30 s, and its page comes after.
    const trace: string[] = [];
    let release = (): void => undefined;
    const released = new Promise<void>((resolve) => (release = resolve));
    const pageSwitch = `switch pl ${target.file}`;
    let pageBeforeIndex = false;
    const gate: IndexGate = { released, handedBack: false };
    const traced = new Proxy(trace, {
      get(array, key) {
        if (key !== 'push') return Reflect.get(array, key);
        return (step: string) => {
          if (step === pageSwitch) {
            pageBeforeIndex = !gate.handedBack;
            release();
          }
          return array.push(step);
        };
      },
    });
    const written = await runAfter(
      () =>
        mirror.site.control.updateItem('pl', 'posts', target.id, {
          title: 'Tytuł zapisany w trybie watch',
        }),
      'edits',
      'updated',
      'watch',
      traced,
      gate,
    );
    expect(written).toContain(target.file);
    expect(written.some((file) => file.startsWith('pagefind/'))).toBe(true);
    expect(pageBeforeIndex, trace.join('\n')).toBe(true);
    const steps = trace.filter((step) => / pl\b/.test(step));
    const firstBundle = steps.findIndex((step) => step.startsWith('stage pl pagefind/'));
    expect(firstBundle, steps.join('\n')).toBeGreaterThan(steps.indexOf(pageSwitch));
    expect(steps.filter((step) => step === 'commit pl')).toHaveLength(2);
  }, 300_000);

  it('after a slug edit of a linked post: the pages linking to it too', async () => {
    const target = linkedPost();
    const linking = await linkingNow(target);
    expect(linking.length).toBeGreaterThan(0);
    const written = await runAfter(
      () =>
        mirror.site.control.updateItem('pl', 'posts', target.id, {
          slug: 'adres-po-jednej-edycji',
        }),
      'full',
    );
    for (const file of linking) expect(written).toContain(file);
    expect(written.some((file) => file.includes('adres-po-jednej-edycji'))).toBe(true);
    // No page keeps a link to the post's old page (the full build above reads the same cache,
    // so it would keep such a link too).
    const old = `${path.posix.basename(path.posix.dirname(target.file))}/`;
    const broken = checkLinks(mirror.outDir, 'pl').broken.filter((link) => link.url.includes(old));
    expect(broken).toEqual([]);
  }, 300_000);

  it('after a content edit: its page and its search bundle', async () => {
    const target = posts[8] as (typeof posts)[number];
    const written = await runAfter(
      () =>
        mirror.site.control.updateItem('pl', 'posts', target.id, {
          content: '<p>Zupełnie nowa treść: połoniny, źródła Sanu i żubry.</p>',
        }),
      'edits',
    );
    expect(written).toContain(target.file);
    expect(written.some((file) => file.startsWith('pagefind/'))).toBe(true);
  }, 300_000);

  /**
   * The pages of the posts that link to `target` now, read from the site: an earlier case may
   * have edited a post's content (and its links) since `posts` was read.
   */
  async function linkingNow(target: (typeof posts)[number]): Promise<string[]> {
    const listed = await getJson(mirror.site, 'pl', '/cms/v2/posts', {
      query: { per_page: 100 },
    });
    return (listed.body as Json[])
      .filter(
        (post) =>
          post.id !== target.id &&
          !post.content.protected &&
          (post.content.rendered as string).includes(`href="${target.link}"`),
      )
      .map((post) => pageFileOf(sitePathOfLink(mirror.site, 'pl', post.link as string)));
  }

  /** From the `index`th on, a post no post links to. */
  function plainPost(index: number): (typeof posts)[number] {
    const plain = posts
      .slice(index)
      .find(
        (post) =>
          !posts.some(
            (other) => other.id !== post.id && other.html.includes(`href="${post.link}"`),
          ),
      );
    expect(plain, 'the seed has posts no post links to').toBeDefined();
    return plain as (typeof posts)[number];
  }

  /** The `nth` post another post links to. */
  function linkedPost(nth = 0): (typeof posts)[number] {
    const linked = posts.filter((post) =>
      posts.some((other) => other.id !== post.id && other.html.includes(`href="${post.link}"`)),
    )[nth];
    expect(linked, 'the seed has a post another post links to').toBeDefined();
    return linked as (typeof posts)[number];
  }

  it('after a title edit of a linked post: its page and its neighbours', async () => {
    // Another linked post than the slug edit's.
    const target = linkedPost(1);
    const written = await runAfter(
      () =>
        mirror.site.control.updateItem('pl', 'posts', target.id, {
          title: 'Wpis, do którego prowadzą linki',
        }),
      'edits',
    );
    expect(written).toContain(target.file);
  }, 300_000);

  it('after a date change that moves a post in the listing: every listing page it passes', async () => {
    const target = plainPost(2);
    const written = await runAfter(
      () =>
        mirror.site.control.updateItem('pl', 'posts', target.id, {
          dateGmt: Date.parse('2001-01-01T00:00:00Z'),
        }),
      'full',
    );
    expect(written).toContain('index.html');
  }, 300_000);

  it('after a post is unpublished: its page goes', async () => {
    const target = plainPost(10);
    const langDir = path.join(mirror.outDir, 'pl');
    await runAfter(
      () => mirror.site.control.updateItem('pl', 'posts', target.id, { status: 'draft' }),
      'full',
    );
    expect(fs.existsSync(path.join(langDir, target.file))).toBe(false);
  }, 300_000);

  it('after a linked post is deleted: its page goes, and no page links to it', async () => {
    // Another linked post than the slug and title edits': its page is still where it was.
    const target = linkedPost(2);
    const linking = await linkingNow(target);
    expect(linking.length).toBeGreaterThan(0);
    const written = await runAfter(
      () => mirror.site.control.deleteItem('pl', 'posts', target.id),
      'full',
      'deleted',
    );
    expect(fs.existsSync(path.join(mirror.outDir, 'pl', target.file))).toBe(false);
    for (const file of linking) expect(written).toContain(file);
    // The full build reads the same cache: a link the transform kept would be in both.
    const gone = `${path.posix.basename(path.posix.dirname(target.file))}/`;
    const broken = checkLinks(mirror.outDir, 'pl').broken.filter((link) => link.url.includes(gone));
    expect(broken).toEqual([]);
  }, 300_000);

  it('after a new post: its page comes', async () => {
    const written = await runAfter(
      () => {
        mirror.site.control.createItems('pl', 'posts', 1, { title: 'Zupełnie nowy wpis' });
      },
      'full',
      'created',
    );
    expect(written).toContain('index.html');
  }, 300_000);
});
