/**
 * A run's pull and build share one connection to the cache: a second open read the schema
 * again, and the pull's close checkpointed the WAL only for the build to open it anew
 * (test/bench/RESULTS.md, i-noop8). The connection is still opened only once the site's checks
 * have passed, so a wrong password leaves no file behind.
 */
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { resolveSettings, run } from '../../../src/index.js';
import type * as storeModule from '../../../src/store/index.js';
import { openStore } from '../../../src/store/index.js';
import { credentialEnv, unpacedPipeline } from '../../helpers/cli-args.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';

vi.mock('../../../src/store/index.js', async (original) => {
  const actual = await original<typeof storeModule>();
  return { ...actual, openStore: vi.fn(actual.openStore) };
});

/** How many times `openStore` was asked for `file` since the last call. */
function opensOf(file: string): number {
  const opens = vi
    .mocked(openStore)
    .mock.calls.filter(([opened]) => resolve(opened) === resolve(file)).length;
  vi.mocked(openStore).mockClear();
  return opens;
}

describe('a run and its cache', () => {
  const fixture = useSiteAndCache({ posts: 12 });

  it('opens the cache once for the pull and the build, whether the build renders or skips', async () => {
    const { site, temp } = fixture;
    const settings = resolveSettings(
      {
        pipeline: unpacedPipeline(temp.dir),
        site: site.url,
        lang: 'pl,es',
        cache: temp.file,
        out: join(temp.dir, 'out'),
      },
      credentialEnv(site),
      temp.dir,
    );
    opensOf(temp.file);

    const first = await run({ settings });
    expect(first.build.languages['pl']?.skipped).toBe(false);
    expect(first.build.total.written).toBeGreaterThan(0);
    expect(opensOf(temp.file)).toBe(1);

    const noOp = await run({ settings });
    expect(noOp.pull.changed).toEqual({ pl: 0, es: 0 });
    expect(noOp.build.languages['pl']?.skipped).toBe(true);
    expect(noOp.build.languages['es']?.skipped).toBe(true);
    expect(opensOf(temp.file)).toBe(1);

    // And closed at the end: closing SQLite's last connection checkpoints and removes the WAL.
    expect(existsSync(`${temp.file}-wal`)).toBe(false);
  });

  it('opens no cache when the site refuses the credentials', async () => {
    const { site, temp } = fixture;
    const file = join(temp.dir, 'refused', 'cache.sqlite');
    const settings = resolveSettings(
      {
        pipeline: unpacedPipeline(temp.dir),
        site: site.url,
        lang: 'pl,es',
        cache: file,
        out: join(temp.dir, 'out'),
      },
      { CMS_USER: site.credentials.user, CMS_APP_PASSWORD: 'wrong wrong wrong wrong' },
      temp.dir,
    );
    opensOf(file);
    await expect(run({ settings })).rejects.toMatchObject({ exitCode: 2 });
    expect(opensOf(file)).toBe(0);
    expect(existsSync(file)).toBe(false);
  });
});
