import { beforeEach, describe, expect, it } from 'vitest';
import { resolveSettings, type Settings } from '../../src/config/settings.js';
import { openStore } from '../../src/store/index.js';
import { pull } from '../../src/sync/index.js';
import { useSiteAndCache } from '../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../helpers/reference.js';
import { expectCacheEqualsSite } from '../helpers/reliability-compare.js';
import { faultCounts, faultSpec, FAULT_HTTP } from '../helpers/reliability-faults.js';
import type { TempCache } from '../helpers/temp-cache.js';
import { credentialEnv } from '../helpers/cli-args.js';

const SPEC = faultSpec(14); // a seed whose sequence meets every kind of fault in this pull

describe('reliability: pull through every kind of fault', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  const fixture = useSiteAndCache({ posts: 40, faults: SPEC }, 'cms-mirror-rel-');
  beforeEach(() => {
    ({ site, temp } = fixture);
  });

  function settings(): Settings {
    const resolved = resolveSettings(
      { site: site.url, lang: 'pl,es', cache: temp.file, backup: true },
      credentialEnv(site),
    );
    resolved.http = { ...resolved.http, ...FAULT_HTTP };
    return resolved;
  }

  it('ends with the cache equal to the site, after 5xx, 429, resets, cut bodies and hangs', async () => {
    const summary = await pull(settings());
    expect(summary.status).toBe('ok');
    // Every kind of fault was met (and survived), so the run proves something.
    const seen = faultCounts(SPEC, site.requests);
    for (const kind of ['error', '429', 'reset', 'truncate', 'slow'] as const)
      expect(seen[kind], `${kind} faults met`).toBeGreaterThan(0);

    // Changes while faults continue: a second pull brings them in through the same faults.
    const [first] = site.control.listItems('pl', 'posts');
    site.control.updateItem('pl', 'posts', first!.id, { title: 'Zmieniony w czasie awarii' });
    site.control.createItems('es', 'posts', 3);
    const [page] = site.control.listItems('es', 'pages');
    site.control.deleteItem('es', 'pages', page!.id);
    const second = await pull(settings());
    expect(second.status).toBe('ok');
    expect(second.total.created).toBeGreaterThanOrEqual(3);

    const store = openStore(temp.file, { readonly: true });
    try {
      expect(store.checkIntegrity()).toEqual([]);
      const compared = await expectCacheEqualsSite(store, site, { languages: ['pl', 'es'] });
      expect(compared).toBeGreaterThan(100);
      expect(store.syncQueue.counts()).toEqual([]);
    } finally {
      store.close();
    }
  });
});
