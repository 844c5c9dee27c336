import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConflictPolicy } from '../../../src/migrate/conflicts.js';
import { planMigration, type SourceItem } from '../../../src/migrate/planner.js';
import { recoverTarget, type MigrateContext } from '../../../src/migrate/recovery.js';
import { openStore, type Store } from '../../../src/store/index.js';
import { FakeTarget } from '../../helpers/fake-target.js';
import { tempCache, type TempCache } from '../../helpers/temp-cache.js';

/**
 * Migration's crash recovery, in-process: a real SQLite `id_map` and an in-memory target.
 * What a run finds before it writes: copies a killed run made (recorded, never created again),
 * a person's items with the same slug (conflicts, handled by the policy), and the mapped items'
 * state on the target (their URLs, and which are still as the migration made them).
 */
const KEYS = { sourceKey: 'https://source.test|pl', targetKey: 'https://target.test|pl' };
const POSTS = 'cms/v2/posts';
const PAGES = 'cms/v2/pages';
const MEDIA = 'cms/v2/media';

function post(id: number, fields: Record<string, unknown> = {}): SourceItem {
  const slug = (fields.slug as string | undefined) ?? `post-${id}`;
  return {
    type: 'posts',
    id,
    json: {
      id,
      slug,
      status: 'publish',
      date_gmt: '2024-03-01T10:00:00',
      title: { raw: `Title ${String.fromCharCode(64 + id)}` },
      content: { raw: `<p>Text of ${String.fromCharCode(64 + id)}.</p>` },
      excerpt: { raw: '' },
      link: `https://source.test/pl/${slug}/`,
      ...fields,
    },
  };
}

function page(id: number, parent: number, slug: string): SourceItem {
  return {
    type: 'pages',
    id,
    json: {
      ...post(id, { slug }).json,
      type: 'page',
      parent,
      link: `https://source.test/pl/${slug}/`,
    },
  };
}

/** The target item a migration would have created from `item` (text as sent). */
function copyOf(item: SourceItem, fields: Record<string, unknown> = {}): Record<string, unknown> {
  const json = item.json as Record<string, { raw?: string } | string>;
  return {
    slug: json.slug,
    status: json.status,
    date_gmt: json.date_gmt,
    title: { raw: (json.title as { raw: string }).raw },
    content: { raw: (json.content as { raw: string }).raw },
    excerpt: { raw: '' },
    link: `https://target.test/${String(json.slug)}/`,
    ...fields,
  };
}

describe('recoverTarget (what the target holds before a migration writes)', () => {
  let temp: TempCache;
  let store: Store;
  let target: FakeTarget;
  beforeEach(() => {
    temp = tempCache();
    store = openStore(temp.file);
    target = new FakeTarget();
  });
  afterEach(() => {
    store.close();
    temp.cleanup();
  });

  function context(): MigrateContext {
    const ids = { posts: new Map(), pages: new Map(), media: new Map() } as MigrateContext['ids'];
    for (const row of store.idMap.list(KEYS.sourceKey, KEYS.targetKey)) {
      if (row.type in ids) ids[row.type as keyof typeof ids].set(row.sourceId, row.targetId);
    }
    return {
      ids,
      authors: new Map(),
      urls: new Map(),
      sourceHome: 'https://source.test/pl/',
      targetHome: 'https://target.test/',
      sourceUrl: 'https://source.test',
      targetUrl: 'https://target.test',
    };
  }

  async function recover(
    items: SourceItem[],
    options: { policy?: ConflictPolicy; dryRun?: boolean } = {},
  ) {
    const ctx = context();
    const plan = planMigration(items, (type, id) =>
      store.idMap.get(KEYS.sourceKey, type, id, KEYS.targetKey),
    );
    const result = await recoverTarget({
      store,
      session: target.session(),
      plan,
      byId: new Map(items.map((item) => [`${item.type}:${item.id}`, item])),
      keys: KEYS,
      context: ctx,
      policy: options.policy ?? 'stop',
      dryRun: options.dryRun ?? false,
    });
    return { result, context: ctx };
  }

  const mapped = (type: string, sourceId: number) =>
    store.idMap.get(KEYS.sourceKey, type, sourceId, KEYS.targetKey);

  it('records a copy a killed run made but never recorded, and marks it for re-linking', async () => {
    const [a, b] = [post(1), post(2)];
    const copy = target.put(POSTS, copyOf(a!));
    const { result, context: ctx } = await recover([a!, b!]);
    expect(result.recovered).toBe(1);
    expect(mapped('posts', 1)).toBe(copy.id);
    expect(mapped('posts', 2)).toBeUndefined();
    expect(ctx.ids.posts.get(1)).toBe(copy.id);
    expect(ctx.ids.posts.has(2)).toBe(false);
    expect(ctx.urls.get('https://source.test/pl/post-1/')).toBe('https://target.test/post-1/');
    expect(result.own).toEqual([
      {
        type: 'posts',
        sourceId: 1,
        targetId: copy.id,
        parentSourceId: 0,
        json: a!.json,
        sent: { content: '<p>Text of A.</p>', excerpt: '' },
      },
    ]);
    expect(result.conflicts).toEqual([]);
    expect(result.skipped.size).toBe(0);
    expect(result.adopted).toBe(0);
    // Every request the scan made is counted.
    expect(result.requests).toBe(target.requests.length);
    expect(result.requests).toBeGreaterThan(0);
  });

  it('writes nothing in a dry run, but still plans with what it found', async () => {
    const a = post(1);
    const copy = target.put(POSTS, copyOf(a));
    const { result, context: ctx } = await recover([a], { dryRun: true });
    expect(result.recovered).toBe(1);
    expect(ctx.ids.posts.get(1)).toBe(copy.id);
    expect(store.idMap.list(KEYS.sourceKey, KEYS.targetKey)).toEqual([]);
  });

  it("stops on a person's item with the same slug: a conflict, nothing recorded", async () => {
    const a = post(1);
    const person = target.put(
      POSTS,
      copyOf(a, { content: { raw: '<p>Written by a person.</p>' } }),
    );
    const { result, context: ctx } = await recover([a]);
    expect(result.conflicts).toEqual([
      { type: 'posts', sourceId: 1, slug: 'post-1', targetIds: [person.id], resolution: 'stop' },
    ]);
    expect(result.skipped.size).toBe(0);
    expect(result.recovered + result.adopted).toBe(0);
    expect(ctx.ids.posts.size).toBe(0);
    expect(store.idMap.list(KEYS.sourceKey, KEYS.targetKey)).toEqual([]);
  });

  it('leaves a conflicting item out with `skip`', async () => {
    const [a, b] = [post(1), post(2)];
    target.put(POSTS, copyOf(a!, { content: { raw: '<p>Written by a person.</p>' } }));
    const { result } = await recover([a!, b!], { policy: 'skip' });
    expect([...result.skipped]).toEqual(['posts:1']);
    expect(result.conflicts.map((c) => c.resolution)).toEqual(['skip']);
    expect(store.idMap.list(KEYS.sourceKey, KEYS.targetKey)).toEqual([]);
  });

  it("takes the person's item as the copy with `adopt`, marked so it is never updated or re-linked", async () => {
    const a = post(1);
    const person = target.put(
      POSTS,
      copyOf(a, { content: { raw: '<p>Written by a person.</p>' } }),
    );
    const { result, context: ctx } = await recover([a], { policy: 'adopt' });
    expect(result.adopted).toBe(1);
    expect(result.recovered).toBe(0);
    expect(result.skipped.size).toBe(0);
    expect(mapped('posts', 1)).toBe(person.id);
    expect(mapped('adopted-posts', 1)).toBe(person.id);
    expect(ctx.ids.posts.get(1)).toBe(person.id);
    expect(ctx.urls.get('https://source.test/pl/post-1/')).toBe('https://target.test/post-1/');
    expect(result.own).toEqual([]);

    // Read back by the next run: its URLs count, but it is not ours to re-link.
    const next = await recover([a], { policy: 'adopt' });
    expect(next.result.adopted).toBe(0);
    expect(next.result.own).toEqual([]);
    expect(next.context.urls.get('https://source.test/pl/post-1/')).toBe(
      'https://target.test/post-1/',
    );
  });

  it('adopts nothing into the cache in a dry run', async () => {
    const a = post(1);
    const person = target.put(
      POSTS,
      copyOf(a, { content: { raw: '<p>Written by a person.</p>' } }),
    );
    const { result, context: ctx } = await recover([a], { policy: 'adopt', dryRun: true });
    expect(result.adopted).toBe(1);
    expect(ctx.ids.posts.get(1)).toBe(person.id);
    expect(store.idMap.list(KEYS.sourceKey, KEYS.targetKey)).toEqual([]);
  });

  it('reads the mapped items back: their URLs, and those still as the migration made them for re-linking', async () => {
    // Post 5 was never mapped: it is looked for by slug, never read back by id.
    const items = [post(1), post(2), post(3), post(4), post(5)];
    const [a, b, c] = items;
    const ours = target.put(POSTS, copyOf(a!, { status: 'private' }));
    const edited = target.put(POSTS, copyOf(b!, { content: { raw: '<p>Edited since.</p>' } }));
    const adopted = target.put(POSTS, copyOf(c!));
    store.idMap.set(KEYS.sourceKey, 'posts', 1, KEYS.targetKey, ours.id);
    store.idMap.set(KEYS.sourceKey, 'posts', 2, KEYS.targetKey, edited.id);
    store.idMap.set(KEYS.sourceKey, 'posts', 3, KEYS.targetKey, adopted.id);
    store.idMap.set(KEYS.sourceKey, 'adopted-posts', 3, KEYS.targetKey, adopted.id);
    store.idMap.set(KEYS.sourceKey, 'posts', 4, KEYS.targetKey, 9999); // deleted on the target
    target.perPage = 3;
    const { result, context: ctx } = await recover(items);
    expect(result.own.map((own) => [own.sourceId, own.targetId])).toEqual([[1, ours.id]]);
    expect(result.own[0]!.sent).toEqual({ content: '<p>Text of A.</p>', excerpt: '' });
    expect([...ctx.urls.keys()].sort()).toEqual([
      'https://source.test/pl/post-1/',
      'https://source.test/pl/post-2/',
      'https://source.test/pl/post-3/',
    ]);
    expect(result.recovered + result.adopted).toBe(0);
    // By id, in `context=edit` with every status a copy can have, per_page ids at a time.
    const reads = target.requests.filter((r) => r.query?.['include'] !== undefined);
    expect(reads.map((r) => r.query!['include'])).toEqual([
      [ours.id, edited.id, adopted.id],
      [9999],
    ]);
    for (const read of reads) {
      expect(read.query).toMatchObject({
        context: 'edit',
        per_page: (read.query!['include'] as number[]).length,
      });
      expect(read.query!['status']).toEqual(
        expect.arrayContaining(['publish', 'draft', 'private']),
      );
    }
    expect(result.requests).toBe(target.requests.length);
  });

  it('never takes a target item already mapped to another source item', async () => {
    // Two drafts with the same text (no slugs); one copy on the target, mapped to the first.
    const a = post(1, { slug: '', status: 'draft' });
    const b = post(2, { slug: '', status: 'draft', title: a.json.title, content: a.json.content });
    const copy = target.put(POSTS, { ...copyOf(a), slug: '' });
    store.idMap.set(KEYS.sourceKey, 'posts', 1, KEYS.targetKey, copy.id);
    const { result, context: ctx } = await recover([a, b]);
    expect(result.recovered).toBe(0);
    expect(ctx.ids.posts.has(2)).toBe(false);
    expect(mapped('posts', 2)).toBeUndefined();

    // Without the mapping, the copy goes to exactly one of them.
    store.close();
    temp.cleanup();
    temp = tempCache();
    store = openStore(temp.file);
    const again = await recover([a, b]);
    expect(again.result.recovered).toBe(1);
    expect(again.context.ids.posts.get(1)).toBe(copy.id);
    expect(again.context.ids.posts.has(2)).toBe(false);
  });

  it('places a page found under a recovered parent: a same-slug page elsewhere is no conflict', async () => {
    const parent = page(1, 0, 'about');
    const child = page(2, 1, 'team');
    const other = page(3, 0, 'contact');
    const parentCopy = target.put(PAGES, copyOf(parent));
    // A person's "team" page under another parent, and a person's "contact" at the top.
    target.put(PAGES, { ...copyOf(child, { content: { raw: '<p>Ours.</p>' } }), parent: 777 });
    const contact = target.put(PAGES, copyOf(other, { content: { raw: '<p>Call us.</p>' } }));
    const { result, context: ctx } = await recover([parent, child, other]);
    expect(ctx.ids.pages.get(1)).toBe(parentCopy.id);
    expect(result.conflicts.map((c) => [c.sourceId, c.targetIds])).toEqual([[3, [contact.id]]]);

    // The same person's page under the recovered parent is a conflict.
    target.put(PAGES, {
      ...copyOf(child, { content: { raw: '<p>Ours.</p>' } }),
      parent: parentCopy.id,
    });
    const again = await recover([parent, child, other]);
    expect(again.result.conflicts.map((c) => c.sourceId)).toEqual([2, 3]);
  });

  it('offers a recovered page for re-linking when the target answers it without an excerpt', async () => {
    const about = page(1, 0, 'about');
    const { excerpt: _none, ...withoutExcerpt } = copyOf(about);
    const copy = target.put(PAGES, withoutExcerpt);
    const { result } = await recover([about]);
    expect(result.recovered).toBe(1);
    expect(result.own).toHaveLength(1);
    expect(result.own[0]).toMatchObject({ sourceId: 1, targetId: copy.id });
    expect(result.own[0]!.sent).toEqual({ content: '<p>Text of A.</p>', excerpt: undefined });
  });

  it('maps the URLs of mapped media (each size) and never offers a file for re-linking', async () => {
    const file: SourceItem = {
      type: 'media',
      id: 9,
      json: {
        id: 9,
        slug: 'photo',
        status: 'inherit',
        title: { raw: 'Photo' },
        source_url: 'https://source.test/files/photo.jpg',
        media_details: {
          sizes: { thumb: { source_url: 'https://source.test/files/photo-150.jpg' } },
        },
      },
    };
    const uploaded = target.put(MEDIA, {
      slug: 'photo',
      status: 'inherit',
      title: { raw: 'Photo' },
      source_url: 'https://target.test/up/photo.jpg',
      media_details: { sizes: { thumb: { source_url: 'https://target.test/up/photo-150.jpg' } } },
    });
    store.idMap.set(KEYS.sourceKey, 'media', 9, KEYS.targetKey, uploaded.id);
    const { result, context: ctx } = await recover([file]);
    expect(Object.fromEntries(ctx.urls)).toEqual({
      'https://source.test/files/photo.jpg': 'https://target.test/up/photo.jpg',
      'https://source.test/files/photo-150.jpg': 'https://target.test/up/photo-150.jpg',
    });
    expect(result.own).toEqual([]);
  });

  it('recovers an unrecorded copy of a file', async () => {
    const file: SourceItem = {
      type: 'media',
      id: 9,
      json: {
        id: 9,
        slug: 'photo',
        status: 'inherit',
        title: { raw: 'Photo' },
        mime_type: 'image/jpeg',
        source_url: 'https://source.test/files/photo.jpg',
      },
    };
    const uploaded = target.put(MEDIA, {
      slug: 'photo',
      status: 'inherit',
      title: { raw: 'Photo' },
      mime_type: 'image/jpeg',
      source_url: 'https://target.test/up/photo.jpg',
    });
    const { result, context: ctx } = await recover([file]);
    expect(result.recovered).toBe(1);
    expect(mapped('media', 9)).toBe(uploaded.id);
    expect(ctx.urls.get('https://source.test/files/photo.jpg')).toBe(
      'https://target.test/up/photo.jpg',
    );
    expect(result.own).toEqual([]);
  });
});
