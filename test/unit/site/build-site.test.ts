import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { BuildOptions } from '../../../src/site/build-site.js';
import { inProcessWorkers, type BuildWorkers } from '../../../src/site/build-workers.js';
import { InputError } from '../../../src/errors.js';
import type { SiteModel } from '../../../src/site/site-model.js';
import { checkLinks, documentUrls, walkFiles } from '../../helpers/link-check.js';
import { findAll, parseXml, textOf } from '../../helpers/xml-parse.js';
import { fixtureModel, makePost, postPath, SECRET_MARKER } from '../../helpers/fixture-model.js';
import {
  recordedFiles,
  storedBuild,
  type StoredBuild,
  type StoredBuildHow,
} from '../../helpers/site/stored-build.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

const cache = useTempStore();

let tmp: string;
let outputDir: string;
let outDir: string;

beforeEach(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'cms-build-'));
  outputDir = path.join(tmp, 'output');
  outDir = path.join(outputDir, 'pl');
});

afterEach(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function read(file: string): string {
  return fs.readFileSync(path.join(outDir, file), 'utf8');
}

/** Bytes of a file, gunzipped when gzip (Pagefind's index files are). */
function plainBytes(file: string): Buffer {
  const bytes = fs.readFileSync(file);
  return bytes[0] === 0x1f && bytes[1] === 0x8b ? zlib.gunzipSync(bytes) : bytes;
}

function jsonLd(html: string): { '@graph': Record<string, unknown>[] } {
  const match = /<script type="application\/ld\+json">([\s\S]*?)<\/script>/.exec(html);
  expect(match).not.toBeNull();
  return JSON.parse(match![1]!) as { '@graph': Record<string, unknown>[] };
}

/** A build with its record in the test's cache, the files on disk listed (a plain `build`). */
function build(
  model: SiteModel,
  extra: Partial<Omit<BuildOptions, 'stored'>> = {},
  how?: StoredBuildHow,
): Promise<StoredBuild> {
  return buildFromModel(model, { outDir, search: false, ...extra }, how);
}

/** `build` without the defaults. */
function buildFromModel(
  model: SiteModel,
  options: Omit<BuildOptions, 'stored'>,
  how?: StoredBuildHow,
): Promise<StoredBuild> {
  return storedBuild(cache.store, model, options, how);
}

describe('buildFromModel: a full build', () => {
  it('writes every page at its remote path, plus 404, feed, sitemap, robots and assets', async () => {
    const report = await build(fixtureModel({ posts: 25 }));
    const files = walkFiles(outDir);
    for (const file of [
      'index.html',
      'page/2/index.html',
      'page/3/index.html',
      '2024/01/post-12/index.html',
      '2024/04/post-3/index.html',
      'about/index.html',
      'about/team/index.html',
      'about/team/leaders/index.html',
      'contact/index.html',
      '404.html',
      'search/index.html',
      'feed.xml',
      'sitemap.xml',
      'robots.txt',
      'assets/style.css',
      'assets/search.js',
      'media/photo-0.png',
      'media/logo.png',
    ]) {
      expect(files, file).toContain(file);
    }
    expect(files).not.toContain('page/4/index.html');
    expect(files).not.toContain('media/unused.png');
    expect(files).not.toContain('media/secret.png');
    // 25 posts + 4 pages + 3 listing pages + 404 + search
    expect(report.pages).toBe(34);
    expect(report.rendered).toBe(34);
    expect(report.written).toBe(files.length);
    expect(report).toMatchObject({ unchanged: 0, removed: 0, skipped: false });
    expect(read('404.html')).toContain('<base href="/pl/">');
    expect(read('robots.txt')).toBe(
      'User-agent: *\nDisallow: /pl/search/\n\nSitemap: https://example.test/pl/sitemap.xml\n',
    );
  });

  it('writes a well-formed Atom feed of the newest posts with absolute links', async () => {
    await build(fixtureModel({ posts: 25 }));
    const feed = parseXml(read('feed.xml'));
    expect(feed.name).toBe('feed');
    const entries = findAll(feed, 'entry');
    expect(entries).toHaveLength(20);
    expect(textOf(findAll(entries[0]!, 'title')[0]!)).toBe('Post 23 & <friends>');
    expect(findAll(entries[0]!, 'link')[0]?.attributes.href).toBe(
      'https://example.test/pl/2024/12/post-23/',
    );
    const content = findAll(entries[0]!, 'content')[0]!;
    expect(content.attributes['xml:base']).toBe('https://example.test/pl/2024/12/post-23/');
    expect(textOf(content)).toContain('<a href="../../../about/">About</a>');
  });

  it('writes a well-formed sitemap with hreflang alternates where an item has a counterpart', async () => {
    await build(fixtureModel({ posts: 5 }));
    const sitemap = parseXml(read('sitemap.xml'));
    const urls = findAll(sitemap, 'url');
    // home + 4 public pages + 5 posts
    expect(urls).toHaveLength(10);
    const byLoc = new Map(urls.map((url) => [textOf(findAll(url, 'loc')[0]!), url]));
    const post = byLoc.get('https://example.test/pl/2024/02/post-1/')!;
    expect(findAll(post, 'xhtml:link').map((link) => link.attributes)).toEqual([
      { rel: 'alternate', hreflang: 'pl', href: 'https://example.test/pl/2024/02/post-1/' },
      { rel: 'alternate', hreflang: 'es', href: 'https://example.test/es/2024/02/post-1/' },
    ]);
    expect(findAll(byLoc.get('https://example.test/pl/contact/')!, 'xhtml:link')).toEqual([]);
    expect(textOf(findAll(post, 'lastmod')[0]!)).toBe('2024-02-02T01:00:00Z');
  });

  it('puts parseable JSON-LD with the site identity on every page', async () => {
    await build(fixtureModel({ posts: 3 }));
    for (const file of walkFiles(outDir).filter((name) => name.endsWith('.html'))) {
      const graph = jsonLd(read(file))['@graph'];
      expect(graph[0]).toMatchObject({ '@type': 'WebSite', url: 'https://example.test/pl/' });
      expect(graph[1]).toEqual({
        '@type': 'Organization',
        '@id': 'https://example.test/pl/#identity',
        name: 'Fixture Org',
        url: 'https://example.test/pl/',
        logo: { '@type': 'ImageObject', url: 'https://example.test/pl/media/logo.png' },
        sameAs: ['https://social.example/fixture'],
      });
    }
    const post = jsonLd(read('2024/02/post-1/index.html'))['@graph'][2];
    expect(post).toMatchObject({
      '@type': 'BlogPosting',
      headline: 'Post 1 & <friends>',
      url: 'https://example.test/pl/2024/02/post-1/',
      datePublished: '2024-02-02T01:00:00Z',
    });
  });

  it('describes a Person when the site represents one', async () => {
    const model = fixtureModel({ posts: 1 });
    model.identity = {
      kind: 'Person',
      name: 'Ana </script><script>alert(1)</script>',
      url: 'https://ana.example/',
      sameAs: [],
    };
    await build(model);
    const html = read('index.html');
    expect(html).not.toContain('</script><script>alert(1)');
    expect(jsonLd(html)['@graph'][1]).toEqual({
      '@type': 'Person',
      '@id': 'https://example.test/pl/#identity',
      name: 'Ana </script><script>alert(1)</script>',
      url: 'https://ana.example/',
    });
  });

  it('links only to files that exist, across both languages', async () => {
    await build(fixtureModel({ lang: 'pl', posts: 12 }));
    await buildFromModel(fixtureModel({ lang: 'es', posts: 12 }), {
      outDir: path.join(outputDir, 'es'),
      search: false,
    });
    for (const lang of ['pl', 'es']) {
      const report = checkLinks(outputDir, lang);
      expect(report.files).toBeGreaterThan(15);
      expect(report.checked).toBeGreaterThan(200);
      expect(report.broken).toEqual([]);
    }
    // The switcher of a post goes to its counterpart in the sibling folder.
    const { urls } = documentUrls(read('2024/01/post-0/index.html'));
    expect(urls).toContain('../../../../es/2024/01/post-0/');
  });

  it('reports a missing target through the link checker', async () => {
    await build(fixtureModel({ posts: 2 }));
    fs.rmSync(path.join(outDir, 'about'), { recursive: true });
    const broken = checkLinks(outputDir, 'pl').broken.filter(
      (link) => !link.reason.includes('/es/'),
    );
    expect(broken.length).toBeGreaterThan(0);
    expect(broken.map((link) => link.reason)).toContain('missing /pl/about/index.html');
    expect(broken.every((link) => link.reason.includes('/pl/about/'))).toBe(true);
  });

  it('never writes drafts, private, pending, future, trashed or protected content anywhere', async () => {
    const report = await buildFromModel(fixtureModel({ posts: 5 }), { outDir });
    expect(walkFiles(outDir).some((file) => file.startsWith('pagefind/s0/'))).toBe(true);
    for (const file of walkFiles(tmp)) {
      const bytes = plainBytes(path.join(tmp, file));
      expect(bytes.includes(SECRET_MARKER), file).toBe(false);
    }
    expect(
      walkFiles(outDir).some(
        (file) => file.startsWith('secret/') || file.startsWith('hidden-page/'),
      ),
    ).toBe(false);
    // Nothing but the language directory was created.
    expect(fs.readdirSync(tmp)).toEqual(['output']);
    expect(fs.readdirSync(outputDir).sort()).toEqual(['.cms-mirror', 'pl']);
    expect(fs.readdirSync(path.join(outputDir, '.cms-mirror'))).toEqual(['pl.stamp']);
    const entry = JSON.parse(read('pagefind/s0/pagefind-entry.json')) as {
      languages: Record<string, { page_count: number }>;
    };
    // 5 posts + 4 pages, and no more.
    expect(entry.languages.pl?.page_count).toBe(9);
    expect(report.warnings.length).toBeGreaterThan(0);
  });

  it('keeps hostile paths inside the output directory', async () => {
    const model = fixtureModel({ posts: 2 });
    const hostile = [
      '/../../../escaped/',
      '/%2e%2e/%2e%2e/escaped/',
      '/..%2F..%2Fescaped/',
      '/a%5C..%5C..%5Cescaped/',
      `/${'ł'.repeat(200)}/`,
      '/%00/',
      '//escaped.example/x/',
      '/\u202Eevil/',
    ];
    hostile.forEach((sitePath, index) => model.posts.push(makePost(60 + index, { sitePath })));
    model.media.push({ sitePath: '/../escaped.png', sha256: 'x', read: () => Buffer.from('x') });
    const report = await build(model);
    expect(fs.readdirSync(tmp)).toEqual(['output']);
    expect(fs.readdirSync(outputDir).sort()).toEqual(['.cms-mirror', 'pl']);
    expect(fs.readdirSync(path.join(outputDir, '.cms-mirror'))).toEqual(['pl.stamp']);
    for (const up of [1, 2, 3, 4]) {
      expect(fs.existsSync(path.resolve(outDir, ...Array<string>(up).fill('..'), 'escaped'))).toBe(
        false,
      );
    }
    expect(fs.existsSync(path.resolve(outDir, '..', 'escaped.png'))).toBe(false);
    const files = walkFiles(outDir);
    // `//host/x/` is only an odd path here; the others are refused.
    expect(files.filter((file) => file.startsWith('escaped'))).toEqual([
      'escaped.example/x/index.html',
    ]);
    expect(files.filter((file) => file.includes('%') || file.includes('\\'))).toEqual([]);
    expect(files).toContain('\u202Eevil/index.html');
    for (const id of [160, 161, 162, 163, 164, 165]) {
      expect(
        report.warnings.some((warning) => warning.startsWith(`post ${id} left out`)),
        String(id),
      ).toBe(true);
    }
    expect(
      report.warnings.some((warning) => warning.startsWith('media file /../escaped.png left out')),
    ).toBe(true);
    // Only the sibling language is missing (it was not built here).
    expect(
      checkLinks(outputDir, 'pl').broken.filter((link) => !link.reason.includes('/es/')),
    ).toEqual([]);
  });
});

describe('buildFromModel: incremental', () => {
  it('skips a run whose pull changed nothing, and says so', async () => {
    const first = await build(fixtureModel());
    const onDisk = walkFiles(outDir);
    const recorded = recordedFiles(cache.store, 'pl');
    expect(Object.keys(recorded)).toHaveLength(onDisk.length);
    const second = await build(fixtureModel(), {
      changed: { items: 0, site: false },
    });
    expect(second).toMatchObject({
      skipped: true,
      written: 0,
      removed: 0,
      rendered: 0,
      pages: first.pages,
    });
    // The last build's record stands, untouched.
    expect(second.manifest).toEqual(first.manifest);
    expect(recordedFiles(cache.store, 'pl')).toEqual(recorded);
    expect(walkFiles(outDir)).toEqual(onDisk);
  });

  it('writes nothing when nothing changed even if the pull says something did', async () => {
    const first = await build(fixtureModel());
    const second = await build(fixtureModel(), {
      changed: { items: 3, site: false },
    });
    expect(second).toMatchObject({ skipped: false, written: 0, removed: 0, rendered: 0 });
    expect(second.unchanged).toBe(first.written);
    const third = await build(fixtureModel());
    expect(third).toMatchObject({ skipped: true, written: 0 });
  });

  it('rewrites only the edited post, the listing and feed that show it, and the sitemap', async () => {
    const first = await build(fixtureModel({ posts: 25 }), { postsPerPage: 10 });
    const untouched = path.join(outDir, '2024/02/post-1/index.html');
    const before = fs.statSync(untouched).mtimeMs;
    const edited = fixtureModel({ posts: 25 });
    const post = edited.posts.find((item) => item.id === 123)!;
    post.title = 'Post 23, edited';
    post.html = '<p>New body</p>';
    post.modifiedGmt = '2025-01-01T00:00:00';
    const second = await build(edited, { postsPerPage: 10 });
    // Post 23 is the newest non-sticky post: page 1 of the listing; its title also shows
    // on its newer and older neighbours' pages.
    expect(second.stagedFiles.sort()).toEqual(
      [
        '2024/12/post-23/index.html',
        'index.html',
        'feed.xml',
        'sitemap.xml',
        '2024/12/post-11/index.html',
      ].sort(),
    );
    expect(second.rendered).toBe(3);
    expect(second).toMatchObject({ removed: 0, skipped: false });
    expect(second.unchanged).toBe(first.written - 5);
    expect(fs.statSync(untouched).mtimeMs).toBe(before);
    expect(read('2024/12/post-23/index.html')).toContain('<p>New body</p>');
  });

  it('deletes the page of a removed or unpublished post', async () => {
    await build(fixtureModel({ posts: 12 }));
    const model = fixtureModel({ posts: 12 });
    model.posts = model.posts.filter((post) => post.id !== 105);
    model.posts.find((post) => post.id === 106)!.status = 'draft';
    const second = await build(model);
    // 10 posts left: the second listing page goes too.
    expect(second.removedFiles.sort()).toEqual([
      '2024/06/post-5/index.html',
      '2024/07/post-6/index.html',
      'page/2/index.html',
    ]);
    expect(second.removed).toBe(3);
    expect(fs.existsSync(path.join(outDir, '2024/06/post-5'))).toBe(false);
    // Its month held nothing else: the empty directory goes too.
    expect(fs.existsSync(path.join(outDir, '2024/06'))).toBe(false);
    expect(fs.existsSync(path.join(outDir, '2024/07/post-6'))).toBe(false);
    expect(fs.existsSync(path.join(outDir, '2024/07'))).toBe(false);
    expect(fs.existsSync(path.join(outDir, '2024/08/post-7'))).toBe(true);
    expect(read('index.html')).not.toContain('post-5/');
    expect(read('sitemap.xml')).not.toContain('post-6/');
    expect(
      checkLinks(outputDir, 'pl').broken.filter((link) => !link.reason.includes('/es/')),
    ).toEqual([]);
  });

  it('renders a page again when its file went missing', async () => {
    await build(fixtureModel({ posts: 3 }));
    fs.rmSync(path.join(outDir, 'contact/index.html'));
    const second = await build(fixtureModel({ posts: 3 }), {
      changed: { items: 0, site: false },
    });
    expect(second).toMatchObject({
      skipped: false,
      written: 1,
      rendered: 1,
      stagedFiles: ['contact/index.html'],
    });
  });

  it('renders everything again after a theme change, writing only files whose bytes changed', async () => {
    const templatesDir = path.join(tmp, 'theme');
    fs.cpSync(path.resolve('templates'), templatesDir, { recursive: true });
    const first = await build(fixtureModel({ posts: 3 }), { templatesDir });
    const notFound = path.join(templatesDir, '_includes/pages/not-found.njk');
    fs.writeFileSync(
      notFound,
      fs
        .readFileSync(notFound, 'utf8')
        .replace('{% endblock %}', '<p>Extra line</p>\n{% endblock %}'),
    );
    const second = await build(fixtureModel({ posts: 3 }), {
      templatesDir,
      changed: { items: 0, site: false },
    });
    expect(second.skipped).toBe(false);
    expect(second.rendered).toBe(first.rendered);
    expect(second.stagedFiles).toEqual(['404.html']);
    expect(read('404.html')).toContain('<p>Extra line</p>');
  });

  it('rebuilds only the search bundle whose documents changed', async () => {
    // 40 posts + 4 pages at 12 per bundle: 4 bundles.
    await buildFromModel(fixtureModel({ posts: 40 }), {
      outDir,
      searchDocsPerShard: 12,
    });
    const bundles = new Set(
      walkFiles(outDir)
        .filter((f) => f.startsWith('pagefind/'))
        .map((f) => f.split('/')[1]),
    );
    expect(bundles.size).toBe(4);
    const edited = fixtureModel({ posts: 40 });
    edited.posts.find((post) => post.id === 120)!.html = '<p>Searchable zanzibar</p>';
    const second = await buildFromModel(edited, {
      outDir,
      searchDocsPerShard: 12,
    });
    const touched = new Set(
      second.stagedFiles.filter((f) => f.startsWith('pagefind/')).map((f) => f.split('/')[1]),
    );
    expect(touched.size).toBe(1);
    expect(read('search/index.html')).toContain(
      'data-bundles="../pagefind/s0/ ../pagefind/s1/ ../pagefind/s2/ ../pagefind/s3/"',
    );
  });
});

describe('buildFromModel: themes', () => {
  it('fails with E_INPUT when a theme renders no page for some jobs', async () => {
    const templatesDir = path.join(tmp, 'theme');
    fs.cpSync(path.resolve('templates'), templatesDir, { recursive: true });
    fs.rmSync(path.join(templatesDir, 'page.njk'));
    await expect(build(fixtureModel({ posts: 1 }), { templatesDir })).rejects.toMatchObject({
      code: 'E_INPUT',
      message: expect.stringContaining('kind page'),
    });
  });

  it('fails with E_CONFIG for a missing templates directory', async () => {
    await expect(
      build(fixtureModel({ posts: 1 }), { templatesDir: path.join(tmp, 'nope') }),
    ).rejects.toMatchObject({
      code: 'E_CONFIG',
    });
  });

  it('writes a page a theme adds on its own, and keeps it on runs that render nothing', async () => {
    const templatesDir = path.join(tmp, 'theme');
    fs.cpSync(path.resolve('templates'), templatesDir, { recursive: true });
    fs.writeFileSync(
      path.join(templatesDir, 'colophon.njk'),
      '---\npermalink: /colophon/\n---\n<p>Made by {{ cms.site.name }}</p>\n',
    );
    await build(fixtureModel({ posts: 1 }), { templatesDir });
    expect(read('colophon/index.html')).toBe('<p>Made by Strona testowa</p>\n');
    const second = await build(fixtureModel({ posts: 1 }), {
      templatesDir,
      changed: { items: 1, site: false },
    });
    expect(second.rendered).toBe(0);
    expect(fs.existsSync(path.join(outDir, 'colophon/index.html'))).toBe(true);
    expect(second.removedFiles).toEqual([]);
  });
});

describe('buildFromModel: rendering in chunks', () => {
  /** Every file under `root` with its bytes. */
  function snapshot(root: string): Map<string, Buffer> {
    return new Map(walkFiles(root).map((file) => [file, fs.readFileSync(path.join(root, file))]));
  }

  function themeWithPageOfItsOwn(): string {
    const templatesDir = path.join(tmp, 'theme');
    fs.cpSync(path.resolve('templates'), templatesDir, { recursive: true });
    fs.writeFileSync(
      path.join(templatesDir, 'colophon.njk'),
      '---\npermalink: /colophon/\n---\n<p>Made by {{ cms.site.name }}</p>\n',
    );
    return templatesDir;
  }

  it('writes the same bytes as one Eleventy run, a theme page of its own included', async () => {
    const templatesDir = themeWithPageOfItsOwn();
    const whole = path.join(tmp, 'whole');
    const chunked = path.join(tmp, 'chunked');
    const one = await buildFromModel(fixtureModel({ posts: 25 }), { outDir: whole, templatesDir });
    const many = await buildFromModel(fixtureModel({ posts: 25 }), {
      outDir: chunked,
      templatesDir,
      renderChunkSize: 3,
    });
    expect(many.rendered).toBe(one.rendered);
    expect(many.warnings).toEqual(one.warnings);
    expect(snapshot(chunked)).toEqual(snapshot(whole));
    expect(fs.readFileSync(path.join(chunked, 'colophon/index.html'), 'utf8')).toContain('Made by');
    expect(many.manifest).toEqual(one.manifest);
    const recorded = recordedFiles(cache.store, 'whole');
    expect(Object.keys(recorded)).toHaveLength(walkFiles(whole).length);
    expect(recordedFiles(cache.store, 'chunked')).toEqual(recorded);
  });

  it('leaves the output as it was when a later chunk fails: pages staged, none in place', async () => {
    await build(fixtureModel({ posts: 25 }), { renderChunkSize: 4 });
    const before = snapshot(outDir);
    // Five new posts, newer than all others (rendered right after the listings), and an
    // edit of the oldest post (a page that replaces its file).
    const changed = (): ReturnType<typeof fixtureModel> => {
      const model = fixtureModel({ posts: 25 });
      for (let index = 25; index < 30; index++) {
        model.posts.push(
          makePost(index, {
            dateGmt: `2030-01-0${index - 24}T10:00:00`,
            sitePath: postPath(index),
          }),
        );
      }
      const oldest = model.posts.find((post) => post.id === 100)!;
      oldest.title = 'Renamed oldest post';
      return model;
    };

    // A rehearsal on a copy counts the chunks, so that the real build fails on the last one.
    const rehearsal = path.join(tmp, 'rehearsal');
    fs.cpSync(outDir, rehearsal, { recursive: true });
    // The copy holds the same build: its stamp says so.
    fs.mkdirSync(path.join(tmp, '.cms-mirror'));
    fs.copyFileSync(
      path.join(outputDir, '.cms-mirror', 'pl.stamp'),
      path.join(tmp, '.cms-mirror', 'rehearsal.stamp'),
    );
    let chunks = 0;
    const counting: BuildWorkers = {
      ...inProcessWorkers,
      render: (input) => {
        chunks++;
        return inProcessWorkers.render(input);
      },
    };
    // It builds on the record of `pl` and leaves it as it was (not recorded).
    await buildFromModel(
      changed(),
      { outDir: rehearsal, search: false, renderChunkSize: 2, workers: counting },
      { lang: 'pl', record: false },
    );
    expect(chunks).toBeGreaterThan(3);

    let calls = 0;
    let stagedBeforeFailure: string[] = [];
    let outputBeforeFailure: ReturnType<typeof snapshot> | undefined;
    const failingLast: BuildWorkers = {
      ...inProcessWorkers,
      render: async (input) => {
        if (++calls < chunks) return inProcessWorkers.render(input);
        // Let the chunks before this one come back and be written first.
        await new Promise((resolve) => setTimeout(resolve, 200));
        stagedBeforeFailure = walkFiles(path.join(outputDir, '.cms-mirror', 'pl.stage'));
        outputBeforeFailure = snapshot(outDir);
        throw new InputError('theme', 'The templates in theme failed to render: boom');
      },
    };
    await expect(
      build(changed(), { renderChunkSize: 2, workers: failingLast }),
    ).rejects.toMatchObject({ code: 'E_INPUT' });
    // The new posts' pages were staged while later chunks rendered, the output untouched...
    expect(stagedBeforeFailure).toContain(`${postPath(25).slice(1)}index.html`);
    expect(outputBeforeFailure).toEqual(before);
    // ...and the failure dropped the staging; nothing was replaced.
    expect(snapshot(outDir)).toEqual(before);
    expect(fs.readdirSync(path.join(outputDir, '.cms-mirror'))).toEqual(['pl.stamp']);
  });
});

describe('buildFromModel: a chunk queued behind a failed one', () => {
  it('has staged its pages before the build fails, so that no staging is left behind', async () => {
    let calls = 0;
    let queuedStaged: number | undefined;
    const failingFirst: BuildWorkers = {
      ...inProcessWorkers,
      render: async (input) => {
        if (++calls === 1) throw new InputError('theme', 'The templates failed: boom');
        // The chunk queued behind the failed one: it renders and stages, slowly, afterwards.
        await new Promise((resolve) => setTimeout(resolve, 300));
        const result = await inProcessWorkers.render(input);
        queuedStaged = result.pages.filter((page) => page.written).length;
        return result;
      },
    };
    await expect(
      build(fixtureModel({ posts: 8 }), { renderChunkSize: 2, workers: failingFirst }),
    ).rejects.toMatchObject({ code: 'E_INPUT' });
    // The build failed only once the queued chunk was done: it did stage pages...
    expect(queuedStaged).toBe(2);
    // ...into a staging the failure then removed; the output was never made.
    expect(fs.existsSync(path.join(outputDir, '.cms-mirror', 'pl.stage'))).toBe(false);
    expect(fs.existsSync(outDir)).toBe(false);
  });
});
