/**
 * Issue 4: no non-public content reaches output/. The mirror pulls with credentials (edit
 * context: drafts, pending, private, future, trashed and password-protected items are all in
 * the cache), yet none of their titles, slugs or content may appear in any file of the built
 * sites — HTML, XML, JSON or the compressed Pagefind index — and none of their paths may
 * exist. Then items leave the public set on the site (unpublished, trashed, deleted) and the
 * next `run` removes their pages and every listing mention.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StoredItem } from '../../../src/reference/store.js';
import { openStore } from '../../../src/store/index.js';
import { checkLinks, walkFiles } from '../../helpers/link-check.js';
import {
  filesContaining,
  pageFileOf,
  pagefindPageCount,
  pagefindRecords,
  sitePathOfLink,
  snapshotFiles,
  startMirror,
  type Mirror,
} from '../../helpers/e2e-site.js';
import { callApi, getJson, type Json } from '../../helpers/reference.js';
import { findAll, parseXml, textOf } from '../../helpers/xml-parse.js';

const LANGUAGES = ['pl', 'es'] as const;
/** The home page and its numbered pages. */
const LISTING_PAGE = /^(?:index\.html|page\/\d+\/index\.html)$/;

interface Hidden {
  lang: string;
  type: 'posts' | 'pages';
  id: number;
  status: string;
  slug: string;
  title: string;
  marker: string;
}

/** Posts and pages the public must never see, each given a unique marker in its text. */
function markHidden(mirror: Mirror): Hidden[] {
  const hidden: Hidden[] = [];
  for (const lang of LANGUAGES) {
    for (const type of ['posts', 'pages'] as const) {
      for (const item of mirror.site.control.listItems(lang, type)) {
        if (item.status === 'publish' && item.password === '') continue;
        const marker = `NONPUBLIC${type.toUpperCase()}${lang.toUpperCase()}${item.id}X`;
        mirror.site.control.updateItem(lang, type, item.id, {
          content: `${item.content}\n<p>${marker} in the body</p>`,
          excerpt: `<p>${marker} in the excerpt</p>`,
        });
        hidden.push({
          lang,
          type,
          id: item.id,
          status: item.status,
          slug: item.slug,
          title: item.title,
          marker,
        });
      }
    }
  }
  return hidden;
}

/** Public posts and pages as an anonymous visitor's API sees them: `{sitePath, title}`. */
async function publicItems(
  mirror: Mirror,
  lang: string,
): Promise<{ id: number; sitePath: string; title: string; type: string }[]> {
  const items: { id: number; sitePath: string; title: string; type: string }[] = [];
  for (const type of ['posts', 'pages']) {
    const response = await getJson(mirror.site, lang, `/cms/v2/${type}`, {
      query: { per_page: 100 },
    });
    expect(response.status).toBe(200);
    for (const item of response.body as Json[]) {
      if (item.content.protected) continue;
      const remotePath = sitePathOfLink(mirror.site, lang, item.link as string);
      items.push({
        id: item.id as number,
        type,
        // The home path belongs to the post listing: a page linked there moves to its
        // fallback path `/{type}/{id}/` (src/transform/item-site-paths.ts).
        sitePath: remotePath === '/' ? `/${type}/${item.id as number}/` : remotePath,
        title: item.title.rendered as string,
      });
    }
  }
  return items;
}

/** Every way a text may be written into HTML or XML. */
function spellings(text: string): string[] {
  const escaped = text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;');
  return [...new Set([text, escaped, JSON.stringify(text).slice(1, -1)])];
}

/** Site paths of the posts the home page and its numbered pages list (their card links). */
function listedPages(langDir: string): string[] {
  const listed: string[] = [];
  for (const file of walkFiles(langDir).filter((name) => LISTING_PAGE.test(name))) {
    const html = fs.readFileSync(path.join(langDir, file), 'utf8');
    const page = new URL(`/${file.replace(/index\.html$/, '')}`, 'http://site.invalid');
    for (const match of html.matchAll(/<h2 class="card-title"><a href="([^"]*)"/g)) {
      listed.push(decodeURI(new URL(match[1] ?? '', page).pathname));
    }
  }
  return listed;
}

/** Entry ids of the feed and `<loc>`s of the sitemap (absolute URLs). */
function feedAndSitemapUrls(langDir: string): string[] {
  const feed = parseXml(fs.readFileSync(path.join(langDir, 'feed.xml'), 'utf8'));
  const sitemap = parseXml(fs.readFileSync(path.join(langDir, 'sitemap.xml'), 'utf8'));
  return [
    ...findAll(feed, 'entry').flatMap((entry) => findAll(entry, 'id').map(textOf)),
    ...findAll(sitemap, 'loc').map(textOf),
  ].map((url) => decodeURI(url));
}

describe('no non-public content reaches output/', () => {
  let mirror: Mirror;
  let hidden: Hidden[];

  beforeAll(async () => {
    mirror = await startMirror();
    hidden = markHidden(mirror);
    const first = await mirror.run();
    expect(first.build.languages['pl']?.written).toBeGreaterThan(0);
  });
  afterAll(async () => {
    await mirror?.close();
  });

  it('the cache holds every status, so the test is meaningful', () => {
    const store = openStore(mirror.cacheFile, { readonly: true });
    try {
      // Each hidden item is live in the cache with the status the site gives it.
      for (const item of hidden)
        expect(
          store.items.get(item.lang, item.type, item.id),
          `${item.lang} ${item.id}`,
        ).toMatchObject({ status: item.status, deletedAt: null });
      const cached = new Set(
        LANGUAGES.flatMap((lang) =>
          (['posts', 'pages'] as const).flatMap((type) =>
            [...store.items.iterate(lang, type)].map((row) => row.status),
          ),
        ),
      );
      for (const status of ['draft', 'pending', 'private', 'future', 'trash', 'publish'])
        expect(cached, status).toContain(status);
    } finally {
      store.close();
    }
    // The password-protected post is the one hidden item with status publish.
    expect(hidden.some((item) => item.status === 'publish' && item.type === 'posts')).toBe(true);
  });

  it('none of their titles, slugs or markers appear in any file, and their paths do not exist', () => {
    const files = snapshotFiles(mirror.outDir);
    expect(files.size).toBeGreaterThan(100);
    const kinds = new Set([...files.keys()].map((file) => path.extname(file)));
    for (const kind of ['.html', '.xml', '.json', '.txt', '.pf_fragment'])
      expect(kinds).toContain(kind);
    const directories = new Set([...files.keys()].flatMap((file) => file.split('/').slice(0, -1)));

    const leaks: string[] = [];
    for (const item of hidden) {
      for (const needle of [item.marker, ...spellings(item.title)]) {
        const found = filesContaining(files, needle);
        if (found.length > 0)
          leaks.push(`${item.lang} ${item.id} "${needle}" in ${found.join(', ')}`);
      }
      for (const slug of new Set([item.slug, decodeURIComponent(item.slug)])) {
        if (directories.has(slug)) leaks.push(`${item.lang} ${item.id}: a folder named ${slug}`);
        const inLinks = filesContaining(files, `/${slug}/`);
        if (inLinks.length > 0)
          leaks.push(`${item.lang} ${item.id} /${slug}/ in ${inLinks.join(', ')}`);
      }
    }
    expect(leaks).toEqual([]);
  });

  it('the search index holds exactly the public pages (read from its compressed fragments)', async () => {
    for (const lang of LANGUAGES) {
      const langDir = path.join(mirror.outDir, lang);
      const records = pagefindRecords(langDir);
      const expected = await publicItems(mirror, lang);
      expect(records.map((record) => record.url).sort()).toEqual(
        expected.map((item) => item.sitePath).sort(),
      );
      expect(pagefindPageCount(langDir)).toBe(expected.length);
      const text = records
        .map((record) => `${record.meta.title ?? ''} ${record.content}`)
        .join('\n');
      for (const item of hidden.filter((entry) => entry.lang === lang)) {
        expect(text).not.toContain(item.marker);
        expect(text).not.toContain(item.title);
      }
    }
  });

  it('an unpublished, a trashed and a deleted post disappear on the next run, listings included', async () => {
    const lang = 'pl';
    const langDir = path.join(mirror.outDir, lang);
    const before = await publicItems(mirror, lang);
    const posts = before.filter((item) => item.type === 'posts');
    const [unpublished, trashed, deleted] = [posts[3], posts[5], posts[7]];
    if (!unpublished || !trashed || !deleted) throw new Error('the seed has too few posts');
    for (const post of [unpublished, trashed, deleted]) {
      expect(fs.existsSync(path.join(langDir, pageFileOf(post.sitePath)))).toBe(true);
      expect(listedPages(langDir)).toContain(post.sitePath);
    }

    mirror.site.control.updateItem(lang, 'posts', unpublished.id, { status: 'draft' });
    const trash = await callApi(mirror.site, lang, `/cms/v2/posts/${trashed.id}`, {
      method: 'DELETE',
      auth: true,
    });
    expect(trash.status).toBe(200);
    expect((mirror.site.control.getItem(lang, 'posts', trashed.id) as StoredItem).status).toBe(
      'trash',
    );
    mirror.site.control.deleteItem(lang, 'posts', deleted.id);

    const home = `${mirror.site.url}/${lang}/`;
    expect(listedPages(langDir)).toHaveLength(posts.length);
    expect(feedAndSitemapUrls(langDir)).toContain(`${home}${unpublished.sitePath.slice(1)}`);

    const second = await mirror.run();
    const built = second.build.languages[lang];
    expect(built?.skipped).toBe(false);
    expect(built?.removed).toBeGreaterThanOrEqual(3);
    // The other language lost three translations: only the switchers and hreflang alternates
    // of their counterparts change (pages and sitemap), nothing is removed there.
    const es = second.build.languages['es'];
    expect(es?.skipped).toBe(false);
    expect(es?.removed).toBe(0);
    expect(es?.written).toBeGreaterThan(0);
    expect(es?.written).toBeLessThanOrEqual(4);
    expect(checkLinks(mirror.outDir, 'es').broken).toEqual([]);

    const after = snapshotFiles(langDir);
    for (const post of [unpublished, trashed, deleted]) {
      const file = pageFileOf(post.sitePath);
      expect(after.has(file), file).toBe(false);
      expect(fs.existsSync(path.join(langDir, path.dirname(file)))).toBe(false);
      // The listings (home and its pages), the feed and the sitemap no longer show it. Other
      // posts' bodies may still name it: their links then go to the remote URL.
      expect(listedPages(langDir)).not.toContain(post.sitePath);
      expect(feedAndSitemapUrls(langDir)).not.toContain(`${home}${post.sitePath.slice(1)}`);
    }
    expect(listedPages(langDir)).toHaveLength(posts.length - 3);
    // Posts whose bodies linked to them do not keep a link to a page that is gone.
    expect(checkLinks(mirror.outDir, lang).broken).toEqual([]);
    const records = pagefindRecords(langDir);
    expect(records.map((record) => record.url)).not.toContain(unpublished.sitePath);
    expect(pagefindPageCount(langDir)).toBe(before.length - 3);
    expect(walkFiles(langDir).some((file) => file.startsWith('page/'))).toBe(true);
  });
});
