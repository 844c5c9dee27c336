import { describe, expect, it } from 'vitest';
import { CmsMirrorError } from '../../src/errors.js';
import { runPush } from '../../src/push/index.js';
import type { FaultKind } from '../../src/reference/faults.js';
import { openStore } from '../../src/store/index.js';
import { expectCacheEqualsSite } from '../helpers/reliability-compare.js';
import { faultDecisions, faultSpec, FAULT_HTTP } from '../helpers/reliability-faults.js';
import {
  expectPushLanded,
  planPushEdits,
  preparePushCache,
  pushSettings,
  queuedEdits,
  usePushSite,
} from '../helpers/reliability-push.js';

/**
 * A push makes few requests, so at the suite's rates (1% cut bodies) its writes would rarely
 * meet the dangerous faults. Round 0 runs the standard mix; the next rounds aim the faults
 * that can lose the answer to a write at a high rate, until a `batch/v1` write has met each
 * of them (seeded: the same rounds every time).
 */
const MIX = faultSpec(23);
const AIMED: readonly FaultKind[] = ['truncate', 'reset', 'slow', 'error'];
const aimedSpec = (round: number) =>
  `truncate=0.15,reset=0.1,slow=0.08,slowMs=3000,error=0.07,faultSeed=${round}`;
const MAX_ROUNDS = 10;

describe('reliability: push through every kind of fault', () => {
  const fixture = usePushSite();

  it('lands every edit exactly once, re-run after re-run, and the cache equals the site', async () => {
    const { site, temp } = fixture;
    const dir = await preparePushCache(site, temp);
    const settings = pushSettings(site, temp.file, FAULT_HTTP);
    const met = new Set<FaultKind>();
    for (let round = 0; round === 0 || (round < MAX_ROUNDS && met.size < AIMED.length); round++) {
      const spec = round === 0 ? MIX : aimedSpec(round);
      const plan = planPushEdits(site, temp.file, dir, round, {
        updates: 26,
        creates: 4,
        trashes: 1,
        pages: 1,
      });
      const start = site.requests.length;
      site.control.setFaults(spec);
      const outcomes: string[] = [];
      // A write whose answer is lost fails the run (it is never repeated blindly); the
      // next run finds it applied and records it instead of writing it again.
      for (let run = 0; run < 12 && (run === 0 || queuedEdits(temp.file) > 0); run++) {
        try {
          const report = await runPush(settings, { dir });
          outcomes.push(
            `ok pending=${report.pending} failed=${report.failed.length} recovered=${report.recovered}`,
          );
        } catch (error) {
          if (!(error instanceof CmsMirrorError)) throw error;
          outcomes.push(`${error.code}: ${error.message}`);
        }
      }
      const log = site.requests.slice(start);
      site.control.setFaults(undefined);
      const label = `round ${round} (${spec}):\n${outcomes.join('\n')}`;
      expect(queuedEdits(temp.file), label).toBe(0);
      const kinds = faultDecisions(spec, log);
      const faulted = kinds.filter((kind) => kind !== 'none').length;
      if (round === 0) expect(faulted, label).toBeGreaterThan(0);
      log.forEach((entry, i) => {
        if (entry.path === '/batch/v1' && round > 0 && kinds[i] !== 'none') met.add(kinds[i]!);
      });
      expectPushLanded(site, plan);
    }
    // Every fault that can lose a write's answer met a write at least once.
    expect([...met].filter((kind) => kind !== 'none').sort()).toEqual([...AIMED].sort());
    const store = openStore(temp.file, { readonly: true });
    try {
      await expectCacheEqualsSite(store, site, { languages: ['pl'], types: ['posts', 'pages'] });
    } finally {
      store.close();
    }
  });
});
