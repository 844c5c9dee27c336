/**
 * The cache records one last build per language, but `--out` may change between builds: a
 * build into another folder must not make the next build of the first folder trust a record
 * that describes the other. Each language folder carries the stamp of the build it holds
 * (`{out}/.cms-mirror/{lang}.stamp`); a folder whose stamp is not the record's is rebuilt.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageFileOf, sitePathOfLink, startMirror, type Mirror } from '../../helpers/e2e-site.js';
import { walkFiles } from '../../helpers/link-check.js';
import { getJson, type Json } from '../../helpers/reference.js';
import { runCliCaptured } from '../../helpers/run-cli.js';

describe('builds into two output folders from one cache', () => {
  let mirror: Mirror;
  let target: { id: number; file: string };

  beforeAll(async () => {
    mirror = await startMirror();
    const listed = await getJson(mirror.site, 'pl', '/cms/v2/posts', { query: { per_page: 20 } });
    const post = (listed.body as Json[]).find((item) => !item.content.protected) as Json;
    target = {
      id: post.id as number,
      file: pageFileOf(sitePathOfLink(mirror.site, 'pl', post.link as string)),
    };
    await mirror.run();
  }, 120_000);
  afterAll(async () => {
    await mirror?.close();
  });

  async function cli(args: string[]): Promise<void> {
    const result = await runCliCaptured(
      [
        ...args,
        ...['--pipeline', path.join(mirror.temp.dir, 'pipeline.yaml')],
        ...['--lang', 'pl,es', '--cache', mirror.cacheFile, '--json'],
      ],
      { env: mirror.env, cwd: mirror.temp.dir },
    );
    expect(result.code, result.stderr).toBe(0);
  }

  function expectSame(a: string, b: string): void {
    for (const lang of ['pl', 'es']) {
      const files = walkFiles(path.join(b, lang)).sort();
      expect(walkFiles(path.join(a, lang)).sort(), lang).toEqual(files);
      const differing = files.filter(
        (file) =>
          !fs
            .readFileSync(path.join(a, lang, file))
            .equals(fs.readFileSync(path.join(b, lang, file))),
      );
      expect(differing, lang).toEqual([]);
    }
  }

  it('a run into the first folder after a build into another brings it up to date', async () => {
    const title = 'Tytuł zbudowany gdzie indziej';
    mirror.site.control.updateItem('pl', 'posts', target.id, { title });
    await cli(['pull', '--site', mirror.site.url]);
    const other = path.join(mirror.temp.dir, 'other');
    await cli(['build', '--out', other]);
    expect(fs.readFileSync(path.join(other, 'pl', target.file), 'utf8')).toContain(title);

    // The pull finds nothing new; the record is the other folder's build.
    const run = await mirror.run();
    expect(run.pull.total).toMatchObject({ created: 0, updated: 0, deleted: 0 });
    expect(run.build.languages['pl']?.skipped).toBe(false);
    expect(fs.readFileSync(path.join(mirror.outDir, 'pl', target.file), 'utf8')).toContain(title);
    expectSame(mirror.outDir, other);
  });

  it('a build into the first folder after a build into another writes what a full build does', async () => {
    const title = 'Drugi tytuł zbudowany gdzie indziej';
    mirror.site.control.updateItem('pl', 'posts', target.id, { title });
    await cli(['pull', '--site', mirror.site.url]);
    const other = path.join(mirror.temp.dir, 'other-2');
    await cli(['build', '--out', other]);
    await cli(['build', '--out', mirror.outDir]);
    expect(fs.readFileSync(path.join(mirror.outDir, 'pl', target.file), 'utf8')).toContain(title);
    expectSame(mirror.outDir, other);
  });
});
