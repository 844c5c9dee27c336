import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../src/config/settings.js';
import { openStore } from '../../src/store/index.js';
import { pull } from '../../src/sync/index.js';
import { credentialEnv, pullArgs } from '../helpers/cli-args.js';
import { useSiteAndCache } from '../helpers/mirror-fixture.js';
import { startReference } from '../helpers/reference.js';
import { expectCacheEqualsSite } from '../helpers/reliability-compare.js';
import { killMoments, runChild } from '../helpers/reliability-process.js';

const SITE = { posts: 60, languages: ['pl', 'es'] } as const;
const SEED = 6101;
const KILLS = 10;

/**
 * `pull --backup` SIGKILLed at 10 moments, then run to the end. The moments are request
 * counts over the whole sequence of runs, drawn (seeded) from the length of a clean pull of
 * the same site, so they fall anywhere in the crawl: discovery, collection pages, deletion
 * probes, media downloads, revisions, embeds. Each killed run resumes the previous one.
 */
describe('reliability: pull killed with SIGKILL at 10 seeded moments', () => {
  const fixture = useSiteAndCache(SITE, 'cms-mirror-rel-');

  /** Requests of a clean pull of an identical site (in-process, into a scratch cache). */
  async function cleanPullLength(): Promise<number> {
    const twin = await startReference(SITE);
    try {
      const settings = resolveSettings(
        {
          site: twin.url,
          lang: 'pl,es',
          cache: join(fixture.temp.dir, 'twin.sqlite'),
          backup: true,
        },
        { CMS_USER: twin.credentials.user, CMS_APP_PASSWORD: twin.credentials.password },
      );
      settings.http = { ...settings.http, requestsPerSecond: 0 };
      await pull(settings);
      return twin.requests.length;
    } finally {
      await twin.close();
    }
  }

  it('resumes after every kill and ends equal to the site, without duplicates', async () => {
    const { site, temp } = fixture;
    const length = await cleanPullLength();
    expect(length).toBeGreaterThan(100);
    const moments = killMoments(SEED, KILLS, Math.floor(length * 0.9));
    const env = credentialEnv(site);
    const argv = pullArgs(site, temp, { backup: true });
    let sent = 0;
    // What each run did, for the failure messages (the moments are reproducible from SEED).
    const trace: string[] = [`clean length ${length}, moments ${moments.join(' ')}`];
    for (const moment of moments) {
      const killAt = Math.max(1, moment - sent);
      const run = await runChild(argv, { env, cwd: temp.dir, site, killAt });
      sent += run.requests;
      trace.push(
        `kill at ${moment} (${killAt} of its run): ${run.requests} requests, ${run.signal ?? run.code}`,
      );
      expect(run.signal, `${trace.join('\n')}\n${run.stderr}`).toBe('SIGKILL');
    }

    const final = await runChild(argv, { env, cwd: temp.dir, site });
    trace.push(`final run: ${final.requests} requests, exit ${final.code}`);
    expect(final.code, `${trace.join('\n')}\n${final.stderr}`).toBe(0);
    const store = openStore(temp.file, { readonly: true });
    try {
      expect(store.checkIntegrity()).toEqual([]);
      const compared = await expectCacheEqualsSite(store, site, { languages: ['pl', 'es'] });
      expect(compared).toBeGreaterThan(100);
      expect(store.syncQueue.counts(), trace.join('\n')).toEqual([]);
      const runs = store.runs.list({ command: 'pull' });
      expect(
        runs.filter((run) => run.status === 'running'),
        trace.join('\n'),
      ).toHaveLength(KILLS);
    } finally {
      store.close();
    }
    // Idempotent: one more run finds nothing to do.
    const again = await runChild(argv, { env, cwd: temp.dir, site });
    expect(JSON.parse(again.stdout).total, trace.join('\n')).toMatchObject({
      created: 0,
      updated: 0,
      deleted: 0,
    });
  });
});
