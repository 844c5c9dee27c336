import { describe, expect, it } from 'vitest';
import { openStore } from '../../../src/store/index.js';
import { pull } from '../../../src/sync/index.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import {
  expectItemsEqual,
  expectMediaFiles,
  expectRevisionsEqual,
  settingsFor,
} from '../../helpers/mirror-check.js';

describe('pull through an unreliable site', () => {
  // The site keeps idle connections open far longer than any stall of this process: a request
  // sent on a connection the site closes as it arrives is never read (no log entry) and is sent
  // again, so the count below would exceed the log by one. Under load (a starved event loop
  // runs undici's 3 s idle timer late) a connection idle for > 5 s was reused this way.
  const fixture = useSiteAndCache({
    faults: 'latency=5ms,error=0.1,429=0.05,reset=0.02',
    keepAliveTimeoutMs: 120_000,
  });

  it('completes with latency, 500s, 429s and dropped connections, and the cache equals the site', async () => {
    const { site, temp } = fixture;
    const settings = settingsFor(site, temp.file, { backup: true });
    // A fault rate of ~17% per attempt: ten retries make a give-up (0.17^11) negligible.
    settings.http = { ...settings.http, retries: 10 };
    const summary = await pull(settings);
    expect(summary.status).toBe('ok');
    const faulted = site.requests.filter(
      (r) => r.status === 0 || r.status === 500 || r.status === 429,
    );
    expect(faulted.length).toBeGreaterThan(5);
    // Retries were sent and counted as requests.
    expect(summary.total.requests).toBe(site.requests.length);

    site.control.setFaults(undefined);
    const store = openStore(temp.file, { readonly: true });
    try {
      await expectItemsEqual(store, site, ['pl', 'es'], 'edit');
      expectRevisionsEqual(store, site, ['pl', 'es']);
      expectMediaFiles(store, site, ['pl', 'es'], 'edit');
      expect(store.syncQueue.counts()).toEqual([]);
    } finally {
      store.close();
    }
  });
});
