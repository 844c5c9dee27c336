import { describe, expect, it } from 'vitest';
import { runPush } from '../../src/push/index.js';
import { openStore } from '../../src/store/index.js';
import { expectCacheEqualsSite } from '../helpers/reliability-compare.js';
import { killPoints, runChild } from '../helpers/reliability-process.js';
import {
  expectPushLanded,
  planPushEdits,
  preparePushCache,
  pushSettings,
  queuedEdits,
  usePushSite,
  type EditCounts,
} from '../helpers/reliability-push.js';
import { credentialEnv } from '../helpers/cli-args.js';

const SEED = 6202;
const KILLS = 10;
const COUNTS: EditCounts = { updates: 26, creates: 4, trashes: 1, pages: 1 };

/**
 * `push` SIGKILLed at 10 seeded moments. A push makes few requests (discovery, credential
 * check, conflict and create look-ups, two batch calls), so each moment gets its own round
 * of edits: the round's push is killed when the site receives its n-th request (n drawn from
 * the length of a clean push), then pushed again; the site must hold each edit exactly once.
 * A kill on a batch call leaves the site with writes the cache never heard of.
 */
describe('reliability: push killed with SIGKILL at 10 seeded moments', () => {
  const fixture = usePushSite();

  it('a re-run after each kill lands every edit once, and the cache equals the site', async () => {
    const { site, temp } = fixture;
    const dir = await preparePushCache(site, temp);
    const settings = pushSettings(site, temp.file);
    const env = credentialEnv(site);
    const argv = ['push', '--site', site.url, '--lang', 'pl', '--cache', temp.file, '--dir', dir];

    // Round 0, clean: how many requests a push of one round of edits makes.
    const plan0 = planPushEdits(site, temp.file, dir, 0, COUNTS);
    const start = site.requests.length;
    expect((await runPush(settings, { dir })).pending).toBe(0);
    const length = site.requests.length - start;
    expect(site.requests.slice(start).filter((r) => r.path === '/batch/v1')).toHaveLength(2);
    expectPushLanded(site, plan0);

    const moments = killPoints(SEED, KILLS, length);
    const killedOnBatch: number[] = [];
    for (const [index, killAt] of moments.entries()) {
      const round = index + 1;
      const plan = planPushEdits(site, temp.file, dir, round, COUNTS);
      const before = site.requests.length;
      const killed = await runChild(argv, { env, cwd: temp.dir, site, killAt });
      expect(killed.signal, `round ${round}: killed at request ${killAt}\n${killed.stderr}`).toBe(
        'SIGKILL',
      );
      if (site.requests[before + killAt - 1]?.path === '/batch/v1') killedOnBatch.push(killAt);
      const rerun = await runPush(settings, { dir });
      expect(rerun.invalid, `round ${round}`).toEqual([]);
      expect(
        rerun.conflicts.map((c) => c.message),
        `round ${round}`,
      ).toEqual([]);
      expect(rerun.failed, `round ${round}`).toEqual([]);
      expect(queuedEdits(temp.file), `round ${round}`).toBe(0);
      expectPushLanded(site, plan);
    }
    // Some kills came while a write was being applied: the dangerous moment was exercised.
    expect(killedOnBatch.length).toBeGreaterThan(0);
    const store = openStore(temp.file, { readonly: true });
    try {
      await expectCacheEqualsSite(store, site, { languages: ['pl'], types: ['posts', 'pages'] });
    } finally {
      store.close();
    }
  }, 180_000); // 10 rounds of two child processes each, on two busy cores
});
