import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { migrate } from '../../src/migrate/index.js';
import type { RequestLogEntry, StoredItem } from '../../src/reference/index.js';
import { credentialEnv, migrateArgs } from '../helpers/cli-args.js';
import { useSharedSiteAndCache } from '../helpers/mirror-fixture.js';
import { getJson, startReference, type ReferenceSite } from '../helpers/reference.js';
import { expectMigrated, migrationTree, pullSource } from '../helpers/reliability-migrate.js';
import { onRequest, runChild } from '../helpers/reliability-process.js';
import { killAt, killPointsIn, phaseOf } from '../helpers/request-phases.js';
import type { TempCache } from '../helpers/temp-cache.js';

const SEED = 6303;
/** More posts than one batch holds (25), pages on two levels, media to upload. */
const SOURCE = { posts: 30, pages: 4, media: 3, languages: ['pl'] } as const;
const EMPTY = { posts: 0, pages: 0, media: 0, languages: ['pl'] } as const;
/** The phases of a migration at the target, one kill in each. */
const PHASES = ['upload', 'batch-pages', 'batch-posts', 'relink', 'seo'] as const;
const ROUND_TIMEOUT = 120_000;

/**
 * Names a request at the target by the phase of the migration it belongs to. Batch calls look
 * alike on the wire; the target's own records tell them apart at the moment one arrives:
 * creating pages while pages are missing, posts while posts are missing, and after that the
 * second pass (relinking).
 */
function migrationPlace(
  target: ReferenceSite,
  want: { pages: number; posts: number },
): (entry: RequestLogEntry) => string {
  return (entry) => {
    const phase = phaseOf(entry);
    if (phase !== 'batch') return phase;
    if (target.control.listItems('pl', 'pages').length < want.pages) return 'batch-pages';
    // The target's own post (a taken slug) counts among its posts.
    if (target.control.listItems('pl', 'posts').length < want.posts + 1) return 'batch-posts';
    return 'relink';
  };
}

/**
 * The slug of a source post that a source page links to (pages are created before posts, so
 * their links to it can only be fixed by the second pass), with its publication date.
 */
function linkedPost(source: ReferenceSite): StoredItem {
  const posts = source.control.listItems('pl', 'posts').filter((p) => p.status === 'publish');
  const texts = [
    ...source.control.listItems('pl', 'pages'),
    ...source.control.listItems('pl', 'posts'),
  ].map((item) => item.content);
  const linked = posts.find((post) =>
    texts.some((text) => new RegExp(`/pl/\\d{4}/\\d{2}/${post.slug}/"`).test(text)),
  );
  expect(linked, 'a source post another item links to').toBeDefined();
  return linked!;
}

/**
 * An empty target but for one post that takes the slug (and path) of `taken`: migrated with
 * `--on-conflict beside`, the source's post gets `slug-2`, another path, and the links to it
 * need the second pass.
 */
async function targetWithTakenSlug(seed: string, taken: StoredItem): Promise<ReferenceSite> {
  const target = await startReference({ ...EMPTY, seed });
  target.control.createItems('pl', 'posts', 1, {
    slug: taken.slug,
    title: 'Already on the target',
    // Another date in the same minute (same path), so it is not taken for a copy made by a
    // killed run (those are recognised by slug and date).
    dateGmt: taken.dateGmt + 1,
  });
  return target;
}

/**
 * The target holds the source once beside its own post: the migrated twin of the taken slug
 * is `slug-2`, and no migrated item links to the target's own post instead of it.
 */
async function expectMigratedBeside(
  source: ReferenceSite,
  target: ReferenceSite,
  taken: StoredItem,
): Promise<void> {
  const own = target.control
    .listItems('pl', 'posts')
    .find((p) => p.title === 'Already on the target')!;
  const moved = target.control.listItems('pl', 'posts').find((p) => p.slug === `${taken.slug}-2`);
  expect(moved, `the migrated "${taken.slug}" as ${taken.slug}-2`).toBeDefined();
  const ownLink = (await getJson(target, 'pl', `/cms/v2/posts/${own.id}`)).body.link as string;
  const movedLink = (await getJson(target, 'pl', `/cms/v2/posts/${moved!.id}`)).body.link as string;
  const texts = ['pages', 'posts'].flatMap((type) =>
    target.control
      .listItems('pl', type as 'pages' | 'posts')
      .filter((item) => item.id !== own.id)
      .map((item) => item.content),
  );
  expect(
    texts.filter((text) => text.includes(ownLink)),
    "links to the target's own post",
  ).toEqual([]);
  expect(texts.filter((text) => text.includes(movedLink)).length, 'links relinked').toBeGreaterThan(
    0,
  );
  // Without the target's own post and with the slug back, the target is the source.
  target.control.deleteItem('pl', 'posts', own.id);
  target.control.updateItem('pl', 'posts', moved!.id, { slug: taken.slug });
  expectMigrated(source, target, 'pl');
}

/**
 * `migrate` SIGKILLed in every phase: each round migrates a copy of the same pulled cache
 * into a new target (empty but for one post whose slug a source post must give way to, so
 * links need the second pass), is killed on the n-th request of one phase (media uploads, page
 * batches, post batches, relinking, the seo/v1 copy; n drawn, seeded, from a clean migration's
 * trace of that phase), then run to the end: the target must hold the source exactly once.
 */
describe('reliability: migrate killed with SIGKILL in every phase', () => {
  let source: ReferenceSite;
  let temp: TempCache;
  let want: { pages: number; posts: number };
  let trace: Map<string, number> | undefined;
  let taken: StoredItem;
  const landings: string[] = [];
  const fixture = useSharedSiteAndCache(SOURCE, 'cms-mirror-rel-');
  beforeAll(async () => {
    ({ site: source, temp } = fixture);
    await pullSource(source, temp.file, 'pl');
    const tree = migrationTree(source, 'pl');
    want = { pages: tree.pages.length, posts: tree.posts.length };
    taken = linkedPost(source);
  });

  /** A copy of the pulled cache (each migration records its own id_map in its cache). */
  function cacheCopy(name: string): string {
    const copy = join(temp.dir, `${name}.sqlite`);
    copyFileSync(temp.file, copy);
    if (existsSync(`${temp.file}-wal`)) copyFileSync(`${temp.file}-wal`, `${copy}-wal`);
    return copy;
  }

  /** Requests per phase of a clean in-process migration into an empty twin. */
  async function cleanTrace(): Promise<Map<string, number>> {
    const twin = await targetWithTakenSlug('twin', taken);
    const counts = new Map<string, number>();
    const place = migrationPlace(twin, want);
    const stop = onRequest(twin, () => {
      const key = place(twin.requests[twin.requests.length - 1]!);
      counts.set(key, (counts.get(key) ?? 0) + 1);
    });
    try {
      const report = await migrate({
        fromCache: cacheCopy('clean'),
        fromLang: 'pl',
        to: twin.url,
        toLang: 'pl',
        credentials: twin.credentials,
        onConflict: 'beside',
        http: { requestsPerSecond: 0 },
      });
      expect(report.failed).toEqual([]);
      return counts;
    } finally {
      stop();
      await twin.close();
    }
  }

  async function killedRound(phase: (typeof PHASES)[number], index: number): Promise<void> {
    trace ??= await cleanTrace();
    const point = killPointsIn(SEED, trace, PHASES)[index]!;
    const target = await targetWithTakenSlug(`target-${index}`, taken);
    try {
      const cache = cacheCopy(`round-${index}`);
      const env = credentialEnv(target);
      const argv = [...migrateArgs(cache, target), '--on-conflict', 'beside', '--json'];
      const place = migrationPlace(target, want);
      const hit = killAt(point, place);
      // The target's records at the kill: where in the migration it landed.
      let state = '';
      const killed = await runChild(argv, {
        env,
        cwd: temp.dir,
        site: target,
        killWhen: (entry) => {
          if (!hit(entry)) return false;
          const count = (type: 'media' | 'pages' | 'posts') =>
            target.control.listItems('pl', type).length;
          state = `${place(entry)}; target had ${count('media')} media, ${count('pages')}/${want.pages} pages, ${count('posts')}/${want.posts} posts`;
          return true;
        },
      });
      const landed = killed.killedOn ? state : 'nowhere';
      const where = `${phase}: kill at ${point.place} #${point.nth} landed on ${landed} (request ${killed.killedOn?.index} of the run, ${killed.killedOn?.entry.method} ${killed.killedOn?.entry.path})`;
      landings.push(where);
      expect(killed.signal, `${where}\n${killed.stderr}`).toBe('SIGKILL');
      const rerun = await runChild(argv, { env, cwd: temp.dir, site: target });
      expect(rerun.code, `${where}\n${rerun.stderr}`).toBe(0);
      expect(JSON.parse(rerun.stdout).failed, where).toEqual([]);
      // Idempotent: one more run creates nothing.
      const again = await runChild(argv, { env, cwd: temp.dir, site: target });
      expect(JSON.parse(again.stdout).created, where).toEqual({ media: 0, pages: 0, posts: 0 });
      await expectMigratedBeside(source, target, taken);
    } finally {
      await target.close();
    }
  }

  it.each(PHASES.map((phase, index) => ({ phase, index })))(
    'killed in $phase, a re-run re-creates the source exactly once, links included',
    ({ phase, index }) => killedRound(phase, index),
    ROUND_TIMEOUT,
  );

  it('killed once in every phase', () => {
    if (process.env['CMS_TRACE_KILLS']) console.info(`migrate kills:\n${landings.join('\n')}`);
    expect(landings).toHaveLength(PHASES.length);
    for (const phase of PHASES)
      expect(landings.filter((where) => where.includes(`landed on ${phase};`))).toHaveLength(1);
  });
});
