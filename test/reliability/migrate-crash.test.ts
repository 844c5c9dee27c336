import { copyFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { migrate } from '../../src/push/index.js';
import { credentialEnv, migrateArgs } from '../helpers/cli-args.js';
import { startReference, type ReferenceSite } from '../helpers/reference.js';
import { expectMigrated, pullSource } from '../helpers/reliability-migrate.js';
import { killMoments, runChild } from '../helpers/reliability-process.js';
import { tempCache, type TempCache } from '../helpers/temp-cache.js';

const SEED = 6303;
const KILLS = 10;
const SOURCE = { posts: 60, languages: ['pl'] } as const;
const EMPTY = { posts: 0, pages: 0, media: 0, languages: ['pl'] } as const;

/**
 * `migrate` SIGKILLed at 10 moments, then run to the end. The moments are request counts at
 * the target over the whole sequence of runs, drawn (seeded) from the length of a clean
 * migration of the same cache: media uploads, page levels, post batches, the seo/v1 copy.
 * Each run resumes the previous one from `id_map` and the slug look-up.
 */
describe('reliability: migrate killed with SIGKILL at 10 seeded moments', () => {
  let source: ReferenceSite;
  let target: ReferenceSite;
  let temp: TempCache;
  beforeEach(async () => {
    source = await startReference(SOURCE);
    target = await startReference({ ...EMPTY, seed: 'target' });
    temp = tempCache('cms-mirror-rel-');
  });
  afterEach(async () => {
    await source.close();
    await target.close();
    temp.cleanup();
  });

  /** Requests a clean migration of a copy of the cache makes at an empty twin target. */
  async function cleanMigrationLength(): Promise<number> {
    const copy = join(temp.dir, 'copy.sqlite');
    copyFileSync(temp.file, copy);
    if (existsSync(`${temp.file}-wal`)) copyFileSync(`${temp.file}-wal`, `${copy}-wal`);
    const twin = await startReference({ ...EMPTY, seed: 'twin' });
    try {
      const report = await migrate({
        fromCache: copy,
        fromLang: 'pl',
        to: twin.url,
        toLang: 'pl',
        credentials: twin.credentials,
        http: { requestsPerSecond: 0 },
      });
      expect(report.failed).toEqual([]);
      return twin.requests.length;
    } finally {
      await twin.close();
    }
  }

  it('resumes after every kill and re-creates the source exactly once', async () => {
    await pullSource(source, temp.file, 'pl');
    const length = await cleanMigrationLength();
    expect(length).toBeGreaterThan(20);
    const moments = killMoments(SEED, KILLS, Math.floor(length * 0.95));
    const env = credentialEnv(target);
    const argv = [...migrateArgs(temp.file, target), '--json'];
    let sent = 0;
    // What each run did, for the failure messages (the moments are reproducible from SEED).
    const trace: string[] = [`clean length ${length}, moments ${moments.join(' ')}`];
    for (const moment of moments) {
      const killAt = Math.max(1, moment - sent);
      const run = await runChild(argv, { env, cwd: temp.dir, site: target, killAt });
      sent += run.requests;
      trace.push(
        `kill at ${moment} (${killAt} of its run): ${run.requests} requests, ${run.signal ?? run.code}`,
      );
      expect(run.signal, `${trace.join('\n')}\n${run.stderr}`).toBe('SIGKILL');
    }
    const final = await runChild(argv, { env, cwd: temp.dir, site: target });
    trace.push(`final run: ${final.requests} requests, exit ${final.code}`);
    expect(final.code, `${trace.join('\n')}\n${final.stderr}`).toBe(0);
    expect(JSON.parse(final.stdout).failed).toEqual([]);
    expectMigrated(source, target, 'pl');

    // Idempotent: one more run creates nothing.
    const again = await runChild(argv, { env, cwd: temp.dir, site: target });
    expect(JSON.parse(again.stdout).created).toEqual({ media: 0, pages: 0, posts: 0 });
    expectMigrated(source, target, 'pl');
  });
});
