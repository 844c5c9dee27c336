/**
 * Issue 12 points 4 and 5: translations are paired only with evidence (the pipeline's
 * `translations`), and output bytes depend neither on the order languages are given in nor on
 * which of the cache's languages a run builds.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  pageFileOf,
  sitePathOfLink,
  snapshotFiles,
  startMirror,
  type FileState,
  type Mirror,
} from '../../helpers/e2e-site.js';
import { callApi, getJson, type Json } from '../../helpers/reference.js';
import { runCliCaptured } from '../../helpers/run-cli.js';

// Several full builds per test on a shared machine.
vi.setConfig({ testTimeout: 240_000 });

let mirror: Mirror | undefined;
afterEach(async () => {
  await mirror?.close();
  mirror = undefined;
});

const alternates = (html: string): string[] =>
  [...html.matchAll(/<link rel="alternate" hreflang="([^"]+)" href="([^"]+)">/g)].map(
    (match) => `${match[1]} ${match[2]}`,
  );
const switcherHref = (html: string, hreflang: string): string | undefined =>
  new RegExp(`<a href="([^"]*)" hreflang="${hreflang}"`).exec(html)?.[1];

async function build(m: Mirror, out: string, ...args: string[]) {
  const result = await runCliCaptured(
    ['build', '--cache', m.cacheFile, '--out', out, '--json', ...args],
    { env: m.env, cwd: m.temp.dir },
  );
  if (result.code !== 0) throw new Error(`build exited with ${result.code}: ${result.stderr}`);
  return JSON.parse(result.stdout) as {
    languages: Record<string, { written: number; pages: number }>;
  };
}

function bytesOf(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const [file, state] of snapshotFiles(dir) as Map<string, FileState>)
    files.set(file, state.bytes.toString('base64'));
  return files;
}

describe('translations: none on a site whose languages are separate', () => {
  it('a new pl page never declares an es alternate, even where es has an item with its id', async () => {
    const m = (mirror = await startMirror({ reference: { independentIds: true } }));
    await m.run();
    // As on separate sites: es adds pages, then pl does; pl's new ids are ids es already has.
    const create = async (lang: string, title: string): Promise<Json> => {
      const created = await callApi(m.site, lang, '/cms/v2/pages', {
        method: 'POST',
        auth: true,
        body: { title, status: 'publish', content: '<p>Nowa</p>' },
      });
      expect(created.status).toBe(201);
      return created.body as Json;
    };
    const esIds = new Set<number>();
    for (let index = 0; index < 4; index++) esIds.add((await create('es', `Nueva ${index}`)).id);
    let page: Json | undefined;
    for (let attempt = 0; attempt < 10 && page === undefined; attempt++) {
      const created = await create('pl', `Nowa strona ${attempt}`);
      if (esIds.has(created.id as number)) page = created;
    }
    if (page === undefined) throw new Error('no new pl page shares its id with an es item');
    await m.run();

    const file = path.join(m.outDir, 'pl', pageFileOf(sitePathOfLink(m.site, 'pl', page.link)));
    const html = fs.readFileSync(file, 'utf8');
    expect(html).toContain(page.title.rendered as string);
    expect(alternates(html).filter((line) => line.startsWith('es'))).toEqual([]);
    // The switcher goes to the es home, relative to the page.
    const depth = pageFileOf(sitePathOfLink(m.site, 'pl', page.link)).split('/').length - 1;
    expect(switcherHref(html, 'es')).toBe(`${'../'.repeat(depth + 1)}es/`);

    // The same cache built with --translations same-id pairs by id: here, wrongly, which is
    // why a site of separate languages must not say same-id.
    const out = path.join(m.temp.dir, 'same-id');
    await build(m, out, '--translations', 'same-id');
    const paired = fs.readFileSync(
      path.join(out, 'pl', pageFileOf(sitePathOfLink(m.site, 'pl', page.link))),
      'utf8',
    );
    expect(alternates(paired).filter((line) => line.startsWith('es'))).toHaveLength(1);
  });
});

describe('translations: same-id on a site that serves one content set', () => {
  it('pairs a post with the es post of the same id, in hreflang and the switcher', async () => {
    const m = (mirror = await startMirror());
    await m.run();
    const [post] = (await getJson(m.site, 'pl', '/cms/v2/posts', { query: { per_page: 1 } }))
      .body as Json[];
    if (post === undefined) throw new Error('the seed has a public post');
    const es = (await getJson(m.site, 'es', `/cms/v2/posts/${post.id}`)).body as Json;
    const esPath = sitePathOfLink(m.site, 'es', es.link);
    const html = fs.readFileSync(
      path.join(m.outDir, 'pl', pageFileOf(sitePathOfLink(m.site, 'pl', post.link))),
      'utf8',
    );
    expect(alternates(html)).toContain(`es ${m.site.url}/es${esPath}`);
    expect(switcherHref(html, 'es')).toMatch(new RegExp(`es${esPath.replace(/[.]/g, '\\.')}$`));
  });
});

describe('language order and subsets', () => {
  it('gives the same bytes whatever the order or subset of languages built', async () => {
    const m = (mirror = await startMirror());
    await m.run();
    const out = (name: string) => path.join(m.temp.dir, name);
    await build(m, out('a'), '--lang', 'pl,es', '--force');
    await build(m, out('b'), '--lang', 'es,pl', '--force');
    await build(m, out('c'), '--lang', 'pl', '--force');
    await build(m, out('c'), '--lang', 'es', '--force');
    const reference = bytesOf(out('a'));
    expect(reference.size).toBeGreaterThan(100);
    for (const other of ['b', 'c']) {
      const files = bytesOf(out(other));
      expect([...files.keys()].sort(), other).toEqual([...reference.keys()].sort());
      const differing = [...files].filter(([file, bytes]) => reference.get(file) !== bytes);
      expect(
        differing.map(([file]) => file),
        other,
      ).toEqual([]);
    }
    // pl built alone still lists es in its switcher.
    expect(fs.readFileSync(path.join(out('c'), 'pl', 'index.html'), 'utf8')).toMatch(
      /hreflang="es"/,
    );
  });

  it('alternating the order after one-title edits rewrites only what depends on the edit', async () => {
    const m = (mirror = await startMirror());
    await m.run(['--lang', 'pl,es']);
    // Public posts that are built (a password-protected one never reaches the output).
    const posts = (
      (await getJson(m.site, 'pl', '/cms/v2/posts', { query: { per_page: 10 } })).body as Json[]
    ).filter((post) => post.content.protected === false);
    const orders = ['es,pl', 'pl,es', 'es,pl'];
    for (const [index, order] of orders.entries()) {
      const post = posts[index];
      if (post === undefined) throw new Error('the seed has three public posts');
      const edited = await callApi(m.site, 'pl', `/cms/v2/posts/${post.id}`, {
        method: 'POST',
        auth: true,
        body: { title: `Nowy tytuł ${index}` },
      });
      expect(edited.status).toBe(200);
      const run = await m.run(['--lang', order]);
      expect(run.pull.languages.pl?.updated, order).toBe(1);
      const pl = run.build.languages.pl;
      const es = run.build.languages.es;
      if (pl === undefined || es === undefined) throw new Error(`no build summary (${order})`);
      // A pl title changes no es page (the es switcher links to the pl path, not its title).
      expect(es.written, order).toBe(0);
      // The post, the listings and feeds that show its title, the search index: a few files.
      expect(pl.written, order).toBeGreaterThan(0);
      expect(pl.written, order).toBeLessThan(pl.pages / 2);
    }
  });
});
