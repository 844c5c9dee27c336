/**
 * Cases found by mutation testing (test/mutation/RESULTS.md): what the plan takes from each
 * source item however it is shaped, the page order's tie-breaks, and the plan text's counts.
 */
import { describe, expect, it } from 'vitest';
import {
  formatPlan,
  orderParentsFirst,
  planMigration,
  type SourceItem,
} from '../../../src/migrate/planner.js';

const item = (
  type: SourceItem['type'],
  id: number,
  json: Record<string, unknown> = {},
): SourceItem => ({ type, id, json: { id, status: 'publish', ...json } });

const none = () => undefined;

describe('planMigration: what each step takes from its item', () => {
  it('a title as text, raw, rendered or missing; a slug only when it is text', () => {
    const plan = planMigration(
      [
        item('posts', 1, { title: 'Plain', slug: 'one' }),
        item('posts', 2, { title: { raw: 'Raw', rendered: 'Rendered' }, slug: 2 }),
        item('posts', 3, { title: { rendered: 'Rendered only' } }),
        item('posts', 4, { title: null }),
        item('posts', 5, { title: { raw: 5, rendered: 6 } }),
        item('posts', 6, { title: 7 }),
      ],
      none,
    );
    expect(plan.steps.map((step) => [step.title, step.slug])).toEqual([
      ['Plain', 'one'],
      ['Raw', ''],
      ['Rendered only', ''],
      ['', ''],
      ['', ''],
      ['', ''],
    ]);
  });

  it('leaves behind every status the collection cannot carry, and nothing else', () => {
    const plan = planMigration(
      [
        item('posts', 1, { status: 'auto-draft' }),
        item('posts', 2, { status: 'draft' }),
        item('pages', 3, { status: 'trash' }),
        item('posts', 4, { status: 'private' }),
        item('posts', 5, { status: 3 }),
        item('posts', 6, { status: 'inherit-revision' }),
      ],
      none,
    );
    expect(plan.steps.map((step) => step.sourceId)).toEqual([2, 4, 5]);
    expect(plan.warnings).toEqual([
      'posts 1: status "auto-draft" is not migrated',
      'pages 3: status "trash" is not migrated',
      'posts 6: status "inherit-revision" is not migrated',
    ]);
  });

  it('orders each collection by id and pages by menu order, then id', () => {
    const plan = planMigration(
      [
        item('posts', 9),
        item('posts', 3),
        item('media', 8),
        item('media', 2),
        item('pages', 7, { parent: 0, menu_order: 1 }),
        item('pages', 6, { parent: 0, menu_order: 1 }),
        item('pages', 5, { parent: 0, menu_order: 'first' }),
        item('pages', 4, { parent: 'top' }),
      ],
      none,
    );
    expect(plan.steps.map((step) => `${step.type}:${step.sourceId}`)).toEqual([
      'media:2',
      'media:8',
      'pages:4',
      'pages:5',
      'pages:6',
      'pages:7',
      'posts:3',
      'posts:9',
    ]);
    expect(plan.warnings).toEqual([]);
  });

  it('sibling pages go by menu order before id', () => {
    const plan = planMigration(
      [
        item('pages', 3, { parent: 0, menu_order: 5 }),
        item('pages', 8, { parent: 0, menu_order: 0 }),
        item('pages', 9, { parent: 0, menu_order: 5 }),
      ],
      none,
    );
    expect(plan.steps.map((step) => step.sourceId)).toEqual([8, 3, 9]);
  });

  it('orders siblings by menu order then id whatever order they come in; a menu order that is not a number is 0', () => {
    const ordered = orderParentsFirst(
      [
        item('pages', 9, { parent: 0, menu_order: 0 }),
        item('pages', 2, { parent: 0, menu_order: 3 }),
        item('pages', 5, { parent: 0, menu_order: 'first' }),
        item('pages', 3, { parent: 0 }),
        item('pages', 4, { parent: 2 }),
        item('pages', 1, { parent: 2 }),
      ],
      [],
    );
    expect(ordered.map(({ item: page, parent }) => [page.id, parent])).toEqual([
      [3, 0],
      [5, 0],
      [9, 0],
      [2, 0],
      [1, 2],
      [4, 2],
    ]);
  });

  it('a page under a top-level page keeps that parent; only non-pages are flat', () => {
    const plan = planMigration(
      [
        item('pages', 1, { parent: 0 }),
        item('pages', 2, { parent: 1 }),
        item('posts', 3, { parent: 1 }),
      ],
      none,
    );
    expect(plan.steps.map((step) => [step.sourceId, step.parentSourceId])).toEqual([
      [1, 0],
      [2, 1],
      [3, 0],
    ]);
  });

  it('cuts a cycle of three at the page where it is found and names it once', () => {
    const plan = planMigration(
      [
        item('pages', 1, { parent: 3 }),
        item('pages', 2, { parent: 1 }),
        item('pages', 3, { parent: 2 }),
      ],
      none,
    );
    expect(plan.steps.map((step) => `${step.sourceId}<${step.parentSourceId}`)).toEqual([
      '1<0',
      '2<1',
      '3<2',
    ]);
    expect(plan.warnings).toEqual([
      'pages 1: its parents form a cycle; migrated as a top-level page',
    ]);
  });

  it('a page that is its own parent is top-level', () => {
    const plan = planMigration([item('pages', 1, { parent: 1 })], none);
    expect(plan.steps.map((step) => step.parentSourceId)).toEqual([0]);
    expect(plan.warnings).toEqual([
      'pages 1: its parents form a cycle; migrated as a top-level page',
    ]);
  });
});

describe('formatPlan: lines and counts', () => {
  const plan = planMigration(
    [
      item('media', 1, { title: 'M', slug: 'm' }),
      item('pages', 2, { title: 'Top', slug: 'top', parent: 0 }),
      item('pages', 3, { title: 'Child', slug: '', parent: 2 }),
      item('posts', 4, { title: 'A', slug: 'a' }),
      item('posts', 5, { title: 'B', slug: 'b' }),
      item('posts', 6, { title: 'C', slug: 'c' }),
    ],
    none,
  );

  it('counts as created only what is neither recovered nor stopped, skipped or adopted', () => {
    const text = formatPlan(plan, {
      recovered: { media: new Map(), pages: new Map(), posts: new Map() },
      conflicts: [
        { type: 'pages', sourceId: 3, targetIds: [30, 31], resolution: 'stop' },
        { type: 'posts', sourceId: 4, targetIds: [40], resolution: 'adopt' },
        { type: 'posts', sourceId: 5, targetIds: [50], resolution: 'odd' },
        { type: 'media', sourceId: 1, targetIds: [10], resolution: 'beside' },
      ],
    });
    expect(text.split('\n')).toEqual([
      'conflict media 1 "M" (m): the target\'s media 10 has this slug; created beside it under another slug',
      'create pages 2 "Top" (top)',
      'conflict pages 3 "Child" (no slug) under pages 2: the target\'s pages 30, 31 has this slug; stops the run',
      'conflict posts 4 "A" (a): the target\'s posts 40 has this slug; taken as the copy',
      'conflict posts 5 "B" (b): the target\'s posts 50 has this slug; odd',
      'create posts 6 "C" (c)',
      'plan: create 1 media, 1 pages, 2 posts; skip 0 already migrated; recover 0 found on the target; 4 conflict(s)',
      '',
    ]);
  });

  it('without findings: no recover or conflict counts', () => {
    expect(formatPlan(plan).split('\n').slice(-2)).toEqual([
      'plan: create 1 media, 2 pages, 3 posts; skip 0 already migrated',
      '',
    ]);
  });
});
