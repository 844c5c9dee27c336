/**
 * Issue 12, points 2, 3 and 10c: content refers to media by URLs other than their
 * `source_url` (size variants, another prefix or scheme, relative) and to items by short
 * links. After one pull and build of the reference site started with `urlVariants`, nothing
 * in either language's output loads from the origin, a second URL for the same bytes cost a
 * request but no second blob, short links to public items lead to their built pages, the
 * others stay and are warned about, and no media file is "left out" as the same as itself.
 */
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import type { Element, Root } from 'hast';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';
import { beforeAll, describe, expect, it } from 'vitest';
import { walkFiles } from '../../helpers/link-check.js';
import { useSharedSiteAndCache } from '../../helpers/mirror-fixture.js';
import { getJson, type Json, type ReferenceSite } from '../../helpers/reference.js';
import { runCliCaptured, type CliResult } from '../../helpers/run-cli.js';
import type { TempCache } from '../../helpers/temp-cache.js';

const LANGUAGES = ['pl', 'es'] as const;

/** Every URL an element of the page loads or links to: `src`, `href`, `poster`, `srcset`. */
function pageUrls(file: string): { tag: string; url: string }[] {
  const tree = unified().use(rehypeParse).parse(fs.readFileSync(file, 'utf8')) as Root;
  const found: { tag: string; url: string }[] = [];
  visit(tree, 'element', (node: Element) => {
    for (const name of ['src', 'href', 'poster', 'srcSet']) {
      const raw = node.properties[name];
      if (raw === undefined || raw === null) continue;
      const value = Array.isArray(raw) ? raw.join(',') : String(raw);
      const urls =
        name === 'srcSet'
          ? value.split(',').map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
          : [value];
      for (const url of urls) if (url !== '') found.push({ tag: node.tagName, url });
    }
  });
  return found;
}

describe('URL variants in content, through pull and build', () => {
  let site: ReferenceSite;
  let temp: TempCache;
  let outDir: string;
  let run: CliResult;

  const fixture = useSharedSiteAndCache({ urlVariants: true }, 'cms-mirror-variants-');

  beforeAll(async () => {
    ({ site, temp } = fixture);
    outDir = path.join(temp.dir, 'output');
    const pipeline = path.join(temp.dir, 'pipeline.yaml');
    fs.writeFileSync(pipeline, 'http:\n  requestsPerSecond: 0\n');
    run = await runCliCaptured(
      [
        'run',
        ...['--pipeline', pipeline, '--site', site.url, '--lang', LANGUAGES.join(',')],
        ...['--cache', temp.file, '--out', outDir],
      ],
      { env: {}, cwd: temp.dir },
    );
    expect(run.code, run.stderr).toBe(0);
  });

  it('nothing in the built pages loads or links to a file on the origin', () => {
    const host = new URL(site.url).host;
    for (const lang of LANGUAGES) {
      const pages = walkFiles(path.join(outDir, lang)).filter((file) => file.endsWith('.html'));
      expect(pages.length).toBeGreaterThan(20);
      const origin: string[] = [];
      let uploads = 0;
      for (const page of pages) {
        for (const { tag, url } of pageUrls(path.join(outDir, lang, page))) {
          if (url.includes('/cms-content/uploads/')) uploads += 1;
          // Only a URL written with a host can reach the origin; relative ones stay in the output.
          if (!/^(?:[a-z]+:)?\/\//i.test(url)) continue;
          const absolute = new URL(url, site.url);
          if (absolute.host !== host) continue;
          // Links to the origin's pages (canonical, alternates, unmirrored items) load nothing.
          const link = tag === 'a' || tag === 'link';
          if (!link || absolute.pathname.includes('/cms-content/')) origin.push(`${page}: ${url}`);
        }
      }
      expect(origin, lang).toEqual([]);
      expect(uploads, lang).toBe(0);
    }
  });

  it('the page with the variants shows local copies of every variant and links the local PDF', async () => {
    const posts: Json[] = (await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 100 } }))
      .body;
    const post = posts.find((item) => item.content.rendered.includes('?p='));
    const file = path.join(
      outDir,
      'pl',
      new URL(post.link).pathname.replace(/^\/pl\//, ''),
      'index.html',
    );
    const urls = pageUrls(file);
    const local = urls.filter(({ url }) => /(^|\/)media\/[0-9a-f]{16}-/.test(url));
    // The variant block alone has 1 src + 2 srcset + 1 thumbnail + 3 links to files.
    expect(local.length).toBeGreaterThanOrEqual(7);
    expect(local.some(({ url }) => url.endsWith('.pdf'))).toBe(true);
    for (const { url } of local) {
      expect(fs.existsSync(path.resolve(path.dirname(file), url)), url).toBe(true);
    }
  });

  it('a second URL for the same bytes costs a request, not a second blob', () => {
    const db = new Database(temp.file, { readonly: true });
    try {
      const shared = db
        .prepare(
          `SELECT sha256, count(*) AS urls FROM media_files GROUP BY sha256 HAVING count(*) > 1`,
        )
        .all() as { sha256: string; urls: number }[];
      expect(shared.length).toBeGreaterThan(0);
      const blobs = db
        .prepare('SELECT sha256, count(*) AS n FROM media_blobs GROUP BY sha256')
        .all() as {
        n: number;
      }[];
      expect(blobs.every((blob) => blob.n === 1)).toBe(true);
      const noPrefix = db
        .prepare(`SELECT url FROM media_files WHERE url LIKE ?`)
        .all(`${site.url}/cms-content/uploads/%`) as { url: string }[];
      expect(noPrefix.length).toBeGreaterThan(0);
      // The content's `https:` spelling of a size variant was fetched over the site's `http:`.
      expect(noPrefix.some(({ url }) => /-\d+x\d+\.png$/.test(url))).toBe(true);
      const otherScheme = `${site.url.startsWith('https:') ? 'http:' : 'https:'}${site.url.replace(/^https?:/, '')}`;
      const stored = db
        .prepare(`SELECT count(*) AS n FROM media_files WHERE url LIKE ?`)
        .get(`${otherScheme}%`) as { n: number };
      expect(stored.n).toBe(0);
    } finally {
      db.close();
    }
    // Fetched over the site's own scheme, each URL once.
    const noPrefixRequests = site.requests.filter((entry) =>
      entry.path.startsWith('/cms-content/uploads/'),
    );
    expect(noPrefixRequests.length).toBeGreaterThan(0);
    expect(new Set(noPrefixRequests.map((entry) => entry.path)).size).toBe(noPrefixRequests.length);
  });

  it('short links to public items lead to their built pages; the others stay and are warned about', async () => {
    const posts: Json[] = (await getJson(site, 'pl', '/cms/v2/posts', { query: { per_page: 100 } }))
      .body;
    const post = posts.find((item) => item.content.rendered.includes('?p='));
    const dir = path.join(outDir, 'pl', new URL(post.link).pathname.replace(/^\/pl\//, ''));
    const links = pageUrls(path.join(dir, 'index.html'))
      .filter(({ tag }) => tag === 'a')
      .map(({ url }) => url);
    const short = links.filter((url) => /[?&](p|page_id)=\d+/.test(url));
    // The draft's short link stays (pointing at the origin); the public ones are rewritten.
    expect(short).toHaveLength(1);
    expect(short[0]).toMatch(new RegExp(`^${site.url}/pl/\\?p=\\d+$`));
    const shortIds = [...post.content.rendered.matchAll(/\?(?:p|page_id)=(\d+)/g)].map((m) =>
      Number(m[1]),
    );
    expect(shortIds).toHaveLength(3);
    for (const id of shortIds.filter((id) => !short[0]!.endsWith(`=${id}`))) {
      const target =
        posts.find((item) => item.id === id) ??
        (await getJson(site, 'pl', `/cms/v2/pages/${id}`)).body;
      const targetDir = path.join(
        outDir,
        'pl',
        new URL(target.link).pathname.replace(/^\/pl\//, ''),
      );
      const relative = path.relative(dir, targetDir);
      expect(links.some((url) => url.replace(/\/$/, '') === relative.replace(/\\/g, '/'))).toBe(
        true,
      );
    }
    expect(run.stderr).toMatch(new RegExp(`warning: pl: .*${short[0]!.replace(/[?.]/g, '\\$&')}`));
  });

  it('no media file is left out as the same file as itself', () => {
    expect(run.stderr).not.toMatch(/left out: it is the same file as/);
  });
});
