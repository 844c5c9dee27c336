/**
 * Hostile suite, credentials: no `Authorization` over plain http to another machine unless
 * the user opts in. Remote hosts are never reached: every connection to a host that is not
 * loopback is blocked in-process (offline-guard.ts) and recorded, so "no connection was
 * attempted" is an assertion on an empty list, and "the opt-in lets it through" one on a
 * non-empty list.
 */
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { CmsClient } from '../../src/client/index.js';
import { runCliCaptured } from '../helpers/run-cli.js';
import { useSharedSiteAndCache } from '../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../helpers/reference.js';
import { tempCache, type TempCache } from '../helpers/temp-cache.js';
import { guardRemoteConnections, type OfflineGuard } from '../helpers/hostile/offline-guard.js';
import { credentialEnv } from '../helpers/cli-args.js';

const auth = { user: 'editor', password: 'abcd efgh ijkl mnop qrst uvwx' };
const env = credentialEnv({ credentials: auth });

/** http: sites on other machines: credentials must be refused. */
const REMOTE_HTTP = [
  'http://192.0.2.10',
  'http://10.0.0.1:8080',
  'http://192.168.1.1',
  'http://0.0.0.0',
  'http://128.0.0.1',
  'http://126.255.255.255',
  'http://cms.example.test',
  'http://cms.example.test:8787/sub/dir',
  'http://localhost.example.test',
  'http://127.0.0.1.example.test',
  'http://localhost.',
  'http://[2001:db8::1]',
  'http://[::]',
  'http://[::2]',
  'http://[::ffff:10.0.0.1]',
  'http://[fe80::1]',
  'HTTP://CMS.EXAMPLE.TEST',
];

/** Sites credentials may go to: loopback over http, anything over https. */
const ALLOWED = [
  'http://127.0.0.1',
  'http://127.0.0.1:8787',
  'http://127.255.255.254:9000',
  'http://127.1',
  'http://0x7f.0.0.1',
  'http://2130706433',
  'http://localhost:8787',
  'http://LOCALHOST',
  'http://[::1]:8080',
  'http://[0:0:0:0:0:0:0:1]',
  'http://[::ffff:127.0.0.1]',
  'https://192.0.2.10',
  'https://cms.example.test',
  'https://[2001:db8::1]:8443',
];

describe('the client refuses credentials over http to another machine', () => {
  it.each(REMOTE_HTTP)('refuses %s with exit 2, naming both opt-ins', (site) => {
    let error: unknown;
    try {
      new CmsClient({ site, lang: 'pl', auth });
    } catch (caught) {
      error = caught;
    }
    expect(error).toMatchObject({ code: 'E_INSECURE_HTTP', exitCode: 2 });
    const message = (error as Error).message;
    expect(message).toContain('--allow-insecure-http');
    expect(message).toContain('http.allowInsecure: true');
    expect(message).not.toContain(auth.password);
    expect(message).not.toMatch(/\n/);
  });

  it.each(ALLOWED)('sends credentials to %s', async (site) => {
    const client = new CmsClient({ site, lang: 'pl', auth });
    expect(client.hasCredentials).toBe(true);
    await client.close();
  });

  it.each(REMOTE_HTTP.slice(0, 4))('%s: anonymous, or opted in, is allowed', async (site) => {
    const anonymous = new CmsClient({ site, lang: 'pl' });
    const optedIn = new CmsClient({ site, lang: 'pl', auth, allowInsecure: true });
    expect(anonymous.hasCredentials).toBe(false);
    expect(optedIn.hasCredentials).toBe(true);
    await anonymous.close();
    await optedIn.close();
  });
});

describe('every command that sends credentials refuses before connecting', () => {
  let guard: OfflineGuard;
  let temp: TempCache;
  let source: ReferenceSite;
  let sourceCache: string;
  const sourceFixture = useSharedSiteAndCache(
    { posts: 3, pages: 1, media: 0, languages: ['pl'] },
    'cms-mirror-cred-src-',
  );

  beforeAll(async () => {
    source = sourceFixture.site;
    sourceCache = sourceFixture.temp.file;
    const pulled = await runCliCaptured(
      ['pull', '--site', source.url, '--lang', 'pl', '--cache', sourceCache],
      { cwd: sourceFixture.temp.dir },
    );
    expect(pulled.code, pulled.stderr).toBe(0);
  });
  beforeEach(() => {
    temp = tempCache('cms-mirror-cred-');
    guard = guardRemoteConnections();
  });
  afterEach(() => {
    guard.restore();
    temp.cleanup();
  });

  const commands: Record<string, (site: string, t: TempCache) => string[]> = {
    pull: (site, t) => ['pull', '--site', site, '--lang', 'pl', '--cache', t.file],
    'pull --backup --json': (site, t) => [
      'pull',
      '--site',
      site,
      '--lang',
      'pl',
      '--cache',
      t.file,
      '--backup',
      '--json',
    ],
    run: (site, t) => [
      'run',
      '--site',
      site,
      '--lang',
      'pl',
      '--cache',
      t.file,
      '--out',
      join(t.dir, 'out'),
    ],
    verify: (site, t) => ['verify', '--site', site, '--lang', 'pl', '--cache', t.file],
    push: (site, t) => [
      'push',
      '--site',
      site,
      '--lang',
      'pl',
      '--cache',
      t.file,
      '--dir',
      join(t.dir, 'content'),
    ],
    'watch --push': (site, t) => [
      'watch',
      '--push',
      '--site',
      site,
      '--lang',
      'pl',
      '--cache',
      t.file,
      '--dir',
      join(t.dir, 'content'),
    ],
    migrate: (site) => [
      'migrate',
      '--from-cache',
      sourceCache,
      '--from-lang',
      'pl',
      '--to',
      site,
      '--to-lang',
      'pl',
    ],
  };
  const sites = ['http://192.0.2.10', 'http://cms.example.test:8080', 'http://[2001:db8::1]'];
  const cases = Object.keys(commands).flatMap((name) => sites.map((site) => [name, site]));

  it.each(cases)(
    '%s to %s: exit 2, one line, no connection, nothing written',
    async (name, site) => {
      mkdirSync(join(temp.dir, 'content'), { recursive: true });
      const before = statSync(sourceCache).mtimeMs;
      const result = await runCliCaptured(commands[name]!(site, temp), { env, cwd: temp.dir });
      expect(result.code, result.stderr).toBe(2);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
      expect(result.stderr).toContain('--allow-insecure-http');
      expect(result.stderr).toContain('http.allowInsecure: true');
      expect(result.stderr).not.toContain(auth.password);
      expect(guard.attempts).toEqual([]);
      expect(existsSync(temp.file)).toBe(false);
      expect(existsSync(join(temp.dir, 'out'))).toBe(false);
      expect(statSync(sourceCache).mtimeMs).toBe(before);
    },
  );

  it('a pipeline with http.allowInsecure: false refuses too', async () => {
    const pipeline = join(temp.dir, 'p.yaml');
    writeFileSync(
      pipeline,
      'site: http://192.0.2.10\nlanguages: [pl]\nhttp:\n  allowInsecure: false\n',
    );
    const result = await runCliCaptured(['pull', '--pipeline', pipeline, '--cache', temp.file], {
      env,
      cwd: temp.dir,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('refusing to send credentials');
    expect(guard.attempts).toEqual([]);
  });

  it('--allow-insecure-http lets the pull connect (blocked here by the test guard)', async () => {
    const result = await runCliCaptured(
      [...commands['pull']!('http://192.0.2.10', temp), '--allow-insecure-http'],
      { env, cwd: temp.dir },
    );
    expect(result.stderr).not.toContain('refusing to send credentials');
    expect(guard.attempts.length).toBeGreaterThan(0);
    expect(guard.attempts[0]).toBe('192.0.2.10:80');
    expect(result.code).not.toBe(0);
  });

  it('http.allowInsecure: true in the pipeline lets verify connect', async () => {
    const pipeline = join(temp.dir, 'p.yaml');
    writeFileSync(
      pipeline,
      'site: http://cms.example.test\nlanguages: [pl]\nhttp:\n  allowInsecure: true\n  retries: 0\n',
    );
    const result = await runCliCaptured(
      ['verify', '--pipeline', pipeline, '--cache', sourceCache],
      {
        env,
        cwd: temp.dir,
      },
    );
    expect(result.stderr).not.toContain('refusing to send credentials');
    expect(guard.attempts[0]).toBe('cms.example.test:80');
  });

  it('anonymous pull of a remote http site is not refused (nothing secret to send)', async () => {
    const pipeline = join(temp.dir, 'p.yaml');
    writeFileSync(pipeline, 'http:\n  retries: 0\n');
    const result = await runCliCaptured(
      [
        'pull',
        '--pipeline',
        pipeline,
        '--site',
        'http://192.0.2.10',
        '--lang',
        'pl',
        '--cache',
        temp.file,
      ],
      { cwd: temp.dir },
    );
    expect(result.stderr).not.toContain('refusing');
    expect(guard.attempts).toContain('192.0.2.10:80');
  });

  it('credentials still go to the reference site on 127.0.0.1 over http', async () => {
    source.control.clearLog();
    const result = await runCliCaptured(
      ['pull', '--site', source.url, '--lang', 'pl', '--cache', temp.file],
      {
        env: credentialEnv(source),
        cwd: temp.dir,
      },
    );
    expect(result.code, result.stderr).toBe(0);
    expect(guard.attempts).toEqual([]);
    expect(source.requests.length).toBeGreaterThan(0);
    expect(readFileSync(temp.file).length).toBeGreaterThan(0);
  });
});
