import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ConfigError } from '../../../src/errors.js';
import { credentialsFromEnv, requireSite, resolveSettings } from '../../../src/config/settings.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'cms-mirror-config-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, text: string): string {
  const file = path.join(dir, name);
  writeFileSync(file, text);
  return file;
}

function configError(fn: () => unknown): ConfigError {
  try {
    fn();
  } catch (error) {
    if (error instanceof ConfigError) return error;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('resolveSettings', () => {
  it('reads a YAML pipeline and resolves its paths against the file', () => {
    const file = write(
      'demo.yaml',
      'site: http://127.0.0.1:8787/\nlanguages: [pl, es]\ncache: ../cache/demo.sqlite\nhttp:\n  concurrency: 3\n',
    );
    const settings = resolveSettings({ pipeline: file }, {}, '/somewhere/else');
    expect(settings.site).toBe('http://127.0.0.1:8787');
    expect(settings.languages).toEqual(['pl', 'es']);
    expect(settings.cache).toBe(path.resolve(dir, '../cache/demo.sqlite'));
    expect(settings.http).toEqual({
      concurrency: 3,
      requestsPerSecond: 20,
      timeoutMs: 30_000,
      retries: 5,
    });
    expect(settings.push.validation).toBe('require-all-validate');
    expect(settings.credentials).toBeUndefined();
  });

  it('reads YAML beyond the plain forms with the yaml package (an anchor and its alias)', () => {
    const file = write(
      'anchored.yaml',
      'site: &site https://example.org\nbuild:\n  publicUrl: *site\nhttp: {concurrency: 2}\n',
    );
    const settings = resolveSettings({ pipeline: file }, {}, dir);
    expect(settings.site).toBe('https://example.org');
    expect(settings.build.publicUrl).toBe('https://example.org');
    expect(settings.http.concurrency).toBe(2);
  });

  it('reads a JSON pipeline', () => {
    const file = write(
      'p.json',
      JSON.stringify({ site: 'https://example.org', languages: ['es'] }),
    );
    expect(resolveSettings({ pipeline: file }, {}, dir).languages).toEqual(['es']);
  });

  it('lets flags override the file, resolving flag paths against the working directory', () => {
    const file = write('p.yaml', 'site: http://a.example\nlanguages: [pl]\ncache: c.sqlite\n');
    const settings = resolveSettings(
      { pipeline: file, site: 'http://b.example', lang: 'es, pl', cache: 'x.sqlite', out: 'site' },
      {},
      '/work',
    );
    expect(settings.site).toBe('http://b.example');
    expect(settings.languages).toEqual(['es', 'pl']);
    expect(settings.cache).toBe('/work/x.sqlite');
    expect(settings.output).toBe('/work/site');
  });

  it('names the file and every bad field in one error', () => {
    const file = write('bad.yaml', 'site: ftp://x\nhttp:\n  concurrency: "many"\nlanguages: []\n');
    const error = configError(() => resolveSettings({ pipeline: file }, {}, dir));
    expect(error.exitCode).toBe(2);
    expect(error.message).toContain(file);
    expect(error.message).toContain('field "site"');
    expect(error.message).toContain('field "http.concurrency"');
    expect(error.message).toContain('field "languages"');
    expect(error.message).not.toContain('\n');
  });

  it('rejects unknown keys, nested ones too', () => {
    const file = write('typo.yaml', 'sites: http://x.example\nhttp:\n  concurency: 2\n');
    const error = configError(() => resolveSettings({ pipeline: file }, {}, dir));
    expect(error.message).toContain('unknown field "sites"');
    expect(error.message).toContain('unknown field "http.concurency"');
  });

  it('reports malformed YAML with its line, and a missing file', () => {
    const file = write('broken.yaml', 'site: http://x.example\nlanguages: [pl\n');
    expect(configError(() => resolveSettings({ pipeline: file }, {}, dir)).message).toMatch(
      /broken\.yaml: not valid YAML at line \d+/,
    );
    expect(
      configError(() => resolveSettings({ pipeline: path.join(dir, 'nope.yaml') }, {}, dir))
        .message,
    ).toContain('nope.yaml: no such file');
  });

  it('validates flags with the same rules and names the flag', () => {
    expect(configError(() => resolveSettings({ site: 'not a url' }, {}, dir)).message).toContain(
      '--site',
    );
    expect(configError(() => resolveSettings({ lang: 'pl,../x' }, {}, dir)).message).toContain(
      '--lang',
    );
  });

  it('takes credentials from the variables the pipeline names', () => {
    const file = write('auth.yaml', 'auth:\n  userEnv: MY_USER\n  passwordEnv: MY_PASS\n');
    const settings = resolveSettings({ pipeline: file }, { MY_USER: 'u', MY_PASS: 'p w' }, dir);
    expect(settings.credentials).toEqual({ user: 'u', password: 'p w' });
    expect(settings.credentialNames).toEqual({ user: 'MY_USER', password: 'MY_PASS' });
  });
});

describe('credentialsFromEnv', () => {
  it('is anonymous when neither variable is set', () => {
    expect(credentialsFromEnv({})).toBeUndefined();
  });

  it('reads the names given, keeping spaces inside an application password', () => {
    expect(credentialsFromEnv({ U: ' x ', P: ' ab cd ' }, 'U', 'P')).toEqual({
      user: 'x',
      password: 'ab cd',
    });
  });

  it('refuses a user name HTTP Basic cannot carry', () => {
    expect(
      configError(() => credentialsFromEnv({ CMS_USER: 'a:b', CMS_APP_PASSWORD: 'p' })).message,
    ).toContain('must not contain ":"');
  });

  it('refuses half a pair without echoing the value', () => {
    const error = configError(() => credentialsFromEnv({ CMS_USER: 'secret-user' }));
    expect(error.message).toContain('CMS_APP_PASSWORD');
    expect(error.message).not.toContain('secret-user');
  });
});

describe('requireSite', () => {
  it('asks for a site and languages', () => {
    const base = resolveSettings({}, {}, dir);
    expect(configError(() => requireSite(base)).message).toContain('--site');
    const noLang = resolveSettings({ site: 'http://x.example' }, {}, dir);
    expect(configError(() => requireSite(noLang)).message).toContain('--lang');
  });
});
