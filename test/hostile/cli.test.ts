/**
 * Hostile suite, command lines and user mistakes: every bad argument ends with exit 2 and a
 * short message, never a stack; `--json` failures print one `{"error": {...}}` object; an
 * output path that is a file or on a read-only mount, a closed stdout pipe and a cache on a
 * read-only mount are handled. Read-only file systems are real: a tmpfs mounted read-only
 * (the tests run as root, which permission bits would not stop).
 */
import { spawn, execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured } from '../helpers/run-cli.js';
import { useSharedSiteAndCache } from '../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../helpers/reference.js';
import type { TempCache } from '../helpers/temp-cache.js';

const MAIN = join(import.meta.dirname, '../../dist/cli/main.js');
const NO_STACK = /\n\s+at |internal error/;

const fixture = useSharedSiteAndCache(
  { posts: 4, pages: 2, media: 1, languages: ['pl'] },
  'cms-mirror-cli-hostile-',
);
let site: ReferenceSite;
let temp: TempCache;
let cache: string;

beforeAll(async () => {
  ({ site, temp } = fixture);
  cache = temp.file;
  const pulled = await runCliCaptured(
    ['pull', '--site', site.url, '--lang', 'pl', '--cache', cache],
    {
      cwd: temp.dir,
    },
  );
  expect(pulled.code, pulled.stderr).toBe(0);
});

/** A tmpfs at `dir` holding `files`, then remounted read-only. Returns the unmount. */
function readOnlyMount(dir: string, files: Record<string, string> = {}): () => void {
  mkdirSync(dir, { recursive: true });
  execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64m', 'tmpfs', dir]);
  for (const [name, from] of Object.entries(files)) copyFileSync(from, join(dir, name));
  execFileSync('mount', ['-o', 'remount,ro', dir]);
  return () => execFileSync('umount', [dir]);
}

describe('bad command lines: exit 2, a short message, no stack', () => {
  const pipelineDir = () => temp.dir;
  const bad: [string, () => string[], NodeJS.ProcessEnv?][] = [
    ['unknown command', () => ['pul']],
    ['unknown option', () => ['pull', '--sight', 'x']],
    ['missing option value', () => ['pull', '--site']],
    ['site ftp:', () => ['pull', '--site', 'ftp://example.org', '--lang', 'pl']],
    ['site javascript:', () => ['pull', '--site', 'javascript:alert(1)', '--lang', 'pl']],
    ['site not a URL', () => ['pull', '--site', 'not a url', '--lang', 'pl']],
    ['site empty', () => ['pull', '--site', '', '--lang', 'pl']],
    ['site with credentials', () => ['pull', '--site', 'http://u:p@127.0.0.1:1', '--lang', 'pl']],
    ['lang with slash', () => ['pull', '--site', site.url, '--lang', '../etc']],
    ['lang empty', () => ['pull', '--site', site.url, '--lang', ',']],
    ['lang with space', () => ['pull', '--site', site.url, '--lang', 'p l']],
    ['lang too long', () => ['pull', '--site', site.url, '--lang', 'x'.repeat(300)]],
    ['no site', () => ['pull', '--lang', 'pl', '--cache', cache]],
    ['no languages', () => ['pull', '--site', site.url, '--cache', cache]],
    ['pipeline missing', () => ['pull', '--pipeline', join(pipelineDir(), 'none.yaml')]],
    ['pipeline is a directory', () => ['pull', '--pipeline', pipelineDir()]],
    ['pipeline unknown key', () => ['pull', '--pipeline', file('unknown.yaml', 'sitee: x\n')]],
    ['pipeline bad YAML', () => ['pull', '--pipeline', file('bad.yaml', 'site: [\n')]],
    [
      'pipeline wrong type',
      () => ['pull', '--pipeline', file('type.yaml', 'http:\n  retries: many\n')],
    ],
    [
      'pipeline out of range',
      () => ['pull', '--pipeline', file('range.yaml', 'http:\n  concurrency: 0\n')],
    ],
    [
      'pipeline sanitize not boolean',
      () => ['build', '--pipeline', file('san.yaml', 'transform:\n  sanitize: maybe\n')],
    ],
    [
      'pipeline allowInsecure not boolean',
      () => ['pull', '--pipeline', file('ins.yaml', 'http:\n  allowInsecure: yes please\n')],
    ],
    ['pipeline a list', () => ['pull', '--pipeline', file('list.yaml', '- a\n- b\n')]],
    [
      'user without password',
      () => ['pull', '--site', site.url, '--lang', 'pl', '--cache', cache],
      { CMS_USER: 'a' },
    ],
    [
      'password without user',
      () => ['pull', '--site', site.url, '--lang', 'pl', '--cache', cache],
      { CMS_APP_PASSWORD: 'a' },
    ],
    [
      'user with a colon',
      () => ['pull', '--site', site.url, '--lang', 'pl', '--cache', cache],
      { CMS_USER: 'a:b', CMS_APP_PASSWORD: 'x' },
    ],
    [
      'status of a missing cache',
      () => ['status', '--cache', join(pipelineDir(), 'missing.sqlite')],
    ],
    ['cache is a directory', () => ['status', '--cache', pipelineDir()]],
    [
      'cache is not SQLite',
      () => ['status', '--cache', file('text.sqlite', 'hello, not a database\n')],
    ],
    ['build of a missing cache', () => ['build', '--cache', join(pipelineDir(), 'missing.sqlite')]],
    [
      'push without credentials',
      () => ['push', '--site', site.url, '--lang', 'pl', '--cache', cache],
    ],
    ['watch --pull-every bad', () => ['watch', '--pull-every', 'soon']],
    ['watch --pull-every negative', () => ['watch', '--pull-every', '-5s']],
    [
      'migrate without --to',
      () => ['migrate', '--from-cache', cache, '--from-lang', 'pl', '--to-lang', 'pl'],
    ],
    [
      'migrate bad --to',
      () => [
        'migrate',
        '--from-cache',
        cache,
        '--from-lang',
        'pl',
        '--to',
        'ftp://x',
        '--to-lang',
        'pl',
      ],
    ],
    [
      'migrate bad --author-map',
      () => [
        'migrate',
        '--from-cache',
        cache,
        '--from-lang',
        'pl',
        '--to',
        site.url,
        '--to-lang',
        'pl',
        '--author-map',
        '1=2',
        '--dry-run',
      ],
    ],
    ['init over an existing file', () => ['init', '--out', file('exists.yaml', 'site: x\n')]],
    [
      'init bad site',
      () => [
        'init',
        '--site',
        'gopher://x',
        '--lang',
        'pl',
        '--out',
        join(pipelineDir(), 'new.yaml'),
      ],
    ],
    [
      'serve a missing directory',
      () => ['serve', '--out', join(pipelineDir(), 'nothing-here'), '--lang', 'pl'],
    ],
  ];

  it.each(bad)('%s', async (label, argv, env) => {
    const result = await runCliCaptured(argv(), { env: env ?? {}, cwd: temp.dir });
    // A cache file that exists but cannot be opened is a StoreError: exit 1.
    expect(result.code, result.stderr).toBe(STORE_CASES.has(label) ? 1 : 2);
    expect(result.stderr).not.toMatch(NO_STACK);
    expect(result.stderr.trim().length).toBeGreaterThan(0);
    // Commander adds a suggestion and a pointer to --help.
    expect(result.stderr.trim().split('\n').length).toBeLessThanOrEqual(3);
  });
});

const STORE_CASES = new Set(['cache is a directory', 'cache is not SQLite']);

function file(name: string, text: string): string {
  const path = join(temp.dir, name);
  writeFileSync(path, text);
  return path;
}

describe('--json failures print one error object in one shape', () => {
  const failing: [string, () => string[], number][] = [
    ['pull without a site', () => ['pull', '--lang', 'pl', '--cache', cache, '--json'], 2],
    [
      'pull of a site that is not one',
      () => [
        'pull',
        '--site',
        `${site.url}/nothing`,
        '--lang',
        'pl',
        '--cache',
        join(temp.dir, 'j1.sqlite'),
        '--json',
      ],
      2,
    ],
    [
      'verify without languages',
      () => ['verify', '--site', site.url, '--cache', cache, '--json'],
      2,
    ],
    [
      'status of a missing cache',
      () => ['status', '--cache', join(temp.dir, 'no.sqlite'), '--json'],
      2,
    ],
    [
      'build of a missing cache',
      () => ['build', '--cache', join(temp.dir, 'no.sqlite'), '--json'],
      2,
    ],
    [
      'build --out a file',
      () => ['build', '--cache', cache, '--out', file('out-file', 'x'), '--json'],
      2,
    ],
    ['run without a site', () => ['run', '--lang', 'pl', '--cache', cache, '--json'], 2],
    [
      'push without credentials',
      () => ['push', '--site', site.url, '--lang', 'pl', '--cache', cache, '--json'],
      2,
    ],
    [
      'checkout of a file that is not SQLite',
      () => ['checkout', '--cache', file('text2.sqlite', 'not sqlite'), '--lang', 'pl', '--json'],
      1,
    ],
    [
      'backup of a file that is not SQLite',
      () => [
        'backup',
        '--cache',
        file('text3.sqlite', 'not sqlite either'),
        '--to',
        join(temp.dir, 'b.sqlite'),
        '--json',
      ],
      1,
    ],
    [
      'migrate without credentials',
      () => [
        'migrate',
        '--from-cache',
        cache,
        '--from-lang',
        'pl',
        '--to',
        site.url,
        '--to-lang',
        'pl',
        '--json',
      ],
      2,
    ],
    ['an unknown option', () => ['status', '--bogus', '--json'], 2],
  ];

  it.each(failing)('%s', async (_label, argv, exit) => {
    const result = await runCliCaptured(argv(), { cwd: temp.dir });
    expect(result.code, result.stderr).toBe(exit);
    const lines = result.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    const parsed = JSON.parse(lines[0]!) as { error: Record<string, unknown> };
    expect(Object.keys(parsed)).toEqual(['error']);
    expect(Object.keys(parsed.error).sort()).toEqual(['code', 'exit', 'message']);
    expect(parsed.error['code']).toMatch(/^E_[A-Z_]+$/);
    expect(parsed.error['exit']).toBe(exit);
    expect(typeof parsed.error['message']).toBe('string');
    expect(String(parsed.error['message'])).not.toMatch(/\n/);
  });
});

describe('output, pipes and read-only file systems', () => {
  it('build --out naming an existing file: exit 2, one line, the file untouched', async () => {
    const out = file('not-a-dir', 'precious\n');
    const result = await runCliCaptured(['build', '--cache', cache, '--out', out], {
      cwd: temp.dir,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/not-a-dir is a file, not a directory/);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
    expect(readFileSync(out, 'utf8')).toBe('precious\n');
  });

  it('build --out below a file: exit 2, one line', async () => {
    const out = join(file('blocker', 'x'), 'site');
    const result = await runCliCaptured(['build', '--cache', cache, '--out', out], {
      cwd: temp.dir,
    });
    expect(result.code).toBe(2);
    expect(result.stderr).not.toMatch(NO_STACK);
    expect(result.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('build --out on a read-only mount: exit 2, one line naming it', async () => {
    const mount = join(temp.dir, 'ro-out');
    const unmount = readOnlyMount(mount);
    try {
      const result = await runCliCaptured(
        ['build', '--cache', cache, '--out', join(mount, 'site')],
        {
          cwd: temp.dir,
        },
      );
      expect(result.code).toBe(2);
      expect(result.stderr).toContain('read-only');
      expect(result.stderr).toContain(mount);
      expect(result.stderr.trim().split('\n')).toHaveLength(1);
    } finally {
      unmount();
    }
  });

  it('status reads a cache on a read-only mount (plain and --json)', async () => {
    const mount = join(temp.dir, 'ro-cache');
    const reference = await runCliCaptured(['status', '--cache', cache, '--json'], {
      cwd: temp.dir,
    });
    expect(reference.code).toBe(0);
    const unmount = readOnlyMount(mount, { 'cache.sqlite': cache });
    try {
      const plain = await runCliCaptured(['status', '--cache', join(mount, 'cache.sqlite')], {
        cwd: temp.dir,
      });
      expect(plain.code, plain.stderr).toBe(0);
      expect(plain.stdout).toMatch(/pl posts/);
      const json = await runCliCaptured(
        ['status', '--cache', join(mount, 'cache.sqlite'), '--json'],
        {
          cwd: temp.dir,
        },
      );
      expect(json.code, json.stderr).toBe(0);
      const read = JSON.parse(json.stdout) as { collections: unknown };
      const expected = JSON.parse(reference.stdout) as { collections: unknown };
      expect(read.collections).toEqual(expected.collections);
    } finally {
      unmount();
    }
  });

  it('status | (reader gone): ends quietly with exit 0', async () => {
    const child = spawn(process.execPath, [MAIN, 'status', '--cache', cache], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    // The reader goes before the command has written anything (Node takes ~100 ms to load).
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
