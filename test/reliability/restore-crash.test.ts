import { describe, expect, it } from 'vitest';
import { credentialEnv } from '../helpers/cli-args.js';
import { useSiteAndCache } from '../helpers/mirror-fixture.js';
import type { RequestLogEntry } from '../../src/reference/index.js';
import { onRequest, runChild } from '../helpers/reliability-process.js';
import { badDay, expectRestored, onCache, type BadDay } from '../helpers/bad-day-scenario.js';
import { writesLogged } from '../helpers/restore-site.js';

/**
 * `restore --as-of` of the bad day (bad-day-scenario.ts) killed at the moments issue 16 names,
 * then run again: the site must end as after a clean restore, with no duplicates. The moments
 * are the writes of a traced clean run (the site's request log): the file upload, the batch
 * that creates the post again (killed on its arrival, so the site creates it and restore
 * never records the new id), the batch of updates that untrashes, and the relinking batch;
 * and a batch cut part-way (reference fault `batchCut`): its first updates done, no answer.
 */
const WRITES = [
  'POST /cms/v2/media',
  'POST /batch/v1', // creates the deleted post again
  'POST /batch/v1', // updates and untrashing
  'POST /batch/v1', // links and featured images in other items
];

describe('reliability: restore killed at five moments', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-restore-crash-');

  const asOf = (day: BadDay) => ['--as-of', day.before, '--json'];
  const argv = (day: BadDay): string[] => ['restore', ...day.args, ...asOf(day)];

  async function pullAndCheck(day: BadDay): Promise<void> {
    const pulled = await onCache(day, 'pull', ['--backup', '--json']);
    expect(pulled.code, pulled.stderr).toBe(0);
    await expectRestored(day);
  }

  async function finishAndCheck(day: BadDay): Promise<void> {
    const { site } = fixture;
    const rerun = await onCache(day, 'restore', asOf(day));
    expect(rerun.code, rerun.stderr).toBe(0);
    await pullAndCheck(day);
    site.control.clearLog();
    expect((await onCache(day, 'restore', asOf(day))).code).toBe(0);
    expect(writesLogged(site)).toEqual([]);
  }

  it('a clean run writes in the traced order', async () => {
    const { site, temp } = fixture;
    const day = await badDay(site, temp.dir);
    site.control.clearLog();
    expect((await onCache(day, 'restore', asOf(day))).code).toBe(0);
    expect(writesLogged(site)).toEqual(WRITES);
    await pullAndCheck(day);
  }, 240_000);

  for (const [write, moment] of [
    [1, 'after the file upload'],
    [2, 'after the batch that creates, before its new id is recorded'],
    [3, 'during untrashing (the batch of updates)'],
    [4, 'during relinking'],
  ] as const) {
    it(`killed ${moment}, a re-run ends the same without duplicates`, async () => {
      const { site, temp } = fixture;
      const day = await badDay(site, temp.dir);
      let writes = 0;
      const isWrite = (entry: RequestLogEntry) => entry.method !== 'GET' && entry.method !== 'HEAD';
      const killed = await runChild(argv(day), {
        env: credentialEnv(site),
        cwd: temp.dir,
        site,
        killWhen: (entry) => isWrite(entry) && ++writes === write,
      });
      expect(killed.signal, killed.stderr).toBe('SIGKILL');
      const on = killed.killedOn!.entry;
      expect(`${on.method} ${on.path}`).toBe(WRITES[write - 1]);
      await finishAndCheck(day);
    }, 240_000);
  }

  it('a batch of updates cut part-way (no answer), then a re-run, ends the same', async () => {
    const { site, temp } = fixture;
    const day = await badDay(site, temp.dir);
    let batches = 0;
    // Once the creating batch has been answered, every later batch stops after 3 updates.
    const stop = onRequest(site, () => {
      const entry = site.requests[site.requests.length - 1]!;
      if (entry.path === '/batch/v1') batches += 1;
      else if (batches === 1) site.control.setFaults('batchCut=3');
    });
    try {
      const cut = await runChild(argv(day), { env: credentialEnv(site), cwd: temp.dir, site });
      expect(cut.code, cut.stderr).not.toBe(0);
      expect(batches).toBeGreaterThanOrEqual(2);
    } finally {
      stop();
      site.control.setFaults(undefined);
    }
    await finishAndCheck(day);
  }, 240_000);
});
