import { spawn } from 'node:child_process';
import { copyFileSync, existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ContentType, StoredItem } from '../../src/reference/index.js';
import { credentialEnv, migrateArgs, unpacedPipeline } from '../helpers/cli-args.js';
import { useSite, useSiteAndCache } from '../helpers/mirror-fixture.js';
import { getJson, type ReferenceSite } from '../helpers/reference.js';
import { pullSource, sourceReferences } from '../helpers/reliability-migrate.js';
import { cliArgs, onRequest } from '../helpers/reliability-process.js';
import type { TempCache } from '../helpers/temp-cache.js';

const TYPES: readonly ContentType[] = ['media', 'pages', 'posts'];
const LEFT_BEHIND = new Set(['trash', 'auto-draft']);

interface Outcome {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** A request as the kill rule sees it: its kind and how many of that kind this run has sent. */
type KillRule = (kind: string, nth: number) => boolean;

/**
 * `migrate --on-conflict beside` into a target that already holds a person's items with the
 * slugs and dates of source items (reference `overlapWith`), from a source whose drafts and
 * pending items have no slug (reference `sluglessDrafts`). Killed with SIGKILL at the five
 * moments of issue 13 (the kill lands when the target receives the request, which the target
 * still carries out: the item exists, the cache never hears of it), re-run, and finally run
 * again from a copy of the cache taken before the first run (its id_map lost).
 */
describe('reliability: migrate into a target with content, killed at five moments', () => {
  let source: ReferenceSite;
  let target: ReferenceSite;
  let temp: TempCache;
  const fixture = useSiteAndCache(
    { ...{ languages: ['pl'], posts: 30, sluglessDrafts: true }, urlVariants: true },
    'cms-mirror-rel-',
  );
  const targetFixture = useSite({
    ...{ languages: ['pl'], posts: 0, pages: 0, media: 0, seed: 'target' },
    overlapWith: 'cms-mirror',
  });
  beforeEach(() => {
    ({ site: source, temp } = fixture);
    target = targetFixture.site;
  });

  /**
   * Runs the CLI in a child. When `at` says so for a request the target receives, `fault` is
   * set on the target for that request and after (`reset=1`: dropped unanswered and not
   * carried out, the kill came before it reached the server; `batchCut=N`: a batch carried out
   * part-way, its answer dropped; the fault decision comes after the log entry), and the child
   * is SIGKILLed unless `kill` is false (then it lives on without the answer).
   */
  function runChild(
    argv: readonly string[],
    at?: KillRule,
    how: { fault?: string; kill?: boolean } = {},
  ): Promise<Outcome> {
    const child = spawn(process.execPath, [...cliArgs(), ...argv], {
      cwd: temp.dir,
      env: { ...process.env, ...credentialEnv(target), NO_COLOR: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const seen = new Map<string, number>();
    const remove = onRequest(target, () => {
      const entry = target.requests[target.requests.length - 1]!;
      const kind = `${entry.method} ${entry.path}`;
      const nth = (seen.get(kind) ?? 0) + 1;
      seen.set(kind, nth);
      if (!at?.(kind, nth)) return;
      if (how.fault !== undefined) target.control.setFaults(how.fault);
      if (how.kill ?? true) child.kill('SIGKILL');
    });
    return new Promise((resolve, reject) => {
      child.once('error', (error) => {
        remove();
        reject(error);
      });
      child.once('exit', (code, signal) => {
        remove();
        target.control.setFaults(undefined);
        resolve({ code, signal, stdout, stderr });
      });
    });
  }

  /** A page of the source links to the source post whose slug a person's post holds on the target. */
  async function linkPageToConflictingPost(): Promise<void> {
    const own = target.control.listItems('pl', 'posts')[0]!;
    const post = source.control
      .listItems('pl', 'posts')
      .find((item) => item.slug === own.slug && item.dateGmt === own.dateGmt)!;
    expect(post, 'the overlap repeats a source post').toBeDefined();
    const { body } = await getJson(source, 'pl', `/cms/v2/posts/${post.id}`, { auth: true });
    const page = source.control.listItems('pl', 'pages').find((item) => item.parent === 0)!;
    source.control.updateItem('pl', 'pages', page.id, {
      content: `${page.content}\n<p><a href="${body.link as string}">see</a></p>`,
    });
  }

  /** What the target holds besides the person's items, in terms a migration keeps. */
  const migrated = (type: ContentType, own: ReadonlySet<number>) =>
    target.control
      .listItems('pl', type)
      .filter((item) => !own.has(item.id))
      .map((item) => `${item.title}\u0000${item.status}`)
      .sort();
  const sourceItems = (type: ContentType) =>
    source.control
      .listItems('pl', type)
      .filter((item) => !LEFT_BEHIND.has(item.status))
      .map((item) => `${item.title}\u0000${item.status}`)
      .sort();

  /** The scene before the first run: the source pulled, a copy of that cache, the person's items. */
  async function prepare() {
    await linkPageToConflictingPost();
    await pullSource(source, temp.file, 'pl');
    const copy = join(temp.dir, 'before-run.sqlite');
    copyFileSync(temp.file, copy);
    if (existsSync(`${temp.file}-wal`)) copyFileSync(`${temp.file}-wal`, `${copy}-wal`);
    const before = new Map(TYPES.map((type) => [type, target.control.listItems('pl', type)]));
    const own = new Set([...before.values()].flat().map((item: StoredItem) => item.id));
    expect(own.size).toBe(4);
    const argv = [
      ...migrateArgs(temp.file, target),
      ...['--pipeline', unpacedPipeline(temp.dir), '--on-conflict', 'beside', '--json'],
    ];
    return { copy, before, own, argv };
  }
  type Scene = Awaited<ReturnType<typeof prepare>>;

  /**
   * Every source item once on the target, the person's items unchanged, and no reference to
   * the source (any scheme, prefix, size variant, relative URL or short link) in what was made.
   */
  async function expectMigratedOnce({ before, own }: Scene): Promise<void> {
    for (const type of TYPES) {
      expect(migrated(type, own), type).toEqual(sourceItems(type));
      for (const item of before.get(type)!)
        expect(target.control.getItem('pl', type, item.id), `${type} ${item.id}`).toEqual(item);
    }
    expect(await sourceReferences(source, target, 'pl', own)).toEqual([]);
  }

  /** The final run, then one from the cache copied before the first run (its id_map lost). */
  async function finishAndLoseIdMap(scene: Scene, trace: readonly string[]) {
    const final = await runChild(scene.argv);
    expect(final.code, `${trace.join('\n')}\n${final.stderr}`).toBe(0);
    const report = JSON.parse(final.stdout) as { failed: unknown[]; created: { posts: number } };
    expect(report.failed).toEqual([]);
    await expectMigratedOnce(scene);
    rmSync(`${temp.file}-wal`, { force: true });
    rmSync(`${temp.file}-shm`, { force: true });
    copyFileSync(scene.copy, temp.file);
    if (existsSync(`${scene.copy}-wal`)) copyFileSync(`${scene.copy}-wal`, `${temp.file}-wal`);
    const lost = await runChild(scene.argv);
    expect(lost.code, lost.stderr).toBe(0);
    expect((JSON.parse(lost.stdout) as { created: unknown }).created).toEqual({
      media: 0,
      pages: 0,
      posts: 0,
    });
    await expectMigratedOnce(scene);
    return report;
  }

  const batch = 'POST /batch/v1';

  // Seven child runs of the CLI: on two busy cores that takes longer than the default minute.
  it(
    'ends with every source item once and the target’s own items unchanged',
    { timeout: 240_000 },
    async () => {
      const scene = await prepare();
      // The relinking pass is killed before its batch reaches the target (a batch that arrives
      // is carried out whole here; a batch cut part-way is the next test's).
      const moments: [string, KillRule, string?][] = [
        [
          'after a media upload, before its id is recorded',
          (k, n) => k === 'POST /cms/v2/media' && n === 2,
        ],
        ['after a page batch, before its ids are recorded', (k, n) => k === batch && n === 1],
        ['in the middle of the pages (the next level)', (k, n) => k === batch && n === 2],
        ['in the middle of the posts (the second batch)', (k, n) => k === batch && n === 2],
        ['during the relinking pass', (k, n) => k === batch && n === 1, 'reset=1'],
      ];
      const trace: string[] = [];
      for (const [moment, rule, fault] of moments) {
        const run = await runChild(scene.argv, rule, fault === undefined ? {} : { fault });
        trace.push(`${moment}: ${run.signal ?? `exit ${String(run.code)}`}`);
        expect(run.signal, `${trace.join('\n')}\n${run.stderr}`).toBe('SIGKILL');
      }
      const report = await finishAndLoseIdMap(scene, trace);
      // The relinking pass, killed above, was finished by the final run.
      expect(report.created.posts).toBe(0);

      // The page links to the post the target made (beside the person's, under another slug).
      const { body: posts } = await getJson(target, 'pl', '/cms/v2/posts', {
        query: { search: '', per_page: 100, context: 'edit' },
        auth: true,
      });
      const ownPost = scene.before.get('posts')![0]!;
      const ours = (posts as { slug: string; link: string }[]).find((p) =>
        p.slug.startsWith(`${ownPost.slug}-`),
      );
      expect(ours, 'the migrated post has another slug').toBeDefined();
      const pages = target.control
        .listItems('pl', 'pages')
        .filter((item) => !scene.own.has(item.id));
      expect(pages.some((page) => page.content.includes(`href="${ours!.link}"`))).toBe(true);
    },
  );

  /**
   * A batch cut part-way (reference fault `batchCut`): its first sub-requests are carried out
   * and the answer never comes, with the CLI killed at that moment or living on without the
   * answer. The source's first post batch holds a slugless draft at its fourth place and a
   * slugless pending item at its fifth; its top-level pages include a slugless draft.
   */
  it(
    'ends with every source item once after batches cut in the middle',
    { timeout: 240_000 },
    async () => {
      const scene = await prepare();
      const slugless = (own: ReadonlySet<number>) =>
        target.control
          .listItems('pl', 'posts')
          .filter((item) => !own.has(item.id) && item.slug === '')
          .map((item) => item.status);
      const cuts: [string, KillRule, string, boolean][] = [
        // Run 1 uploads the media, then its first batch is the top-level pages.
        [
          'killed in the middle of the first page batch',
          (k, n) => k === batch && n === 1,
          'batchCut=3',
          true,
        ],
        // Run 2: the other top-level pages (its answer lost, the run fails without it).
        [
          'a page batch whose answer is lost',
          (k, n) => k === batch && n === 1,
          'batchCut=25',
          false,
        ],
        // Run 3: the second and third levels of pages, then the first 25 posts.
        [
          'killed in the middle of the first post batch',
          (k, n) => k === batch && n === 3,
          'batchCut=4',
          true,
        ],
      ];
      const trace: string[] = [];
      for (const [moment, rule, fault, kill] of cuts) {
        const run = await runChild(scene.argv, rule, { fault, kill });
        trace.push(`${moment}: ${run.signal ?? `exit ${String(run.code)}`}`);
        if (kill) expect(run.signal, `${trace.join('\n')}\n${run.stderr}`).toBe('SIGKILL');
        else expect(run.code, `${trace.join('\n')}\n${run.stderr}`).not.toBe(0);
      }
      // The cut post batch made the first four posts, the slugless draft among them.
      expect(migrated('posts', scene.own)).toHaveLength(4);
      expect(slugless(scene.own)).toEqual(['draft']);
      // Run 4: the other 25 posts, cut after ten (the slugless pending item first), no kill.
      const cut = await runChild(scene.argv, (k, n) => k === batch && n === 1, {
        fault: 'batchCut=10',
        kill: false,
      });
      trace.push(`a post batch cut after ten: exit ${String(cut.code)}`);
      expect(cut.code, `${trace.join('\n')}\n${cut.stderr}`).not.toBe(0);
      expect(migrated('posts', scene.own)).toHaveLength(14);
      expect(slugless(scene.own).sort()).toEqual(['draft', 'pending']);
      await finishAndLoseIdMap(scene, trace);
    },
  );
});
