/**
 * Hostile suite, paths: `serve` never answers with a file outside the output folder (not
 * through `..`, encodings or symlinks), and item paths that would break or collide on Windows
 * or macOS are moved to `/{type}/{id}/` on every platform.
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStaticServer, type StaticServer } from '../../src/site/static-server.js';
import { assignSitePaths } from '../../src/transform/item-site-paths.js';
import { useSiteAndCache } from '../helpers/mirror-fixture.js';

const SECRET = 'TOP-SECRET-OUTSIDE-THE-OUTPUT';

describe('serve stays inside the output folder', () => {
  let dir: string;
  let server: StaticServer;

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'cms-mirror-serve-'));
    const out = join(dir, 'output');
    mkdirSync(join(out, 'pl', 'sub'), { recursive: true });
    mkdirSync(join(dir, 'outside'));
    writeFileSync(join(dir, 'secret.txt'), SECRET);
    writeFileSync(join(dir, 'outside', 'index.html'), SECRET);
    writeFileSync(join(out, 'pl', 'index.html'), 'home');
    writeFileSync(join(out, 'pl', '404.html'), 'not here');
    writeFileSync(join(out, 'pl', 'sub', 'page.html'), 'inside page');
    symlinkSync(join(dir, 'secret.txt'), join(out, 'pl', 'leak.html'));
    symlinkSync(join(dir, 'outside'), join(out, 'pl', 'outside-dir'));
    symlinkSync('/etc/passwd', join(out, 'pl', 'passwd.txt'));
    symlinkSync('../../secret.txt', join(out, 'pl', 'relative-leak.txt'));
    symlinkSync(join(out, 'pl', 'sub', 'page.html'), join(out, 'pl', 'inside-link.html'));
    server = await startStaticServer(out);
  });
  afterAll(async () => {
    await server.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const leaks = [
    '/pl/leak.html',
    '/pl/outside-dir/',
    '/pl/outside-dir/index.html',
    '/pl/passwd.txt',
    '/pl/relative-leak.txt',
    '/../secret.txt',
    '/pl/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/pl/%2e%2e/%2e%2e/secret.txt',
    '/pl/..%2f..%2fsecret.txt',
    '/pl/%252e%252e/%252e%252e/secret.txt',
    '/pl/..%5c..%5csecret.txt',
    '/pl/sub/..%00/secret.txt',
    '/..%c0%af../secret.txt',
    '//etc/passwd',
    '/pl/outside-dir/%2e%2e/secret.txt',
  ];

  it.each(leaks)('%s: no byte from outside', async (path) => {
    const answer = await get(server.url, path);
    expect(answer.body).not.toContain(SECRET);
    expect(answer.body).not.toMatch(/root:.*:0:0:/);
    expect([400, 404]).toContain(answer.status);
  });

  it('a symlink that stays inside is served', async () => {
    expect(await get(server.url, '/pl/inside-link.html')).toEqual({
      status: 200,
      body: 'inside page',
    });
  });
});

function get(base: string, path: string): Promise<{ status: number; body: string }> {
  const url = new URL(base);
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, path, method: 'GET' }, (response) => {
      let body = '';
      response.on('data', (chunk: Buffer) => (body += chunk.toString()));
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body }));
    });
    req.on('error', reject);
    req.end();
  });
}

describe('item paths are safe on Windows, macOS and Linux', () => {
  const home = 'https://example.org/pl/';
  const unportable = [
    'CON',
    'con',
    'Prn',
    'aux',
    'NUL',
    'com1',
    'COM9',
    'lpt1',
    'LPT9',
    'con.html',
    'nul.tar.gz',
    'trailing-dot.',
    'trailing-space%20',
    'dots...',
    'a%3Ab',
    'a%7Cb',
    'a*b',
    'what%3F',
    'quote%22d',
    '%3Ctag%3E',
  ];

  it.each(unportable)('/%s/ moves to /posts/{id}/', (slug) => {
    const paths = assignSitePaths([{ type: 'posts', id: 7, link: `${home}${slug}/` }], home);
    expect(paths.get('posts:7')).toBe('/posts/7/');
  });

  it.each(['2024/con/x', 'docs/aux/page', 'a./b'])('a middle segment /%s/ counts too', (path) => {
    const paths = assignSitePaths([{ type: 'pages', id: 3, link: `${home}${path}/` }], home);
    expect(paths.get('pages:3')).toBe('/pages/3/');
  });

  it.each([
    ['About', 'about'],
    ['ABOUT', 'About'],
    ['Zażółć', 'zażółć'],
    ['caf%C3%A9', 'cafe%CC%81'],
    ['%C3%89t%C3%A9', '%C3%A9t%C3%A9'],
  ])('%s and %s collide: the second moves', (first, second) => {
    const paths = assignSitePaths(
      [
        { type: 'pages', id: 1, link: `${home}${first}/` },
        { type: 'pages', id: 2, link: `${home}${second}/` },
      ],
      home,
    );
    expect(paths.get('pages:1')).not.toBe('/pages/1/');
    expect(paths.get('pages:2')).toBe('/pages/2/');
  });

  it.each(['con-artist', 'console', 'auxiliary', 'com10', 'a.b', 'nullable', 'lpt'])(
    '%s is an ordinary name and keeps its path',
    (slug) => {
      const paths = assignSitePaths([{ type: 'posts', id: 5, link: `${home}${slug}/` }], home);
      expect(paths.get('posts:5')).toBe(`/${slug}/`);
    },
  );

  it('tells the caller once per moved item', () => {
    const moved: number[] = [];
    assignSitePaths(
      [
        { type: 'posts', id: 1, link: `${home}CON/` },
        { type: 'posts', id: 2, link: `${home}fine/` },
        { type: 'posts', id: 3, link: `${home}FINE/` },
      ],
      home,
      (candidate) => moved.push(candidate.id),
    );
    expect(moved).toEqual([1, 3]);
  });
});

describe('a moved item is reported once, when it is transformed', () => {
  const fixture = useSiteAndCache(
    { posts: 2, pages: 1, media: 0, languages: ['pl'], hostile: true },
    'cms-mirror-moved-',
  );

  it('pull + build warn about the hostile slugs once; the next build is quiet', async () => {
    const { runCliCaptured } = await import('../helpers/run-cli.js');
    const { site, temp } = fixture;
    const base = ['--cache', temp.file];
    const pulled = await runCliCaptured(['pull', ...base, '--site', site.url, '--lang', 'pl'], {
      cwd: temp.dir,
    });
    expect([0, 3]).toContain(pulled.code);
    const out = ['--out', join(temp.dir, 'out')];
    const first = await runCliCaptured(['build', ...base, ...out], { cwd: temp.dir });
    expect(first.code, first.stderr).toBe(0);
    const con = site.control.listItems('pl', 'posts').find((item) => item.slug === 'CON');
    expect(con).toBeDefined();
    const lines = first.stderr
      .split('\n')
      .filter((line) => line.includes(`posts ${con!.id} moved to /posts/${con!.id}/`));
    expect(lines).toHaveLength(1);
    const second = await runCliCaptured(['build', ...base, ...out], { cwd: temp.dir });
    expect(second.code).toBe(0);
    expect(second.stderr).not.toContain('moved to');
  });
});
