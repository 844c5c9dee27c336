/**
 * A library caller gets the steps that change the output through `build({ trace })`, as the
 * crash tests get them from a child process through `CMS_MIRROR_BUILD_TRACE`: every file is
 * staged before the language's switch is committed, and switched after.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { build, pull, resolveSettings } from '../../../src/index.js';
import { credentialEnv, unpacedPipeline } from '../../helpers/cli-args.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';

describe('build({ trace })', () => {
  const fixture = useSiteAndCache();

  it('is called for every staged file, the commit and the switch, in that order', async () => {
    const { site, temp } = fixture;
    const out = join(temp.dir, 'out');
    const settings = resolveSettings(
      { pipeline: unpacedPipeline(temp.dir), site: site.url, lang: 'pl', cache: temp.file, out },
      credentialEnv(site),
      temp.dir,
    );
    await pull({ settings });
    const steps: string[] = [];
    await build({ settings, trace: (step) => steps.push(step) });

    const staged = steps.filter((step) => step.startsWith('stage pl '));
    const written = readdirSync(join(out, 'pl'), { recursive: true, withFileTypes: true }).filter(
      (entry) => entry.isFile(),
    );
    // A first build stages every file it writes.
    expect(staged.length).toBe(written.length);
    expect(staged).toContain('stage pl index.html');
    const commit = steps.indexOf('commit pl');
    expect(commit).toBeGreaterThan(steps.lastIndexOf(staged.at(-1)!));
    expect(steps.at(-1)).toBe('switched pl');
    expect(steps.indexOf('switched pl')).toBeGreaterThan(commit);
  }, 120_000); // a whole pull and a first build in the test's process: a minute on busy cores
});
