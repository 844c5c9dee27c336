import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { CmsMirrorError } from '../../src/errors.js';
import { migrate, type MigrateReport } from '../../src/migrate/index.js';
import type { FaultKind } from '../../src/reference/faults.js';
import { useSiteAndCache } from '../helpers/mirror-fixture.js';
import { startReference, type ReferenceSite } from '../helpers/reference.js';
import { faultDecisions, faultSpec, FAULT_HTTP } from '../helpers/reliability-faults.js';
import { expectMigrated, pullSource } from '../helpers/reliability-migrate.js';
import type { TempCache } from '../helpers/temp-cache.js';

/**
 * Round 0 runs the standard mix; the next rounds aim the faults that can lose the answer to
 * a write at a high rate (a migration of a small site makes few writes), each on a fresh
 * empty target, until a write has met each of them (seeded: the same rounds every time).
 */
const MIX = faultSpec(31);
const AIMED: readonly FaultKind[] = ['truncate', 'reset', 'slow', 'error'];
const aimedSpec = (round: number) =>
  `truncate=0.15,reset=0.1,slow=0.08,slowMs=3000,error=0.07,faultSeed=${round}`;
const MAX_ROUNDS = 10;

describe('reliability: migrate through every kind of fault', () => {
  let source: ReferenceSite;
  let temp: TempCache;
  const targets: ReferenceSite[] = [];
  const fixture = useSiteAndCache({ posts: 30, languages: ['pl'] }, 'cms-mirror-rel-');
  beforeEach(() => {
    ({ site: source, temp } = fixture);
  });
  afterEach(async () => {
    for (const target of targets.splice(0)) await target.close();
  });

  it('re-creates the source exactly once on the target, re-run after re-run', async () => {
    await pullSource(source, temp.file, 'pl');
    const met = new Set<FaultKind>();
    for (let round = 0; round === 0 || (round < MAX_ROUNDS && met.size < AIMED.length); round++) {
      const spec = round === 0 ? MIX : aimedSpec(round);
      const target = await startReference({
        posts: 0,
        pages: 0,
        media: 0,
        languages: ['pl'],
        seed: `target-${round}`,
        faults: spec,
      });
      targets.push(target);
      const outcomes: string[] = [];
      let done = false;
      for (let run = 0; run < 12 && !done; run++) {
        try {
          const report: MigrateReport = await migrate({
            fromCache: temp.file,
            fromLang: 'pl',
            to: target.url,
            toLang: 'pl',
            credentials: target.credentials,
            http: FAULT_HTTP,
          });
          done = report.failed.length === 0;
          outcomes.push(
            `created=${JSON.stringify(report.created)} recovered=${report.recovered} failed=${report.failed.length}`,
          );
        } catch (error) {
          if (!(error instanceof CmsMirrorError)) throw error;
          outcomes.push(`${error.code}: ${error.message}`);
        }
      }
      const log = [...target.requests];
      target.control.setFaults(undefined);
      const label = `round ${round} (${spec}):\n${outcomes.join('\n')}`;
      expect(done, label).toBe(true);
      const kinds = faultDecisions(spec, log);
      if (round === 0)
        expect(kinds.filter((kind) => kind !== 'none').length, label).toBeGreaterThan(0);
      log.forEach((entry, i) => {
        if (entry.method === 'POST' && round > 0 && kinds[i] !== 'none') met.add(kinds[i]!);
      });
      expectMigrated(source, target, 'pl');
    }
    // Every fault that can lose a write's answer met a write at least once.
    expect([...met].filter((kind) => kind !== 'none').sort()).toEqual([...AIMED].sort());
  });
});
