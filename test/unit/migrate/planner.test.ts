import { describe, expect, it } from 'vitest';
import { formatPlan, planMigration, type SourceItem } from '../../../src/migrate/planner.js';

const page = (id: number, parent: number, menu_order = 0): SourceItem => ({
  type: 'pages',
  id,
  json: {
    id,
    parent,
    menu_order,
    slug: `p${id}`,
    status: 'publish',
    title: { rendered: `Page ${id}` },
  },
});
const post = (id: number, status = 'publish'): SourceItem => ({
  type: 'posts',
  id,
  json: { id, slug: `s${id}`, status, title: { raw: `Post ${id}` } },
});
const media = (id: number): SourceItem => ({
  type: 'media',
  id,
  json: { id, slug: `m${id}`, status: 'inherit', title: { rendered: `M${id}` } },
});

describe('planMigration', () => {
  it('orders media first, pages parents-first (siblings by menu_order), then posts', () => {
    const plan = planMigration(
      [post(2), page(10, 12), media(7), page(12, 0, 2), page(11, 0, 1), page(13, 10), post(1)],
      () => undefined,
    );
    expect(plan.steps.map((s) => `${s.type}:${s.sourceId}<${s.parentSourceId}`)).toEqual([
      'media:7<0',
      'pages:11<0',
      'pages:12<0',
      'pages:10<12',
      'pages:13<10',
      'posts:1<0',
      'posts:2<0',
    ]);
    expect(plan.warnings).toEqual([]);
  });

  it('makes pages with a missing parent or in a cycle top-level and says so', () => {
    const plan = planMigration([page(1, 2), page(2, 1), page(3, 99), page(4, 3)], () => undefined);
    const order = plan.steps.map((s) => `${s.sourceId}<${s.parentSourceId}`);
    expect(order).toHaveLength(4);
    expect(order.indexOf('3<0')).toBeLessThan(order.indexOf('4<3'));
    // The cycle 1 <-> 2 is cut once: one of the two becomes top-level, the other hangs under it.
    expect(order.filter((entry) => entry === '1<0' || entry === '2<0')).toHaveLength(1);
    const cut = order.includes('1<0') ? ['1<0', '2<1'] : ['2<0', '1<2'];
    expect(order.indexOf(cut[0]!)).toBeLessThan(order.indexOf(cut[1]!));
    expect(plan.warnings).toContain(
      'pages 3: parent 99 is not in the source; migrated as a top-level page',
    );
    expect(plan.warnings.filter((w) => w.includes('cycle'))).toHaveLength(1);
  });

  it('skips what id_map already has and leaves trashed items behind', () => {
    const plan = planMigration([post(1), post(2, 'trash'), media(5)], (type, id) =>
      type === 'posts' && id === 1 ? 101 : undefined,
    );
    expect(plan.steps).toEqual([
      {
        type: 'media',
        sourceId: 5,
        slug: 'm5',
        title: 'M5',
        parentSourceId: 0,
        action: 'create',
        targetId: undefined,
      },
      {
        type: 'posts',
        sourceId: 1,
        slug: 's1',
        title: 'Post 1',
        parentSourceId: 0,
        action: 'skip',
        targetId: 101,
      },
    ]);
    expect(plan.warnings).toEqual(['posts 2: status "trash" is not migrated']);
  });
});

describe('formatPlan', () => {
  it('prints one line per item, the totals and the warnings', () => {
    const plan = planMigration([page(2, 1), page(1, 0), post(3), post(4, 'trash')], (type, id) =>
      id === 3 ? 30 : undefined,
    );
    expect(formatPlan(plan)).toBe(
      [
        'create pages 1 "Page 1" (p1)',
        'create pages 2 "Page 2" (p2) under pages 1',
        'skip   posts 3 "Post 3" (s3): already migrated as 30',
        'plan: create 0 media, 2 pages, 0 posts; skip 1 already migrated',
        'warning: posts 4: status "trash" is not migrated',
        '',
      ].join('\n'),
    );
  });
});

describe('formatPlan with what the target holds', () => {
  it('says per item whether it is created, recovered or in conflict, and counts only creates', () => {
    const plan = planMigration(
      [media(7), page(11, 0), page(12, 0), post(1), post(2)],
      (type, id) => (type === 'posts' && id === 2 ? 52 : undefined),
    );
    const text = formatPlan(plan, {
      recovered: { media: new Map([[7, 70]]), pages: new Map(), posts: new Map([[2, 52]]) },
      conflicts: [
        { type: 'pages', sourceId: 11, targetIds: [5], resolution: 'skip' },
        { type: 'posts', sourceId: 1, targetIds: [6], resolution: 'beside' },
      ],
    });
    expect(text.split('\n')).toEqual([
      'recover media 7 "M7" (m7): already on the target as 70 (made by this migration)',
      'conflict pages 11 "Page 11" (p11): the target\'s pages 5 has this slug; skipped',
      'create pages 12 "Page 12" (p12)',
      'conflict posts 1 "Post 1" (s1): the target\'s posts 6 has this slug; created beside it under another slug',
      'skip   posts 2 "Post 2" (s2): already migrated as 52',
      'plan: create 0 media, 1 pages, 1 posts; skip 1 already migrated; recover 1 found on the target; 2 conflict(s)',
      '',
    ]);
  });
});
