import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getJson, startReference } from '../../helpers/reference.js';
import type { Json, ReferenceSite } from '../../helpers/reference.js';

/**
 * `urlVariants`: content refers to media and items by URLs other than theirs (observed-
 * behaviour.md, Items), and the site serves every one of them.
 */
let site: ReferenceSite;
beforeAll(async () => {
  site = await startReference({ urlVariants: true });
});
afterAll(() => site.close());

async function publicItems(lang: string, type: 'posts' | 'pages'): Promise<Json[]> {
  return (await getJson(site, lang, `/cms/v2/${type}`, { query: { per_page: 100 } })).body;
}

/** Every URL attribute of the HTML (`src`, `href`, each `srcset` candidate), as written. */
function attributeUrls(html: string): string[] {
  const urls: string[] = [];
  for (const match of html.matchAll(/\s(src|href|srcset)="([^"]*)"/g)) {
    const value = match[2] as string;
    if (match[1] === 'srcset') {
      for (const candidate of value.split(','))
        urls.push(candidate.trim().split(/\s+/)[0] as string);
    } else urls.push(value);
  }
  return urls;
}

async function bytesOf(url: string): Promise<{ status: number; bytes: Buffer }> {
  const response = await fetch(url, { redirect: 'manual' });
  return { status: response.status, bytes: Buffer.from(await response.arrayBuffer()) };
}

describe('content with URL variants', () => {
  it('refers to media by size variants, other prefixes, the other scheme and relative URLs', async () => {
    const [post] = (await publicItems('pl', 'posts')).filter((item: Json) =>
      item.content.rendered.includes('?p='),
    );
    expect(post).toBeDefined();
    const html: string = post.content.rendered;
    const urls = attributeUrls(html);
    const origin = new URL(site.url);
    const other = origin.protocol === 'http:' ? 'https:' : 'http:';
    expect(urls.some((url) => /-\d+x\d+\.png$/.test(url))).toBe(true);
    expect(
      urls.some((url) => url.startsWith(`${other}//${origin.host}/cms-content/uploads/`)),
    ).toBe(true);
    expect(urls.some((url) => url.startsWith(`${site.url}/cms-content/uploads/`))).toBe(true);
    expect(urls.some((url) => url.startsWith(`${site.url}/es/cms-content/uploads/`))).toBe(true);
    expect(urls.some((url) => url.startsWith('/pl/cms-content/uploads/'))).toBe(true);
    expect(urls.some((url) => url.startsWith('../'))).toBe(true);
    expect(urls.some((url) => /\/cms-content\/uploads\/.*\.pdf$/.test(url))).toBe(true);

    // Each upload answers over the site's own scheme, whatever prefix or scheme content wrote.
    const uploads = urls
      .filter((url) => url.includes('/cms-content/uploads/'))
      .map((url) => {
        const absolute = new URL(url, post.link);
        absolute.protocol = origin.protocol;
        return absolute.href;
      });
    expect(uploads.length).toBeGreaterThanOrEqual(6);
    for (const url of uploads) {
      const answer = await bytesOf(url);
      expect(answer.status, url).toBe(200);
      expect(answer.bytes.length, url).toBeGreaterThan(0);
    }
  });

  it('serves the same bytes under another prefix, or none, as under the file own URL', async () => {
    const media: Json[] = (await getJson(site, 'pl', '/cms/v2/media', { query: { per_page: 100 } }))
      .body;
    const image = media.find((item) => item.mime_type === 'image/png');
    const own = await bytesOf(image.source_url);
    const path = new URL(image.source_url).pathname.replace(/^\/pl\//, '/');
    const none = await bytesOf(`${site.url}${path}`);
    const es = await bytesOf(`${site.url}/es${path}`);
    expect(own.status).toBe(200);
    expect(none.status).toBe(200);
    expect(es.status).toBe(200);
    expect(none.bytes.equals(own.bytes)).toBe(true);
    expect(es.bytes.equals(own.bytes)).toBe(true);
    expect((await bytesOf(`${site.url}/xx${path}`)).status).toBe(404);
    expect((await bytesOf(`${site.url}/cms-content/uploads/no/such.png`)).status).toBe(404);
  });

  it('redirects short links to published items and answers 404 for others', async () => {
    const posts = await publicItems('pl', 'posts');
    const pages = await publicItems('pl', 'pages');
    const [post, page] = [posts[0], pages[0]];
    const toPost = await fetch(`${site.url}/pl/?p=${post.id}`, { redirect: 'manual' });
    expect(toPost.status).toBe(301);
    expect(toPost.headers.get('location')).toBe(post.link);
    const toPage = await fetch(`${site.url}/pl/?page_id=${page.id}`, { redirect: 'manual' });
    expect(toPage.status).toBe(301);
    expect(toPage.headers.get('location')).toBe(page.link);
    // `?page_id=` names pages only; `?p=` finds a page too.
    expect((await fetch(`${site.url}/pl/?page_id=${post.id}`, { redirect: 'manual' })).status).toBe(
      404,
    );
    expect((await fetch(`${site.url}/pl/?p=${page.id}`, { redirect: 'manual' })).status).toBe(301);
    const all: Json[] = (
      await getJson(site, 'pl', '/cms/v2/posts', {
        query: { per_page: 100, status: ['draft'], context: 'edit' },
        auth: true,
      })
    ).body;
    const draft = all[0];
    expect(draft.status).toBe('draft');
    expect((await fetch(`${site.url}/pl/?p=${draft.id}`, { redirect: 'manual' })).status).toBe(404);
    // The seeded content links to the draft by its short link too.
    const linking = posts.filter((item: Json) => item.content.rendered.includes(`?p=${draft.id}"`));
    expect(linking.length).toBeGreaterThan(0);
  });

  it('leaves content as it was without the option', async () => {
    const plain = await startReference();
    try {
      const posts: Json[] = (
        await getJson(plain, 'pl', '/cms/v2/posts', { query: { per_page: 100 } })
      ).body;
      expect(posts.some((item) => item.content.rendered.includes('?p='))).toBe(false);
    } finally {
      await plain.close();
    }
  });
});
