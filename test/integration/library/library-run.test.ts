import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import * as library from '../../../src/index.js';
import { resolveSettings, run } from '../../../src/index.js';
import { credentialEnv, unpacedPipeline } from '../../helpers/cli-args.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';

/** Every file under `dir` whose text contains `needle`, relative to `dir`. */
function filesContaining(dir: string, needle: string): string[] {
  const found: string[] = [];
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (!entry.isFile() || !entry.name.endsWith('.html')) continue;
    const file = join(entry.parentPath, entry.name);
    if (readFileSync(file, 'utf8').includes(needle)) found.push(relative(dir, file));
  }
  return found;
}

describe('the library, used the documented way', () => {
  const fixture = useSiteAndCache();

  it('run() pulls then builds what changed; the result says what each step did', async () => {
    const { site, temp } = fixture;
    const out = join(temp.dir, 'out');
    const settings = resolveSettings(
      {
        pipeline: unpacedPipeline(temp.dir),
        site: site.url,
        lang: 'pl,es',
        cache: temp.file,
        out,
      },
      credentialEnv(site),
      temp.dir,
    );

    const first = await run({ settings });
    expect(first.status).toBe('ok');
    expect(Object.keys(first.pull.languages)).toEqual(['pl', 'es']);
    expect(first.pull.changed['pl']).toBeGreaterThan(0);
    for (const lang of ['pl', 'es']) {
      const built = first.build.languages[lang];
      expect(built?.skipped).toBe(false);
      expect(built?.written).toBeGreaterThan(0);
      expect(built?.index).toBe(join(out, lang, 'index.html'));
    }

    // Nothing changed on the site: the pull says so and the build skips both languages.
    const second = await run({ settings });
    expect(second.pull.changed).toEqual({ pl: 0, es: 0 });
    expect(second.build.languages['pl']?.skipped).toBe(true);
    expect(second.build.languages['es']?.skipped).toBe(true);

    // One post changed in pl: exactly that language is built again, with the new title.
    const post = site.control.listItems('pl', 'posts').find((item) => item.status === 'publish');
    expect(post).toBeDefined();
    const title = 'Changed through the library test';
    site.control.updateItem('pl', 'posts', post!.id, { title });
    expect(filesContaining(join(out, 'pl'), title)).toEqual([]);
    const third = await run({ settings });
    expect(third.pull.changed).toEqual({ pl: 1, es: 0 });
    expect(third.build.languages['pl']?.skipped).toBe(false);
    expect(third.build.languages['es']?.skipped).toBe(true);
    expect(filesContaining(join(out, 'pl'), title).length).toBeGreaterThan(0);
  }, 180_000);

  it('keeps the cache internal: no Store, no store opener, no CLI helpers at the entry', () => {
    for (const name of [
      'openStore',
      'Store',
      'runBuild',
      'runPush',
      'parseDuration',
      'requireSite',
    ])
      expect(Object.keys(library)).not.toContain(name);
    for (const name of ['pull', 'build', 'run', 'status', 'verify', 'backup', 'checkout', 'push'])
      expect(typeof (library as Record<string, unknown>)[name]).toBe('function');
  });
});
