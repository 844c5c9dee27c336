/**
 * Credentials are never written anywhere: one journey through every command that uses them
 * (pull --backup, build, checkout, push with a conflict and with a wrong password, migrate
 * dry run and real, verify), then every byte it left behind is searched for the password and
 * the Basic header value: the cache file with its -wal and -shm, stdout/stderr of every
 * command (plain and --json), the output tree and the checkout files.
 */
import { existsSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeEach, describe, expect, it } from 'vitest';
import { basicAuthHeader } from '../../../src/client/index.js';
import { credentialEnv, migrateArgs } from '../../helpers/cli-args.js';
import { runCliCaptured, type CliResult } from '../../helpers/run-cli.js';
import { useSite, useSiteAndCache } from '../../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../../helpers/reference.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { listFiles } from '../../helpers/bad-input-harness.js';

/** The forms a secret could take in a file or a log. */
function secretForms(credentials: { user: string; password: string }): string[] {
  const header = basicAuthHeader(credentials);
  return [
    credentials.password,
    credentials.password.replace(/\s+/g, ''),
    header,
    header.slice('Basic '.length),
    Buffer.from(`${credentials.user}:${credentials.password}`).toString('hex'),
  ];
}

function findSecrets(label: string, bytes: Buffer, secrets: readonly string[]): string[] {
  const text = bytes.toString('latin1');
  const utf16 = bytes.toString('utf16le');
  return secrets
    .filter((secret) => text.includes(secret) || utf16.includes(secret))
    .map((secret) => `${label} contains ${JSON.stringify(secret.slice(0, 4))}…`);
}

describe('credentials never leave memory', () => {
  let source: ReferenceSite;
  let target: ReferenceSite;
  let temp: TempCache;

  const fixture = useSiteAndCache({ posts: 6, pages: 3, media: 2 }, 'cms-mirror-secrets-');
  const targetFixture = useSite({ posts: 0, pages: 0, media: 0, seed: 'target' });

  beforeEach(() => {
    ({ site: source, temp } = fixture);
    target = targetFixture.site;
  });

  it('pull --backup, build, checkout, push, migrate and verify write no password or Basic value', async () => {
    const env = credentialEnv(source);
    const wrongPassword = 'Zzzz Yyyy Xxxx Wwww Vvvv Uuuu';
    const wrongEnv = credentialEnv({
      credentials: { user: source.credentials.user, password: wrongPassword },
    });
    const secrets = [
      ...secretForms(source.credentials),
      ...secretForms(target.credentials),
      ...secretForms({ user: source.credentials.user, password: wrongPassword }),
    ];
    const out = join(temp.dir, 'output');
    const content = join(temp.dir, 'content');
    const pipeline = join(temp.dir, 'pipeline.yaml');
    writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
    const common = ['--pipeline', pipeline, '--site', source.url, '--lang', 'pl,es'];
    const results: { label: string; result: CliResult }[] = [];
    const run = async (
      label: string,
      argv: string[],
      expected: number,
      runEnv: NodeJS.ProcessEnv = env,
    ): Promise<CliResult> => {
      const result = await runCliCaptured(argv, { env: runEnv, cwd: temp.dir });
      expect(result.code, `${label}: ${result.stderr}`).toBe(expected);
      results.push({ label, result });
      return result;
    };

    await run('pull --backup', ['pull', ...common, '--cache', temp.file, '--backup'], 0);
    // A reader inside an open read transaction keeps the WAL from being checkpointed away or
    // reset, so every page the later commands write stays in the -wal file to be searched.
    const reader = new Database(temp.file, { readonly: true });
    reader.prepare('BEGIN').run();
    reader.prepare('SELECT count(*) FROM items').get();
    try {
      await run(
        'pull --backup --json',
        ['pull', ...common, '--cache', temp.file, '--backup', '--json'],
        0,
      );
      await run(
        'build --json',
        ['build', '--pipeline', pipeline, '--cache', temp.file, '--out', out, '--json'],
        0,
      );
      await run(
        'build',
        ['build', '--pipeline', pipeline, '--cache', temp.file, '--out', out, '--force'],
        0,
      );
      await run(
        'checkout',
        ['checkout', '--cache', temp.file, '--lang', 'pl', '--dir', content],
        0,
      );

      // Push with a conflict: the item changed on the site after checkout (exit 3).
      const plDir = join(content, 'pl');
      const file = listFiles(plDir).find((name) => name.includes('posts'))!;
      expect(file).toBeDefined();
      const id = Number(/^id:\s*(\d+)$/m.exec(readFileSync(file, 'utf8'))?.[1]);
      expect(id).toBeGreaterThan(0);
      source.control.updateItem('pl', 'posts', id, { title: 'Changed on the site' });
      writeFileSync(file, readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: Local edit'));
      await run('push (conflict)', ['push', ...common, '--cache', temp.file, '--dir', content], 3);
      await run(
        'push --json (conflict)',
        ['push', ...common, '--cache', temp.file, '--dir', content, '--json'],
        3,
      );
      // Push with a password the site refuses.
      const refused = await run(
        'push (wrong password)',
        ['push', ...common, '--cache', temp.file, '--dir', content, '--force'],
        2,
        wrongEnv,
      );
      expect(refused.stderr).toContain('CMS_APP_PASSWORD');

      const targetEnv = credentialEnv(target);
      const migrate = migrateArgs(temp.file, target);
      await run('migrate --dry-run', [...migrate, '--dry-run'], 0, targetEnv);
      await run('migrate --dry-run --json', [...migrate, '--dry-run', '--json'], 0, targetEnv);
      await run('migrate', [...migrate, '--json'], 0, targetEnv);
      // The post changed on the site after the pull: verify reports it (exit 3).
      await run('verify', ['verify', ...common, '--cache', temp.file], 3);
      await run('verify --json', ['verify', ...common, '--cache', temp.file, '--json'], 3);
      await run(
        'verify (wrong password)',
        ['verify', ...common, '--cache', temp.file],
        2,
        wrongEnv,
      );
      await run('status --json', ['status', '--cache', temp.file, '--json'], 0);

      const found: string[] = [];
      const cacheFiles = readdirSync(temp.dir).filter((name) => name.startsWith('cache.sqlite'));
      expect(cacheFiles).toEqual(
        expect.arrayContaining(['cache.sqlite', 'cache.sqlite-wal', 'cache.sqlite-shm']),
      );
      for (const name of cacheFiles) {
        found.push(...findSecrets(name, readFileSync(join(temp.dir, name)), secrets));
      }
      expect(readFileSync(join(temp.dir, 'cache.sqlite-wal')).length).toBeGreaterThan(0);
      for (const { label, result } of results) {
        found.push(...findSecrets(`${label} stdout`, Buffer.from(result.stdout), secrets));
        found.push(...findSecrets(`${label} stderr`, Buffer.from(result.stderr), secrets));
      }
      const written = [...listFiles(out), ...listFiles(content)];
      expect(written.length).toBeGreaterThan(20);
      for (const path of written) found.push(...findSecrets(path, readFileSync(path), secrets));
      expect(found).toEqual([]);
      // The search can see a secret: the same check flags one planted in a copy of the bytes.
      expect(
        findSecrets('probe', Buffer.from(`x${basicAuthHeader(source.credentials)}x`), secrets),
      ).not.toEqual([]);
      // The journey did use the credentials: drafts and revisions are in the cache.
      const db = new Database(temp.file, { readonly: true });
      try {
        const drafts = db
          .prepare("SELECT count(*) AS n FROM items WHERE status = 'draft'")
          .get() as { n: number };
        expect(drafts.n).toBeGreaterThan(0);
      } finally {
        db.close();
      }
      expect(existsSync(join(out, 'pl', 'index.html'))).toBe(true);
    } finally {
      reader.prepare('COMMIT').run();
      reader.close();
    }
  }, 90_000);
});
