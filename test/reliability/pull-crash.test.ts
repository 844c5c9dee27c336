import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/settings.js';
import { openStore } from '../../src/store/index.js';
import { pull } from '../../src/sync/index.js';
import { credentialEnv, pullArgs } from '../helpers/cli-args.js';
import { createRng } from '../../src/reference/rng.js';
import { useSharedSiteAndCache } from '../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../helpers/reference.js';
import type { TempCache } from '../helpers/temp-cache.js';
import { expectBackupEqualsSite } from '../helpers/reliability-backup.js';
import {
  expectCacheEqualsSite,
  siteSnapshot,
  type SiteSnapshot,
} from '../helpers/reliability-compare.js';
import { runChild } from '../helpers/reliability-process.js';
import {
  killAt,
  killPointsIn,
  placeOf,
  traceOf,
  type KillPoint,
} from '../helpers/request-phases.js';

/** The smallest site with every phase in both languages: revisions, files, embeds. */
const SITE = { posts: 10, pages: 3, media: 4, languages: ['pl', 'es'] } as const;
const LANGUAGES = SITE.languages;
const SEED = 6101;
/** Phases of a first pull, one kill in each. */
const FIRST_PULL = ['crawl', 'revisions', 'autosaves', 'media', 'embed'] as const;

/**
 * `pull --backup` SIGKILLed in every phase. Each round starts from the same cache (empty for a
 * first pull; a complete one after deletions on the site for the deletion probes), is killed
 * on the n-th request of one phase in one language (n drawn, seeded, from a clean run's trace
 * of that phase), then run again to the end: the cache must then equal the site — every item
 * of every status, tombstones for what left, revisions, autosaves and media files (sha256).
 * Where each kill landed is checked on the site's request log; the rounds share one site.
 */
/** Per round: a killed pull, a full one, and the comparison, on two busy cores. */
const ROUND_TIMEOUT = 120_000;

describe('reliability: pull killed with SIGKILL in every phase', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  /** Where each kill landed, for the coverage check at the end. */
  const landings: string[] = [];
  const fixture = useSharedSiteAndCache(SITE, 'cms-mirror-rel-');
  beforeAll(() => {
    ({ site, temp } = fixture);
  });

  /** The trace of a clean in-process pull from a copy of `from` (or an empty cache). */
  async function cleanPull(from: string | undefined, name: string) {
    const scratch = join(temp.dir, `${name}.sqlite`);
    if (from !== undefined) copyCache(from, scratch);
    const settings = resolveSettings(
      { site: site.url, lang: LANGUAGES.join(','), cache: scratch, backup: true },
      credentialEnv(site),
    );
    settings.http = { ...settings.http, requestsPerSecond: 0 };
    const start = site.requests.length;
    expect((await pull(settings)).status).toBe('ok');
    return { trace: traceOf(site.requests.slice(start)), cache: scratch };
  }

  /** One round: kill at `point` in a pull of a copy of `from`, pull again, compare. */
  async function round(
    point: KillPoint,
    name: string,
    from: string | undefined,
    before: SiteSnapshot | undefined,
  ): Promise<void> {
    const cache = join(temp.dir, `${name}.sqlite`);
    if (from !== undefined) copyCache(from, cache);
    const env = credentialEnv(site);
    const argv = pullArgs(site, { ...temp, file: cache }, { backup: true });
    const killed = await runChild(argv, { env, cwd: temp.dir, site, killWhen: killAt(point) });
    const landed = killed.killedOn === undefined ? 'nowhere' : placeOf(killed.killedOn.entry);
    const where = `${name}: kill at ${point.place} #${point.nth} landed on ${landed} (request ${killed.killedOn?.index} of the run, ${killed.killedOn?.entry.path})`;
    landings.push(where);
    expect(killed.signal, `${where}\n${killed.stderr}`).toBe('SIGKILL');
    expect(landed, where).toBe(point.place);
    const rerun = await runChild(argv, { env, cwd: temp.dir, site });
    expect(rerun.code, `${where}\n${rerun.stderr}`).toBe(0);
    const store = openStore(cache, { readonly: true });
    try {
      expect(store.checkIntegrity(), where).toEqual([]);
      const compared = await expectCacheEqualsSite(store, site, {
        languages: LANGUAGES,
        backup: true,
        ...(before ? { before } : {}),
      });
      expect(compared, where).toBeGreaterThan(30);
      const backup = expectBackupEqualsSite(store, site, LANGUAGES);
      expect(backup.revisions, where).toBeGreaterThan(0);
      expect(backup.autosaves, where).toBeGreaterThan(0);
      expect(backup.files, where).toBeGreaterThan(0);
      expect(store.syncQueue.counts(), where).toEqual([]);
      const runs = store.runs.list({ command: 'pull' }).map((run) => run.status);
      expect(runs.slice(0, 2), where).toEqual(['ok', 'running']);
    } finally {
      store.close();
    }
  }

  // Languages alternate from a seeded start, so both are hit in the first pulls.
  const offset = Math.floor(createRng(SEED)() * LANGUAGES.length);
  const firstPlaces = FIRST_PULL.map(
    (phase, i) => `${phase} ${LANGUAGES[(offset + i) % LANGUAGES.length]}`,
  );
  let firstTrace: Map<string, number> | undefined;

  it.each(firstPlaces.map((place, index) => ({ place, index })))(
    'a first pull killed in $place resumes and ends equal to the site',
    async ({ index }) => {
      firstTrace ??= (await cleanPull(undefined, 'clean-first')).trace;
      const point = killPointsIn(SEED, firstTrace, firstPlaces)[index]!;
      await round(point, `first-${index}`, undefined, undefined);
    },
    ROUND_TIMEOUT,
  );

  let later: { cache: string; before: SiteSnapshot; trace: Map<string, number> } | undefined;
  /** A complete cache, then deletions, an edit and a new item on the site in each language. */
  async function afterChanges() {
    const complete = (await cleanPull(undefined, 'complete')).cache;
    const before = siteSnapshot(site, LANGUAGES);
    for (const lang of LANGUAGES) {
      const posts = site.control.listItems(lang, 'posts').filter((p) => p.status === 'publish');
      site.control.deleteItem(lang, 'posts', posts[1]!.id);
      site.control.updateItem(lang, 'posts', posts[2]!.id, { title: `Changed in ${lang}` });
      site.control.createItems(lang, 'posts', 1);
    }
    const { trace } = await cleanPull(complete, 'clean-later');
    return { cache: complete, before, trace };
  }

  it.each(LANGUAGES.map((lang, index) => ({ place: `probe ${lang}`, index })))(
    'a pull after deletions killed in $place resumes, tombstones what left and ends equal to the site',
    async ({ index }) => {
      later ??= await afterChanges();
      const places = LANGUAGES.map((lang) => `probe ${lang}`);
      const point = killPointsIn(SEED + 1, later.trace, places)[index]!;
      await round(point, `probe-${index}`, later.cache, later.before);
    },
    ROUND_TIMEOUT,
  );

  it('killed once in every phase and in both languages', () => {
    if (process.env['CMS_TRACE_KILLS']) console.info(`pull kills:\n${landings.join('\n')}`);
    expect(landings).toHaveLength(FIRST_PULL.length + LANGUAGES.length);
    const hit = landings.map((where) => /landed on (\w+) (\w+)/.exec(where)?.slice(1) ?? []);
    for (const phase of [...FIRST_PULL, 'probe'])
      expect(
        hit.map(([p]) => p),
        landings.join('\n'),
      ).toContain(phase);
    for (const lang of LANGUAGES)
      expect(hit.filter(([, l]) => l === lang).length, landings.join('\n')).toBeGreaterThan(1);
  });
});

/** Copies a closed cache (and its WAL, if one was left). */
function copyCache(from: string, to: string): void {
  copyFileSync(from, to);
  if (existsSync(`${from}-wal`)) copyFileSync(`${from}-wal`, `${to}-wal`);
}
