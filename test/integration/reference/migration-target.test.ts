import { afterEach, describe, expect, it } from 'vitest';
import { getJson, startReference } from '../../helpers/reference.js';
import type { Json, ReferenceSite } from '../../helpers/reference.js';

/**
 * The reference site plays what a migration meets on deployed servers (observed-behaviour:
 * drafts and pending items have an empty slug and a `generated_slug`; a target may already
 * hold a person's items with the same slug and date as the items being migrated).
 */
const sites: ReferenceSite[] = [];
async function start(options: Parameters<typeof startReference>[0] = {}): Promise<ReferenceSite> {
  const site = await startReference(options);
  sites.push(site);
  return site;
}
afterEach(async () => {
  await Promise.all(sites.splice(0).map((site) => site.close()));
});

const EDIT_STATUSES = ['publish', 'future', 'draft', 'pending', 'private'];

async function list(site: ReferenceSite, type: string): Promise<Json[]> {
  const status = type === 'media' ? ['inherit'] : EDIT_STATUSES;
  const { body } = await getJson(site, 'pl', `/cms/v2/${type}`, {
    query: { per_page: 100, status, context: 'edit', orderby: 'id', order: 'asc' },
    auth: true,
  });
  return body as Json[];
}

describe('reference site as a migration target and source', () => {
  it('sluglessDrafts: drafts and pending items answer an empty slug and a generated_slug', async () => {
    const site = await start({ languages: ['pl'], sluglessDrafts: true });
    for (const type of ['posts', 'pages']) {
      const unpublished = (await list(site, type)).filter((item) =>
        ['draft', 'pending'].includes(item.status),
      );
      expect(unpublished.length, type).toBeGreaterThan(0);
      for (const item of unpublished) {
        expect(item.slug, `${type} ${item.id}`).toBe('');
        expect(item.generated_slug, `${type} ${item.id}`).toMatch(/^[a-z0-9%-]+$/);
      }
    }
    expect((await list(site, 'posts')).some((item) => item.status === 'pending')).toBe(true);
    // Published items keep their slugs.
    for (const item of (await list(site, 'posts')).filter((i) => i.status === 'publish'))
      expect(item.slug).not.toBe('');
  });

  it("overlapWith: the site's own items share slug and date with the other seed's, not content", async () => {
    const source = await start({ languages: ['pl'] });
    const target = await start({
      languages: ['pl'],
      posts: 0,
      pages: 0,
      media: 0,
      seed: 'target',
      overlapWith: 'cms-mirror',
    });
    const key = (item: Json) => `${item.slug}@${item.date_gmt}`;
    for (const [type, expected] of [
      ['pages', 2],
      ['posts', 1],
      ['media', 1],
    ] as const) {
      const mine = await list(target, type);
      expect(mine, type).toHaveLength(expected);
      const theirs = new Map((await list(source, type)).map((item) => [key(item), item]));
      for (const item of mine) {
        const twin = theirs.get(key(item));
        expect(twin, `${type} ${item.slug}`).toBeDefined();
        expect(item.title.raw).not.toBe(twin!.title.raw);
        if (type !== 'media') expect(item.content.raw).not.toBe(twin!.content.raw);
        expect(item.author).toBe(2);
      }
    }
  });
});
