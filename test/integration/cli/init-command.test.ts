import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveSettings } from '../../../src/config/settings.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { itemsCount, startTinyServer } from '../../helpers/bad-input-harness.js';
import { credentialEnv } from '../../helpers/cli-args.js';

describe('cms-mirror init', () => {
  const fixture = useSiteAndCache({}, 'cms-mirror-init-');

  it('checks the index, writes a commented file that loads and leads to a working pull', async () => {
    const { site, temp } = fixture;
    const init = await runCliCaptured(['init', '--site', site.url, '--lang', 'pl,es'], {
      cwd: temp.dir,
      env: credentialEnv(site),
    });
    expect(init.code, init.stderr).toBe(0);
    const file = join(temp.dir, 'cms-mirror.yaml');
    expect(init.stdout).toContain(`init: wrote ${file} for ${site.url} (pl, es`);
    // The index of each language was read before writing, and nothing else.
    expect(site.requests.map((entry) => `${entry.lang} ${entry.path}`).sort()).toEqual([
      'es /',
      'pl /',
    ]);
    const text = readFileSync(file, 'utf8');
    expect(text).toContain(`site: "${site.url}"`);
    expect(text).toContain('languages: [pl, es]');
    expect(text).not.toContain(site.credentials.password);
    expect(text).not.toContain(site.credentials.user);
    expect(text).toContain('CMS_APP_PASSWORD');

    const settings = resolveSettings({ pipeline: file }, {}, '/');
    expect(settings.site).toBe(site.url);
    expect(settings.cache).toBe(join(temp.dir, 'cache', 'cms-mirror.sqlite'));

    const pulled = await runCliCaptured(['pull', '--pipeline', 'cms-mirror.yaml', '--json'], {
      cwd: temp.dir,
      env: credentialEnv(site),
    });
    expect(pulled.code, pulled.stderr).toBe(0);
    expect(itemsCount(settings.cache)).toBeGreaterThan(20);
  });

  it('refuses to overwrite an existing file without --force, before any request', async () => {
    const { site, temp } = fixture;
    const file = join(temp.dir, 'mine.yaml');
    writeFileSync(file, '# my settings\n');
    const refused = await runCliCaptured(
      ['init', '--site', site.url, '--lang', 'pl', '--out', 'mine.yaml'],
      { cwd: temp.dir },
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim()).toBe(
      `cms-mirror: ${file} already exists: give --force to overwrite it, or --out another file`,
    );
    expect(readFileSync(file, 'utf8')).toBe('# my settings\n');
    expect(site.requests).toEqual([]);

    const forced = await runCliCaptured(
      ['init', '--site', site.url, '--lang', 'pl', '--out', 'mine.yaml', '--force'],
      { cwd: temp.dir },
    );
    expect(forced.code, forced.stderr).toBe(0);
    expect(readFileSync(file, 'utf8')).toContain('languages: [pl]');
  });

  it('a URL that is not a cms-json site is a one-line SiteError (exit 2) and no file is written', async () => {
    const { temp } = fixture;
    const html = await startTinyServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html' });
      res.end('<html><body>blog</body></html>');
    });
    try {
      const result = await runCliCaptured(['init', '--site', html.url, '--lang', 'pl'], {
        cwd: temp.dir,
      });
      expect(result.code).toBe(2);
      expect(result.stderr.trim().split('\n')).toEqual([
        expect.stringMatching(
          new RegExp(
            `^cms-mirror: ${html.url}/pl/cms-json/ is not a cms-json site: expected JSON, got text/html`,
          ),
        ),
      ]);
      expect(existsSync(join(temp.dir, 'cms-mirror.yaml'))).toBe(false);
    } finally {
      await html.close();
    }
  });

  it('a bad --site or --lang is a usage error naming the flag', async () => {
    const { site, temp } = fixture;
    const badSite = await runCliCaptured(['init', '--site', 'ftp://example.org', '--lang', 'pl'], {
      cwd: temp.dir,
    });
    expect(badSite.code).toBe(2);
    expect(badSite.stderr).toContain('flag --site');
    const badLang = await runCliCaptured(['init', '--site', site.url, '--lang', 'p l/..'], {
      cwd: temp.dir,
    });
    expect(badLang.code).toBe(2);
    expect(badLang.stderr).toContain('flag --lang');
    expect(existsSync(join(temp.dir, 'cms-mirror.yaml'))).toBe(false);
  });

  it('without --site it writes a file to fill in, and says so', async () => {
    const { temp } = fixture;
    const result = await runCliCaptured(['init', '--out', 'blank.yaml'], { cwd: temp.dir });
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('fill in site and languages (not checked against a site)');
    const settings = resolveSettings({ pipeline: join(temp.dir, 'blank.yaml') }, {}, '/');
    expect(settings.site).toBeUndefined();
  });
});
