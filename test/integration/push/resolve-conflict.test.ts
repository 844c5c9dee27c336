import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import type { ReferenceSite } from '../../../src/reference/index.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { siteClient } from '../../helpers/push-site-fixture.js';
import { credentialEnv } from '../../helpers/cli-args.js';

/**
 * Issue 12 point 8, end to end through the CLI: a conflict is resolved without --force.
 * checkout → edit → someone edits the item on the site → push conflicts → pull → the site's
 * version appears beside the file → push still refuses → push --resolve FILE → it lands.
 */
describe('resolving a push conflict without --force', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  let dir: string;
  let env: NodeJS.ProcessEnv;

  const fixture = useSiteAndCache();

  beforeEach(() => {
    ({ site, temp } = fixture);
    dir = path.join(temp.dir, 'content');
    env = credentialEnv(site);
  });

  const cli = (...args: string[]) =>
    runCliCaptured([...args, '--cache', temp.file], { env, cwd: temp.dir });
  const siteArgs = () => ['--site', site.url, '--lang', 'pl'];

  it('writes the remote version beside the file after a pull, refuses until --resolve, then sends the user’s version', async () => {
    expect((await cli('pull', ...siteArgs())).code).toBe(0);
    expect((await cli('checkout', '--lang', 'pl', '--dir', dir)).code).toBe(0);
    const post = site.control
      .listItems('pl', 'posts')
      .find((item) => item.status === 'publish' && item.password === '');
    if (post === undefined) throw new Error('the seed has a published post');
    const folder = path.join(dir, 'pl', 'posts');
    const name = readdirSync(folder).find((file) => file.startsWith(`${post.id}-`));
    if (name === undefined) throw new Error(`post ${post.id} was not checked out`);
    const file = path.join(folder, name);
    const copy = file.replace(/\.html$/, '.remote.html');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(/^title: .*$/m, 'title: Moja wersja tytułu'),
    );

    // Someone else edits the item on the site.
    const other = siteClient(site.url, 'pl', site.otherCredentials);
    try {
      await other.request('POST', `cms/v2/posts/${post.id}`, { body: { title: 'Ich wersja' } });
    } finally {
      await other.close();
    }

    const first = await cli('push', ...siteArgs(), '--dir', dir);
    expect(first.code).toBe(3);
    expect(first.stderr).toContain('changed on the site since checkout');
    expect(first.stderr).toContain('run "cms-mirror pull" and push again');
    expect(first.stderr).toContain(copy);
    expect(existsSync(copy)).toBe(false);

    const pulled = await cli('pull', ...siteArgs());
    expect(pulled.code).toBe(0);
    expect(pulled.stderr).toContain(copy);
    expect(readFileSync(copy, 'utf8')).toMatch(/^title: Ich wersja$/m);
    expect(readFileSync(file, 'utf8')).toMatch(/^title: Moja wersja tytułu$/m);

    const refused = await cli('push', ...siteArgs(), '--dir', dir);
    expect(refused.code).toBe(3);
    expect(refused.stderr).toContain(`the site's version is in ${copy}`);
    expect(refused.stderr).toContain(`push --resolve ${file}`);
    expect(site.control.getItem('pl', 'posts', post.id)?.title).toBe('Ich wersja');

    const resolved = await cli('push', ...siteArgs(), '--dir', dir, '--resolve', file, '--json');
    expect(resolved.stderr).toBe('');
    expect(resolved.code).toBe(0);
    expect(JSON.parse(resolved.stdout)).toMatchObject({ updated: 1, conflicts: 0, pending: 0 });
    expect(site.control.getItem('pl', 'posts', post.id)?.title).toBe('Moja wersja tytułu');
    expect(existsSync(copy)).toBe(false);
    // Nothing is left to send.
    const again = await cli('push', ...siteArgs(), '--dir', dir, '--json');
    expect(JSON.parse(again.stdout)).toMatchObject({ sent: 0, pending: 0 });
  });

  it('refuses --resolve for a file without a remote copy (exit 2)', async () => {
    expect((await cli('pull', ...siteArgs())).code).toBe(0);
    expect((await cli('checkout', '--lang', 'pl', '--dir', dir)).code).toBe(0);
    const folder = path.join(dir, 'pl', 'posts');
    const file = path.join(folder, readdirSync(folder)[0] as string);
    const result = await cli('push', ...siteArgs(), '--dir', dir, '--resolve', file);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`--resolve ${file}: no `);
  });
});
