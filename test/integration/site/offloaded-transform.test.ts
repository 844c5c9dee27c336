/**
 * A full run transforms the languages after the first in a worker thread, with a connection of
 * its own to the cache, while the main thread transforms the first. What that worker stores,
 * and what the build then writes, must be exactly what a transform on the main thread gives.
 */
import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { transformElsewhere } from '../../../src/transform/offloaded-transform.js';
import { runBuild } from '../../../src/site/run-build.js';
import { resolveSettings } from '../../../src/config/settings.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { runTransform } from '../../../src/transform/transform-runner.js';
import { walkFiles } from '../../helpers/link-check.js';
import { useSharedSiteAndCache } from '../../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../../helpers/reference.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { credentialEnv } from '../../helpers/cli-args.js';

const LANGUAGES = ['pl', 'es'];

describe('transforms in a worker thread', () => {
  let site: ReferenceSite;
  let temp: TempCache;

  const fixture = useSharedSiteAndCache({}, 'cms-mirror-offload-');

  beforeAll(() => {
    ({ site, temp } = fixture);
    fs.writeFileSync(path.join(temp.dir, 'pipeline.yaml'), 'http:\n  requestsPerSecond: 0\n');
  });

  /** A fresh cache of the whole site, pulled by the CLI. */
  async function pulled(name: string): Promise<string> {
    const cache = path.join(temp.dir, `${name}.sqlite`);
    const result = await runCliCaptured(
      [
        ...['pull', '--pipeline', path.join(temp.dir, 'pipeline.yaml'), '--site', site.url],
        ...['--lang', LANGUAGES.join(','), '--cache', cache],
      ],
      {
        env: credentialEnv(site),
        cwd: temp.dir,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    return cache;
  }

  function homeUrl(store: Store, lang: string): string {
    return (store.siteInfo.get(lang)?.data as { home: string }).home;
  }

  /** The stored transform output of every item of a language, without its timestamp. */
  function outputs(store: Store, lang: string): unknown[] {
    return ['pages', 'posts'].flatMap((type) =>
      store.items
        .listIds(lang, type as 'pages' | 'posts')
        .map(({ id }) => store.transformed.get(lang, type as 'pages' | 'posts', id))
        .filter((row) => row !== undefined)
        .map(({ transformedAt: _at, ...row }) => row),
    );
  }

  it('stores exactly what a transform on this thread stores', async () => {
    const offloaded = openStore(await pulled('offloaded'));
    const here = openStore(await pulled('here'));
    try {
      const started = transformElsewhere(
        offloaded,
        LANGUAGES.map((lang) => ({ lang, homeUrl: homeUrl(offloaded, lang) })),
        1,
      );
      // The first language stays with the caller; only the others go to the worker.
      expect([...(started?.languages ?? [])]).toEqual(['es']);
      const done = await started!.done;
      expect(done.get('es')).toBeGreaterThan(10);

      runTransform(here, { lang: 'es', homeUrl: homeUrl(here, 'es') });
      const stored = outputs(offloaded, 'es');
      expect(stored.length).toBeGreaterThan(10);
      expect(stored).toEqual(outputs(here, 'es'));
    } finally {
      offloaded.close();
      here.close();
    }
  });

  it('builds byte for byte what a run transforming on one thread builds', async () => {
    const build = async (name: string, offloadFrom: number) => {
      const settings = resolveSettings(
        {
          cache: await pulled(name),
          out: path.join(temp.dir, `${name}-output`),
          lang: LANGUAGES.join(','),
        },
        {},
      );
      const store = openStore(settings.cache);
      try {
        const summary = await runBuild(store, settings, { offloadTransformFrom: offloadFrom });
        return { summary, output: settings.output };
      } finally {
        store.close();
      }
    };
    const split = await build('split', 1);
    const single = await build('single', Number.POSITIVE_INFINITY);
    for (const lang of LANGUAGES) {
      expect(split.summary.languages[lang]?.transformed).toBe(
        single.summary.languages[lang]?.transformed,
      );
    }
    const files = walkFiles(single.output).sort();
    expect(files.length).toBeGreaterThan(50);
    expect(walkFiles(split.output).sort()).toEqual(files);
    const differing = files.filter(
      (file) =>
        !fs
          .readFileSync(path.join(split.output, file))
          .equals(fs.readFileSync(path.join(single.output, file))),
    );
    expect(differing).toEqual([]);
  });
});
