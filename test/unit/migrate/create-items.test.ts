import { beforeEach, describe, expect, it } from 'vitest';
import { createInBatches, createTree, type CreateRun } from '../../../src/migrate/create-items.js';
import { planMigration, type PlanStep, type SourceItem } from '../../../src/migrate/planner.js';
import type { MigrateContext } from '../../../src/migrate/recovery.js';
import { emptyReport } from '../../../src/migrate/report.js';
import { FakeTarget } from '../../helpers/fake-target.js';
import { useTempStore } from '../../helpers/store/temp-store.js';

/**
 * Creating a migration's posts and pages, in-process: a real SQLite `id_map` and an in-memory
 * target. What is created, in what order and batches, what is recorded (so a re-run never
 * creates an item twice) and what is reported when the target refuses an item.
 */
const KEYS = { sourceKey: 'https://source.test|pl', targetKey: 'https://target.test|pl' };

function item(type: 'posts' | 'pages', id: number, fields: Record<string, unknown> = {}) {
  const slug = `${type}-${id}`;
  return {
    type,
    id,
    json: {
      id,
      slug,
      status: 'publish',
      date_gmt: '2024-03-01T10:00:00',
      title: { raw: `Title ${id}` },
      content: { raw: `<p>Text ${id}</p>` },
      excerpt: { raw: '' },
      link: `https://source.test/pl/${slug}/`,
      ...(type === 'pages' ? { parent: 0, type: 'page' } : {}),
      ...fields,
    },
  } satisfies SourceItem;
}

describe('createInBatches / createTree (the migration writes posts and pages)', () => {
  const cache = useTempStore();
  let target: FakeTarget;
  let lines: string[];
  beforeEach(() => {
    target = new FakeTarget();
    lines = [];
  });

  function run(items: SourceItem[], maxItems = 25): CreateRun {
    const context: MigrateContext = {
      ids: { posts: new Map(), pages: new Map(), media: new Map() },
      authors: new Map(),
      urls: new Map(),
      sourceHome: 'https://source.test/pl/',
      targetHome: 'https://target.test/',
      sourceUrl: 'https://source.test',
      targetUrl: 'https://target.test',
    };
    return {
      store: cache.store,
      session: target.session(),
      byId: new Map(items.map((i) => [`${i.type}:${i.id}`, i])),
      context,
      keys: KEYS,
      maxItems,
      report: emptyReport(),
      onLine: (line) => lines.push(line),
      created: [],
    };
  }

  const stepsOf = (items: SourceItem[]): PlanStep[] => planMigration(items, () => undefined).steps;
  const mapped = (type: string) =>
    Object.fromEntries(
      cache.store.idMap
        .list(KEYS.sourceKey, KEYS.targetKey, type)
        .map((m) => [m.sourceId, m.targetId]),
    );
  const onTarget = (route: string) => target.items.get(route) ?? [];

  it('creates posts in batches of the allowed size, each recorded as it is answered', async () => {
    const items = [1, 2, 3, 4, 5].map((id) => item('posts', id));
    const r = run(items, 2);
    await createInBatches(r, 'posts', stepsOf(items));
    const created = onTarget('cms/v2/posts');
    expect(created.map((t) => t.slug)).toEqual(items.map((i) => i.json.slug));
    const batches = target.requests.filter((q) => q.route === 'batch/v1');
    expect(batches.map((b) => (b.body as unknown[]).length)).toEqual([2, 2, 1]);
    // `normal`: one refused item must not hold back the others; a create is never re-sent.
    for (const batch of batches) {
      expect(batch.query).toEqual({ validation: 'normal' });
      expect(batch.idempotent).toBe(false);
      for (const request of batch.body as { method: string; path: string }[]) {
        expect(request).toMatchObject({ method: 'POST', path: '/cms/v2/posts' });
      }
    }
    expect(mapped('posts')).toEqual(
      Object.fromEntries(items.map((i, n) => [i.id, created[n]!.id])),
    );
    expect([...r.context.ids.posts]).toEqual(items.map((i, n) => [i.id, created[n]!.id]));
    expect(r.context.urls.get('https://source.test/pl/posts-3/')).toBe(
      'https://target.test/posts-3/',
    );
    expect(r.report.created.posts).toBe(5);
    expect(r.report.batches).toBe(3);
    expect(r.report.requests).toBe(3);
    expect(r.report.failed).toEqual([]);
    expect(lines).toEqual(['created 2/2 posts', 'created 2/2 posts', 'created 1/1 posts']);
    // Kept for the re-linking pass: what was created from what, with the body sent.
    expect(r.created.map((c) => [c.type, c.sourceId, c.targetId, c.parentSourceId])).toEqual(
      items.map((i, n) => ['posts', i.id, created[n]!.id, 0]),
    );
    expect(r.created[0]!.json).toBe(items[0]!.json);
    expect(r.created[0]!.sent).toMatchObject({ title: 'Title 1', content: '<p>Text 1</p>' });
  });

  it('reports a refused item and records the others of its batch', async () => {
    const items = [1, 2, 3].map((id) => item('posts', id));
    target.refuse.add('Title 2');
    const r = run(items);
    await createInBatches(r, 'posts', stepsOf(items));
    expect(Object.keys(mapped('posts'))).toEqual(['1', '3']);
    expect(r.context.ids.posts.has(2)).toBe(false);
    expect(r.report.failed).toEqual([
      {
        type: 'posts',
        sourceId: 2,
        message: 'rest_invalid_param: Invalid parameter(s): title',
      },
    ]);
    expect(r.report.created.posts).toBe(2);
    expect(r.created.map((c) => c.sourceId)).toEqual([1, 3]);
    expect(lines).toEqual(['created 2/3 posts']);
  });

  it('creates one item per request where the target allows no batch', async () => {
    target.batch = false;
    const items = [1, 2, 3].map((id) => item('posts', id));
    target.refuse.add('Title 3');
    const r = run(items);
    await createInBatches(r, 'posts', stepsOf(items));
    const posts = target.requests.filter((q) => q.method === 'POST');
    expect(posts.map((q) => q.route)).toEqual(['cms/v2/posts', 'cms/v2/posts', 'cms/v2/posts']);
    expect(posts.every((q) => q.idempotent === false)).toBe(true);
    expect(r.report.batches).toBe(0);
    expect(r.report.requests).toBe(3);
    expect(Object.keys(mapped('posts'))).toEqual(['1', '2']);
    expect(r.report.failed).toEqual([
      { type: 'posts', sourceId: 3, message: 'rest_invalid_param: Invalid parameter(s): title' },
    ]);
    expect(lines).toEqual(['created 1/1 posts', 'created 1/1 posts', 'created 0/1 posts']);
  });

  it('keeps the mappings of what was created before a run dies (a re-run creates only the rest)', async () => {
    target.batch = false;
    const items = [1, 2, 3].map((id) => item('posts', id));
    target.beforeWrite = (body) => {
      if (body.title === 'Title 3') throw new TypeError('fetch failed');
    };
    await expect(createInBatches(run(items), 'posts', stepsOf(items))).rejects.toThrow(
      'fetch failed',
    );
    expect(Object.keys(mapped('posts'))).toEqual(['1', '2']);
  });

  it('reports what the body could not carry as warnings', async () => {
    const items = [item('posts', 1, { featured_media: 42 })];
    const r = run(items);
    await createInBatches(r, 'posts', stepsOf(items));
    expect(r.report.warnings).toEqual(['posts 1: featured media 42 not migrated; left empty']);
  });

  it('creates a page tree level by level, each page under its parent as created on the target', async () => {
    const pages = [
      item('pages', 1),
      item('pages', 2, { parent: 1 }),
      item('pages', 3, { parent: 2 }),
      item('pages', 4),
    ];
    const plan = planMigration(pages, () => undefined);
    const r = run(pages);
    await createTree(r, plan, 'pages', plan.steps);
    const byTitle = new Map(
      onTarget('cms/v2/pages').map((t) => [(t.title as { raw: string }).raw, t]),
    );
    expect(byTitle.get('Title 2')!.parent).toBe(byTitle.get('Title 1')!.id);
    expect(byTitle.get('Title 3')!.parent).toBe(byTitle.get('Title 2')!.id);
    expect(byTitle.get('Title 1')!.parent).toBe(0);
    // One batch per level: [1, 4], [2], [3].
    const batches = target.requests.filter((q) => q.route === 'batch/v1');
    expect(
      batches.map((b) => (b.body as { body: { title: string } }[]).map((x) => x.body.title)),
    ).toEqual([['Title 1', 'Title 4'], ['Title 2'], ['Title 3']]);
    expect(r.created.map((c) => [c.sourceId, c.parentSourceId])).toEqual([
      [1, 0],
      [4, 0],
      [2, 1],
      [3, 2],
    ]);
    expect(r.report.failed).toEqual([]);
  });

  it('creates a tree deeper than nine levels in order (levels sorted as numbers)', async () => {
    const pages = Array.from({ length: 12 }, (_, n) =>
      item('pages', n + 1, { parent: n === 0 ? 0 : n }),
    );
    const plan = planMigration(pages, () => undefined);
    const r = run(pages);
    await createTree(r, plan, 'pages', plan.steps);
    expect(r.report.failed).toEqual([]);
    expect(r.created.map((c) => c.sourceId)).toEqual(pages.map((p) => p.id));
  });

  it('holds back the pages under a parent that could not be created, and says why', async () => {
    const pages = [
      item('pages', 1),
      item('pages', 2, { parent: 1 }),
      item('pages', 3, { parent: 2 }),
      item('pages', 4),
    ];
    target.refuse.add('Title 1');
    const plan = planMigration(pages, () => undefined);
    const r = run(pages);
    await createTree(r, plan, 'pages', plan.steps);
    expect(onTarget('cms/v2/pages').map((t) => (t.title as { raw: string }).raw)).toEqual([
      'Title 4',
    ]);
    expect(r.report.failed).toEqual([
      { type: 'pages', sourceId: 1, message: 'rest_invalid_param: Invalid parameter(s): title' },
      {
        type: 'pages',
        sourceId: 2,
        message: 'waits for its parent page 1, which could not be created',
      },
      {
        type: 'pages',
        sourceId: 3,
        message: 'waits for its parent page 2, which could not be created',
      },
    ]);
    expect(Object.keys(mapped('pages'))).toEqual(['4']);
  });

  it('creates a child whose parent an earlier run created (only the pending pages are given)', async () => {
    const pages = [item('pages', 1), item('pages', 2, { parent: 1 })];
    const plan = planMigration(pages, () => undefined);
    const r = run(pages);
    r.context.ids.pages.set(1, 321);
    await createTree(
      r,
      plan,
      'pages',
      plan.steps.filter((s) => s.sourceId === 2),
    );
    expect(onTarget('cms/v2/pages').map((t) => [t.slug, t.parent])).toEqual([['pages-2', 321]]);
  });

  it('creates parents before their children whatever order the pending pages come in', async () => {
    const pages = [
      item('pages', 1),
      item('pages', 2, { parent: 1 }),
      item('pages', 3, { parent: 2 }),
    ];
    const plan = planMigration(pages, () => undefined);
    const r = run(pages);
    await createTree(r, plan, 'pages', [...plan.steps].reverse());
    expect(r.report.failed).toEqual([]);
    expect(r.created.map((c) => c.sourceId)).toEqual([1, 2, 3]);
  });

  it('takes the depth of a page from the pages of the plan, not from a post with the same source id', async () => {
    const items = [item('pages', 1), item('pages', 2, { parent: 1 }), item('posts', 2)];
    const plan = planMigration(items, () => undefined);
    const r = run(items);
    await createTree(
      r,
      plan,
      'pages',
      plan.steps.filter((s) => s.type === 'pages'),
    );
    expect(r.report.failed).toEqual([]);
    expect(onTarget('cms/v2/pages').map((t) => t.slug)).toEqual(['pages-1', 'pages-2']);
  });

  it('runs without a progress line callback', async () => {
    const items = [item('posts', 1)];
    const r = { ...run(items), onLine: undefined };
    await createInBatches(r, 'posts', stepsOf(items));
    expect(r.report.created.posts).toBe(1);
  });

  it('ends on a parent cycle in a hand-made plan: both pages wait, nothing is sent', async () => {
    const pages = [item('pages', 1, { parent: 2 }), item('pages', 2, { parent: 1 })];
    const steps: PlanStep[] = pages.map((p) => ({
      type: 'pages',
      sourceId: p.id,
      slug: p.json.slug,
      title: '',
      parentSourceId: 3 - p.id,
      action: 'create',
      targetId: undefined,
    }));
    const r = run(pages);
    await createTree(r, { steps, warnings: [] }, 'pages', steps);
    expect(r.report.failed.map((f) => f.sourceId).sort()).toEqual([1, 2]);
    expect(target.requests).toEqual([]);
  });
});
