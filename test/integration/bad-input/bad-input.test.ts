/**
 * Bad input through the CLI: each case exits 2 with ONE error line that names the culprit
 * (file, field, URL or variable), and leaves the cache's items and the output tree exactly as
 * they were. A good cache and a built output are made once; every case runs against them.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliCaptured, type CliResult } from '../../helpers/run-cli.js';
import { useSharedSiteAndCache } from '../../helpers/mirror-fixture.js';
import type { ReferenceSite } from '../../helpers/reference.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import {
  itemsCount,
  itemsDigest,
  startProxy,
  startTinyServer,
  treeDigest,
  type TinyServer,
} from '../../helpers/bad-input-harness.js';
import { credentialEnv } from '../../helpers/cli-args.js';

/** The single `cms-mirror: …` line of a user error (progress lines may precede it). */
function errorLine(result: CliResult): string {
  expect(result.stderr).not.toMatch(/internal error/);
  const lines = result.stderr.split('\n').filter((line) => line.startsWith('cms-mirror: '));
  expect(lines).toHaveLength(1);
  return lines[0]!;
}

describe('bad input: exit 2, one line naming the culprit, cache and output untouched', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  let out: string;
  let env: NodeJS.ProcessEnv;
  let servers: TinyServer[];
  let before: { items: string; output: Map<string, string> };

  const pipeline = (name: string, text: string): string => {
    const file = join(temp.dir, name);
    writeFileSync(file, text);
    return file;
  };

  /** Runs the CLI, then checks that nothing the user already had was touched. */
  const runBad = async (argv: string[], runEnv: NodeJS.ProcessEnv = env): Promise<CliResult> => {
    const result = await runCliCaptured(argv, { env: runEnv, cwd: temp.dir });
    expect(result.code, result.stderr).toBe(2);
    expect(itemsDigest(temp.file)).toBe(before.items);
    expect(treeDigest(out)).toEqual(before.output);
    return result;
  };

  const serve = async (handler: Parameters<typeof startTinyServer>[0]): Promise<TinyServer> => {
    const server = await startTinyServer(handler);
    servers.push(server);
    return server;
  };

  const fixture = useSharedSiteAndCache({}, 'cms-mirror-bad-input-');

  beforeAll(async () => {
    ({ site, temp } = fixture);
    out = join(temp.dir, 'output');
    servers = [];
    env = credentialEnv(site);
    const good = pipeline('good.yaml', 'http:\n  requestsPerSecond: 0\n');
    const common = ['--pipeline', good, '--site', site.url, '--lang', 'pl,es'];
    const run = await runCliCaptured(
      ['run', ...common, '--cache', temp.file, '--out', out, '--json'],
      { env, cwd: temp.dir },
    );
    expect(run.code, run.stderr).toBe(0);
    expect(itemsCount(temp.file)).toBeGreaterThan(20);
    before = { items: itemsDigest(temp.file), output: treeDigest(out) };
    expect(before.output.size).toBeGreaterThan(20);
  }, 60_000);

  afterAll(async () => {
    await Promise.all(servers.map((server) => server.close()));
  });

  it('a pipeline file that is not YAML names the file and the line', async () => {
    const file = pipeline('broken.yaml', 'site: http://127.0.0.1:1\nlanguages: [pl,\ncache: x\n');
    const result = await runBad(['run', '--pipeline', file, '--cache', temp.file, '--out', out]);
    const line = errorLine(result);
    expect(line).toContain(file);
    expect(line).toMatch(/not valid YAML at line \d+/);
  });

  it('a pipeline file that is not JSON names the file', async () => {
    const file = pipeline('broken.json', '{"site": "http://127.0.0.1:1",');
    const line = errorLine(
      await runBad(['build', '--pipeline', file, '--cache', temp.file, '--out', out]),
    );
    expect(line).toContain(`${file}: not valid JSON`);
  });

  it('unknown keys are errors, every one named with its section', async () => {
    const file = pipeline(
      'typo.yaml',
      `site: ${site.url}\nlanguages: [pl]\nhttp:\n  retriez: 3\nmedias:\n  maxBytes: 10\n`,
    );
    const line = errorLine(
      await runBad(['run', '--pipeline', file, '--cache', temp.file, '--out', out]),
    );
    expect(line).toContain(file);
    expect(line).toContain('unknown field "http.retriez"');
    expect(line).toContain('unknown field "medias"');
  });

  it('a value of the wrong type names the field; a top level that is not a mapping says so', async () => {
    const file = pipeline('types.yaml', 'http:\n  maxBodyBytes: lots\nlanguages: pl\n');
    const line = errorLine(await runBad(['pull', '--pipeline', file, '--cache', temp.file]));
    expect(line).toContain('field "http.maxBodyBytes"');
    expect(line).toContain('field "languages"');
    const list = pipeline('list.yaml', '- site\n- languages\n');
    const listLine = errorLine(await runBad(['pull', '--pipeline', list, '--cache', temp.file]));
    expect(listLine).toContain(`${list}: expected a mapping of settings at the top level`);
  });

  it('a site that answers HTML is not a cms-json site; the index URL is named', async () => {
    const html = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!doctype html><html><head><title>Shop</title></head><body>Hello</body></html>');
    });
    const line = errorLine(
      await runBad(['pull', '--site', html.url, '--lang', 'pl', '--cache', temp.file]),
    );
    expect(line).toContain(`${html.url}/pl/cms-json/ is not a cms-json site`);
    expect(line).toContain('text/html');
  });

  it('a site that answers 404 is not a cms-json site', async () => {
    const missing = await serve((_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end('<h1>Not Found</h1>');
    });
    const line = errorLine(
      await runBad([
        'run',
        '--site',
        missing.url,
        '--lang',
        'es',
        '--cache',
        temp.file,
        '--out',
        out,
      ]),
    );
    expect(line).toContain(`${missing.url}/es/cms-json/ is not a cms-json site`);
    expect(line).toContain('404');
  });

  it('an index without the cms/v2 namespace names what is missing and what it offers', async () => {
    const other = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          name: 'Other API',
          namespaces: ['oembed/1.0', 'shop/v3'],
          routes: { '/': { namespace: '', methods: ['GET'], endpoints: [] } },
        }),
      );
    });
    const result = await runBad([
      'pull',
      '--site',
      other.url,
      '--lang',
      'pl',
      '--cache',
      temp.file,
    ]);
    const line = errorLine(result);
    expect(line).toContain(`${other.url}/pl/cms-json/`);
    expect(line).toContain('the namespace cms/v2 (it offers: oembed/1.0, shop/v3)');
    // Discovery failed first: no collection was asked for.
    expect(other.paths.every((path) => path === '/pl/cms-json/')).toBe(true);
  });

  it('wrong credentials name the variables, never the values, and pull/verify stop before crawling', async () => {
    const wrong = 'Abcd Efgh Ijkl Mnop Qrst Uvwx';
    const badEnv = credentialEnv({ credentials: { user: site.credentials.user, password: wrong } });
    site.control.clearLog();
    for (const command of ['pull', 'verify']) {
      const result = await runBad(
        [command, '--site', site.url, '--lang', 'pl', '--cache', temp.file],
        badEnv,
      );
      const line = errorLine(result);
      expect(line).toContain('refused the credentials in CMS_USER/CMS_APP_PASSWORD');
      expect(result.stderr + result.stdout).not.toContain(wrong);
      expect(result.stderr + result.stdout).not.toContain(site.credentials.password);
    }
    // Only the index and the one credential probe per command: no crawl with half the rights.
    const listed = site.requests.filter(
      (entry) => entry.path.startsWith('/cms/v2/') && entry.status === 200,
    );
    expect(site.requests.some((entry) => entry.status === 401)).toBe(true);
    expect(listed).toEqual([]);
  });

  it('only one of the two credential variables set is a configuration error', async () => {
    const line = errorLine(
      await runBad(['pull', '--site', site.url, '--lang', 'pl', '--cache', temp.file], {
        CMS_USER: 'admin',
      }),
    );
    expect(line).toContain('CMS_USER is set but CMS_APP_PASSWORD is not');
  });

  it('a list body beyond http.maxBodyBytes is refused, naming the URL and the setting', async () => {
    // A well-formed but huge answer (10 000 records, ~300 KB) to the posts list only.
    const huge = JSON.stringify(
      Array.from({ length: 10_000 }, (_, i) => ({ id: i + 1, slug: `post-${i}` })),
    );
    const proxy = await startProxy(site.url, (path) =>
      path.includes('/cms/v2/posts?')
        ? { contentType: 'application/json; charset=utf-8', body: huge }
        : undefined,
    );
    servers.push(proxy);
    const file = pipeline(
      'small-bodies.yaml',
      'http:\n  maxBodyBytes: 65536\n  requestsPerSecond: 0\n',
    );
    const result = await runBad([
      'pull',
      '--pipeline',
      file,
      '--site',
      proxy.url,
      '--lang',
      'pl',
      '--cache',
      temp.file,
    ]);
    const line = errorLine(result);
    expect(line).toMatch(
      new RegExp(
        `GET ${proxy.url}/pl/cms-json/cms/v2/posts\\?\\S+: the response is larger than the limit of 65536 bytes \\(maxBodyBytes\\)`,
      ),
    );
  });

  it('a list that ignores per_page is refused instead of paging forever', async () => {
    const many = JSON.stringify(Array.from({ length: 150 }, (_, i) => ({ id: i + 1 })));
    const proxy = await startProxy(site.url, (path) =>
      path.includes('/cms/v2/pages?') ? { contentType: 'application/json', body: many } : undefined,
    );
    servers.push(proxy);
    const line = errorLine(
      await runBad(['pull', '--site', proxy.url, '--lang', 'es', '--cache', temp.file]),
    );
    expect(line).toContain(`${proxy.url}/es/cms-json/cms/v2/pages?`);
    // Found by the access check up front (per_page=1) or by the crawl (per_page=100).
    expect(line).toMatch(/answered 150 items where per_page=(\d+) allows \1\b/);
  });

  it('full pages of records that never move the crawl on are refused instead of paging forever', async () => {
    // Exactly per_page records on every page number, none with a usable modified_gmt.
    const junk = JSON.stringify(Array.from({ length: 100 }, (_, i) => ({ id: i + 1 })));
    const proxy = await startProxy(site.url, (path) =>
      path.startsWith('/es/cms-json/cms/v2/posts?') && path.includes('orderby=modified')
        ? { contentType: 'application/json', body: junk }
        : undefined,
    );
    servers.push(proxy);
    const unpaced = join(temp.dir, 'good.yaml');
    const result = await runBad([
      ...['pull', '--pipeline', unpaced, '--site', proxy.url],
      ...['--lang', 'es', '--cache', temp.file],
    ]);
    const line = errorLine(result);
    expect(line).toContain(`${proxy.url}/es/cms-json/cms/v2/posts?`);
    // The same page on every page number: refused at page 2, not after 100 pages (issue 14).
    expect(line).toContain('answered the same items as page 1: the server ignores "page"');
    const walked = proxy.paths.filter((path) => path.includes('orderby=modified'));
    expect(walked.length).toBeLessThan(10);
  });

  it('a body that is not UTF-8 is refused, naming the URL', async () => {
    // "é" in Latin-1 (0xE9) inside an otherwise JSON-looking array.
    const latin1 = Buffer.concat([
      Buffer.from('[{"id":1,"slug":"caf'),
      Buffer.from([0xe9]),
      Buffer.from('"}]'),
    ]);
    const proxy = await startProxy(site.url, (path) =>
      path.includes('/cms/v2/media?')
        ? { contentType: 'application/json; charset=utf-8', body: latin1 }
        : undefined,
    );
    servers.push(proxy);
    const line = errorLine(
      await runBad(['pull', '--site', proxy.url, '--lang', 'pl', '--cache', temp.file]),
    );
    expect(line).toMatch(
      new RegExp(`GET ${proxy.url}/pl/cms-json/cms/v2/media\\?\\S+: the body is not valid UTF-8$`),
    );
  });

  it('a network failure stays exit 1 (not bad input): nothing listens on the port', async () => {
    const gone = await startTinyServer((_req, res) => res.end());
    await gone.close();
    const file = pipeline('no-retry.yaml', 'http:\n  retries: 0\n  timeoutMs: 2000\n');
    const result = await runCliCaptured(
      ['pull', '--pipeline', file, '--site', gone.url, '--lang', 'pl', '--cache', temp.file],
      { env: {}, cwd: temp.dir },
    );
    expect(result.code).toBe(1);
    expect(errorLine(result)).toContain(`${gone.url}/pl/cms-json/`);
    expect(itemsDigest(temp.file)).toBe(before.items);
  });

  it('invalid front matter in a checkout file: push names the file, sends nothing', async () => {
    const dir = join(temp.dir, 'content');
    mkdirSync(dir, { recursive: true });
    const checkout = await runCliCaptured(
      ['checkout', '--cache', temp.file, '--lang', 'pl', '--dir', dir, '--type', 'posts', '--json'],
      { env, cwd: temp.dir },
    );
    expect(checkout.code, checkout.stderr).toBe(0);
    const files = listCheckoutFiles(dir);
    expect(files.length).toBeGreaterThan(0);
    const target = files[0]!;
    const text = readFileSync(target, 'utf8');
    // Break the YAML inside the front matter: an unclosed flow sequence.
    writeFileSync(target, text.replace(/^title: .*$/m, 'title: [unclosed, "x'));
    site.control.clearLog();
    const result = await runBad(
      ['push', '--site', site.url, '--lang', 'pl', '--cache', temp.file, '--dir', dir],
      env,
    );
    const problem = result.stderr.split('\n').find((line) => line.startsWith(target));
    expect(problem, result.stderr).toBeDefined();
    expect(result.stderr).toContain('push: nothing sent');
    expect(site.requests.filter((entry) => entry.method !== 'GET')).toEqual([]);
  });
});

function listCheckoutFiles(dir: string): string[] {
  return [...treeDigest(dir).keys()]
    .filter((key) => key.endsWith('.html') || key.endsWith('.md'))
    .map((key) => join(dir, key));
}
