import { beforeEach, describe, expect, it } from 'vitest';
import type { ReferenceSite } from '../../../src/reference/index.js';
import { openStore } from '../../../src/store/index.js';
import { credentialEnv, migrateArgs } from '../../helpers/cli-args.js';
import { runCliCaptured } from '../../helpers/run-cli.js';
import type { TempCache } from '../../helpers/temp-cache.js';
import { useSite, useSiteAndCache } from '../../helpers/mirror-fixture.js';
import { mirrorLanguageInto, siteClient } from '../../helpers/push-site-fixture.js';

type Cached = {
  id: number;
  slug: string;
  status: string;
  link: string;
  content: { raw?: string };
};

describe('migrate: links to items created later', () => {
  let source: ReferenceSite;
  let target: ReferenceSite;
  let temp: TempCache;

  const fixture = useSiteAndCache();
  const targetFixture = useSite({ posts: 0, pages: 0, media: 0, seed: 'target' });

  beforeEach(async () => {
    ({ site: source, temp } = fixture);
    target = targetFixture.site;
    await mirrorLanguageInto(source, 'pl', temp.file, { media: true });
  });
  const migrateJson = () =>
    runCliCaptured([...migrateArgs(temp.file, target), '--on-conflict', 'beside', '--json'], {
      env: credentialEnv(target),
    });

  it('a page created before the post it links to ends up linking to the post the target made', async () => {
    // A page whose content links to a published post (pages are created before posts).
    const store = openStore(temp.file);
    let page: Cached | undefined;
    let post: Cached | undefined;
    try {
      const json = (type: 'posts' | 'pages') =>
        [...store.items.iterate('pl', type)].map((row) => JSON.parse(row.json) as Cached);
      const posts = json('posts').filter(
        (item) => item.status === 'publish' && /^[a-z0-9-]+$/.test(item.slug),
      );
      for (const candidate of json('pages')) {
        post = posts.find((item) => candidate.content.raw?.includes(`href="${item.link}"`));
        if (post) {
          page = candidate;
          break;
        }
      }
    } finally {
      store.close();
    }
    expect(page, 'the seed has a page linking to a post').toBeDefined();
    // The target already has that slug (another post, another date): the migrated post gets
    // `slug-2`, so the path the first pass guessed by prefix is not the post's.
    target.control.createItems('pl', 'posts', 1, {
      slug: post!.slug,
      title: 'Already on the target',
      dateGmt: Date.UTC(2001, 0, 15) / 1000,
    });

    const result = await migrateJson();
    expect(result.stderr).toBe('');
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout) as { relinked: number; failed: unknown[] };
    expect(report.failed).toEqual([]);
    expect(report.relinked).toBeGreaterThanOrEqual(1);

    const client = siteClient(target.url, 'pl', target.credentials);
    try {
      const bySlug = async (type: 'posts' | 'pages', slug: string) =>
        (
          await client.get<Cached[]>(`cms/v2/${type}`, {
            slug,
            context: 'edit',
            status: ['publish', 'future', 'draft', 'pending', 'private'],
          })
        ).data;
      const [migratedPost] = await bySlug('posts', `${post!.slug}-2`);
      const [migratedPage] = await bySlug('pages', page!.slug);
      expect(migratedPost).toBeDefined();
      const guessed = post!.link.replace(source.url, target.url);
      expect(migratedPost!.link).not.toBe(guessed);
      expect(migratedPage!.content.raw).toContain(`href="${migratedPost!.link}"`);
      expect(migratedPage!.content.raw).not.toContain(`href="${guessed}"`);
      expect(migratedPage!.content.raw).not.toContain(source.url);
    } finally {
      await client.close();
    }

    // A second run creates nothing and so relinks nothing.
    const again = await migrateJson();
    expect(JSON.parse(again.stdout)).toMatchObject({
      relinked: 0,
      created: { posts: 0, pages: 0 },
    });
  });
});
