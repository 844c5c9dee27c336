import { existsSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { AuthError, ConfigError } from '../../../src/errors.js';
import { openStore } from '../../../src/store/index.js';
import { useMigrationSites } from '../../helpers/migrate/migrate-sites.js';
import { getJson, type ReferenceSite } from '../../helpers/reference.js';
import { expectMigrated, migrationTree } from '../../helpers/reliability-migrate.js';

/**
 * `migrate` in-process, from a mirrored cache of a small reference site to empty reference
 * targets on 127.0.0.1: what the target ends up holding (from the target's own records), what
 * a second run, a dry run, a conflict or a failed file leaves there, and what the report says.
 */
/** The source post a short link (`?p=id`) points at. */
const shortLinked = (source: ReferenceSite) =>
  source.control.listItems('pl', 'posts').find((post) => post.status === 'publish')!;

/** Writes the target was asked for (every POST: creates, updates, batches, seo). */
const writes = (target: { requests: { method: string }[] }) =>
  target.requests.filter((entry) => entry.method === 'POST').length;

describe('migrate (a language re-created on another site)', () => {
  // A page under another page: the tree must be created parents first.
  const sites = useMigrationSites(undefined, {
    prepare: (source) => {
      const blog = source.control.listItems('pl', 'pages').find((page) => page.slug === 'blog')!;
      // Its text links to the home, to a page of another language and to a post by its id.
      source.control.createItems('pl', 'pages', 1, {
        parent: blog.id,
        slug: 'archiwum',
        title: 'Archiwum',
        content: `<p><a href="${source.url}/pl/">Start</a> <a href="${source.url}/en/about/">EN</a> <a href="${source.url}/pl/?p=${shortLinked(source).id}">short</a></p>`,
      });
    },
  });

  it('re-creates every item once, records the mappings, copies the seo settings; a second run writes nothing', async () => {
    const cache = sites.cache();
    const target = await sites.target();
    const lines: string[] = [];
    // The target address with trailing slashes: the same site as without them.
    const report = await sites.run(cache, target, {
      to: `${target.url}//`,
      onLine: (line) => lines.push(line),
    });
    const seen = target.requests.length;
    expect(report.failed).toEqual([]);
    expect(report.stopped).toBe(false);
    expectMigrated(sites.source, target, 'pl');
    const from = migrationTree(sites.source, 'pl');
    expect(report.created).toEqual({
      media: from.media.length,
      pages: from.pages.length,
      posts: from.posts.length,
    });
    expect(report.skipped).toBe(0);
    expect(from.pages.some((page) => page.parent !== null)).toBe(true);
    // Links rewritten to the target; the source's term ids are not sent (not told to keep them).
    const contents = [
      ...target.control.listItems('pl', 'pages'),
      ...target.control.listItems('pl', 'posts'),
    ].map((item) => item.content);
    expect(contents.join('\n')).toContain(`href="${target.url}/`);
    // A link to a page of another language moves with the site's address.
    const index = (await getJson(target, 'pl', '/')).body as { url: string; home: string };
    const archive = target.control.listItems('pl', 'pages').find((p) => p.slug === 'archiwum')!;
    expect(archive.content).toContain(`<a href="${index.url}/en/about/">EN</a>`);
    // A short link by id points at the target's copy, under the target's home.
    const copy = target.control
      .listItems('pl', 'posts')
      .find((post) => post.slug === shortLinked(sites.source).slug)!;
    expect(archive.content).toContain(`<a href="${index.home}?p=${copy.id}">short</a>`);
    for (const content of contents) expect(content).not.toContain(sites.source.url);
    // (every post gets the target's default, while the source's posts carry different ids).
    const termLists = (site: typeof target) =>
      new Set(
        site.control
          .listItems('pl', 'posts')
          .map((post) => JSON.stringify((post as unknown as { categories: number[] }).categories)),
      );
    expect(termLists(target).size).toBe(1);
    expect(termLists(sites.source).size).toBeGreaterThan(1);
    // The cache is closed after the run (nothing left in its write-ahead log).
    expect(existsSync(`${cache}-wal`)).toBe(false);
    // Every request to the target but its index and the credential check is counted.
    expect(target.requests.slice(0, 2).map((entry) => [entry.method, entry.path])).toEqual([
      ['GET', '/'],
      ['GET', '/cms/v2/posts'],
    ]);
    expect(report.requests).toBe(seen - 2);
    expect(report.requests).toBeGreaterThan(0);
    expect(report.seo?.siteRepresentation).toBe('ok (200)');
    expect(report.requests).toBeGreaterThanOrEqual(report.seo!.requests + report.batches);
    // Term ids are left out, and said so.
    expect(report.warnings.some((line) => line.startsWith('posts: category ids'))).toBe(true);
    expect(report.planText).toMatch(/^plan: create \d+ media, \d+ pages, \d+ posts;/m);
    expect(lines.filter((line) => line.startsWith('created media '))).toHaveLength(
      from.media.length,
    );

    const mapped = (() => {
      const store = openStore(cache);
      try {
        return store.idMap.list(`${sites.source.url}#pl`, `${target.url}#pl`);
      } finally {
        store.close();
      }
    })();
    const total = from.media.length + from.pages.length + from.posts.length;
    expect(mapped).toHaveLength(total);

    const before = writes(target);
    const again = await sites.run(cache, target);
    expect(again.created).toEqual({ media: 0, pages: 0, posts: 0 });
    expect(again.skipped).toBe(total);
    expect(again.recovered).toBe(0);
    expect(again.failed).toEqual([]);
    expectMigrated(sites.source, target, 'pl');
    // Only the seo copy and indexing write again (harmless to repeat).
    expect(writes(target) - before).toBe(again.seo!.requests);
  });

  it('reads the target in a dry run, plans, and writes nothing', async () => {
    const target = await sites.target();
    const report = await sites.run(sites.cache(), target, { dryRun: true });
    expect(writes(target)).toBe(0);
    expect(target.control.listItems('pl', 'posts')).toEqual([]);
    expect(report.created).toEqual({ media: 0, pages: 0, posts: 0 });
    expect(report.seo).toBeUndefined();
    expect(report.planText).toMatch(/^create media \d+ /m);
    expect(report.requests).toBeGreaterThan(0);
  });

  it("stops before writing on a person's item with a migrated slug; `skip` migrates the rest", async () => {
    const source = migrationTree(sites.source, 'pl');
    const taken = source.posts[0]!.slug;
    const target = await sites.target();
    target.control.createItems('pl', 'posts', 1, { slug: taken, title: 'A person wrote this' });
    const stopped = await sites.run(sites.cache(), target);
    expect(stopped.stopped).toBe(true);
    expect(stopped.conflicts.map((conflict) => conflict.slug)).toEqual([taken]);
    expect(writes(target)).toBe(0);
    expect(stopped.planText).toContain(taken);

    const cache = sites.cache();
    const skipped = await sites.run(cache, target, { onConflict: 'skip' });
    expect(skipped.stopped).toBe(false);
    expect(skipped.failed).toEqual([]);
    expect(skipped.created.posts).toBe(source.posts.length - 1);
    const onTarget = migrationTree(target, 'pl');
    expect(onTarget.posts.filter((post) => post.slug === taken)).toEqual([
      expect.objectContaining({ title: 'A person wrote this' }),
    ]);
    expect(onTarget.pages).toEqual(source.pages);
    expect(onTarget.media).toEqual(source.media);
  });

  it('holds every page and post back when a file cannot be created; the next run creates both', async () => {
    const cache = sites.cache();
    const store = openStore(cache);
    const [first] = [...store.items.iterate('pl', 'media')];
    const json = JSON.parse(first!.json) as Record<string, unknown> & { id: number };
    store.items.upsertPage('pl', 'media', [{ ...json, source_url: undefined }], {
      context: 'edit',
    });
    store.close();
    const target = await sites.target();
    const report = await sites.run(cache, target);
    const source = migrationTree(sites.source, 'pl');
    expect(report.failed[0]).toEqual({
      type: 'media',
      sourceId: first!.id,
      message: `media ${first!.id} has no source_url`,
    });
    const waiting = report.failed.slice(1);
    expect(waiting).toHaveLength(source.pages.length + source.posts.length);
    for (const failure of waiting) {
      expect(failure.message).toBe(
        'waits for media that could not be created; the next run creates both',
      );
    }
    expect(waiting.map((failure) => failure.type)).toEqual([
      ...source.pages.map(() => 'pages'),
      ...source.posts.map(() => 'posts'),
    ]);
    expect(target.control.listItems('pl', 'pages')).toEqual([]);
    expect(target.control.listItems('pl', 'posts')).toEqual([]);
    expect(target.control.listItems('pl', 'media')).toHaveLength(source.media.length - 1);
    expect(report.seo).toBeUndefined();

    const fixed = openStore(cache);
    fixed.items.upsertPage('pl', 'media', [json], { context: 'edit' });
    fixed.close();
    const again = await sites.run(cache, target);
    expect(again.failed).toEqual([]);
    expect(again.created).toEqual({
      media: 1,
      pages: source.pages.length,
      posts: source.posts.length,
    });
    expectMigrated(sites.source, target, 'pl');
  });

  it('sends the term ids when told the target shares them', async () => {
    const target = await sites.target();
    const report = await sites.run(sites.cache(), target, { keepTerms: true });
    // With the terms kept and a clean target, there is nothing to warn about at all.
    expect(report.warnings).toEqual([]);
    const categories = (site: typeof target) =>
      new Map(
        site.control
          .listItems('pl', 'posts')
          .map((post) => [post.slug, (post as unknown as { categories: number[] }).categories]),
      );
    expect(categories(target)).toEqual(categories(sites.source));
    expect([...categories(target).values()].flat().length).toBeGreaterThan(0);
  });

  it('refuses to run without credentials for the target, naming the variables, before any request', async () => {
    const target = await sites.target();
    const attempt = sites.run(sites.cache(), target, {
      credentials: undefined,
      credentialNames: { user: 'TARGET_USER', password: 'TARGET_PASSWORD' },
    });
    await expect(attempt).rejects.toThrow(ConfigError);
    await expect(attempt).rejects.toThrow(
      'migrate needs credentials for the target (also for --dry-run, which reads it): set TARGET_USER and TARGET_PASSWORD',
    );
    expect(target.requests).toEqual([]);
  });

  it('names the default variables when none are given', async () => {
    const target = await sites.target();
    await expect(sites.run(sites.cache(), target, { credentials: undefined })).rejects.toThrow(
      'set CMS_USER and CMS_APP_PASSWORD',
    );
  });

  it('refuses wrong credentials before reading or writing anything, naming the variables', async () => {
    const target = await sites.target();
    const attempt = sites.run(sites.cache(), target, {
      credentials: { user: target.credentials.user, password: 'wrong wrong wrong' },
      credentialNames: { user: 'TARGET_USER', password: 'TARGET_PASSWORD' },
    });
    await expect(attempt).rejects.toThrow(AuthError);
    await expect(attempt).rejects.toThrow('TARGET_USER/TARGET_PASSWORD');
    expect(writes(target)).toBe(0);
  });

  it('gives each item the target author it is mapped to', async () => {
    const target = await sites.target();
    const report = await sites.run(sites.cache(), target, {
      authors: new Map([
        [1, 2],
        [2, 1],
      ]),
    });
    expect(report.failed).toEqual([]);
    const authorOf = (site: typeof target) =>
      new Map(site.control.listItems('pl', 'posts').map((post) => [post.slug, post.author]));
    const from = authorOf(sites.source);
    const to = authorOf(target);
    expect(to.size).toBeGreaterThan(0);
    expect(new Set(from.values())).toEqual(new Set([1, 2]));
    for (const [slug, author] of to) expect(author).toBe(3 - from.get(slug)!);
  });

  it("adopts a person's item with `adopt`, and a later run neither re-creates nor remaps it", async () => {
    const source = migrationTree(sites.source, 'pl');
    const taken = source.posts[0]!.slug;
    const target = await sites.target();
    target.control.createItems('pl', 'posts', 1, { slug: taken, title: 'A person wrote this' });
    const cache = sites.cache();
    const report = await sites.run(cache, target, { onConflict: 'adopt' });
    expect(report.adopted).toBe(1);
    expect(report.created.posts).toBe(source.posts.length - 1);
    const again = await sites.run(cache, target, { onConflict: 'adopt' });
    expect(again.failed).toEqual([]);
    expect(again.created).toEqual({ media: 0, pages: 0, posts: 0 });
    expect(target.control.listItems('pl', 'posts')).toHaveLength(source.posts.length);
  });
});

describe('migrate after a run that died before re-linking, with a cache that lost its mappings', () => {
  const sites = useMigrationSites();

  it('finds its own copies (recorded in a real run, not in a dry run) and re-links them', async () => {
    const target = await sites.target();
    const linked = 'jesienny-spacer-po-krakowie';
    // A person's post holds the slug: the migrated one is made beside it (`-2`).
    target.control.createItems('pl', 'posts', 1, { slug: linked, title: 'A person wrote this' });
    const first = await sites.run(sites.cache(), target, { onConflict: 'beside' });
    expect(first.failed).toEqual([]);
    const posts = () => target.control.listItems('pl', 'posts');
    const copy = posts().find((post) => post.slug === `${linked}-2`)!;
    const linking = posts().find((post) => post.content.includes(`/${linked}-2/`))!;
    expect(linking).toBeDefined();
    // As if the run had died before its second pass: the link still has the guessed path.
    target.control.updateItem('pl', 'posts', linking.id, {
      content: linking.content.replaceAll(`/${linked}-2/`, `/${linked}/`),
    });
    const total = first.created.media + first.created.pages + first.created.posts;
    const mapped = (cache: string) => {
      const store = openStore(cache);
      try {
        return store.idMap.list(`${sites.source.url}#pl`, `${target.url}#pl`).length;
      } finally {
        store.close();
      }
    };

    const cache = sites.cache();
    const writesBefore = writes(target);
    const dry = await sites.run(cache, target, { dryRun: true, onConflict: 'beside' });
    expect(dry.recovered).toBe(total);
    expect(mapped(cache)).toBe(0);
    expect(writes(target)).toBe(writesBefore);

    const second = await sites.run(cache, target, { onConflict: 'beside' });
    expect(second.recovered).toBe(total);
    expect(second.created).toEqual({ media: 0, pages: 0, posts: 0 });
    expect(mapped(cache)).toBe(total);
    const relinked = target.control.getItem('pl', 'posts', linking.id)!;
    expect(relinked.content).toContain(`/${linked}-2/`);
    expect(relinked.content).not.toContain(`/${linked}/`);
    expect(copy.id).toBeGreaterThan(0);

    const third = await sites.run(cache, target, { onConflict: 'beside' });
    expect(third.recovered).toBe(0);
    expect(third.skipped).toBe(total);
  });
});

describe('migrate from a cache without the media files', () => {
  const sites = useMigrationSites({ posts: 1, pages: 1, media: 2 }, { files: false });

  it('downloads each file from the source site and uploads the same bytes', async () => {
    const target = await sites.target();
    const report = await sites.run(sites.cache(), target);
    expect(report.failed).toEqual([]);
    const bytes = (site: typeof target) =>
      site.control
        .listFiles('pl')
        .filter(
          (file) => site.control.getItem('pl', 'media', file.owner)?.media?.file !== undefined,
        )
        .map((file) => file.bytes.toString('base64'))
        .sort();
    const sourceFiles = sites.source.control.listItems('pl', 'media').map((item) => item.id);
    expect(report.created.media).toBe(sourceFiles.length);
    const uploaded = bytes(target);
    expect(uploaded).toHaveLength(sourceFiles.length);
    for (const file of uploaded) expect(bytes(sites.source)).toContain(file);
  });
});
