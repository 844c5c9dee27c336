/**
 * The order and the plan of a migration: collections in their migration order (media first:
 * posts and pages point at them), a page tree parents-first. Pure: the items come from the
 * source cache, the "already migrated" look-up from `id_map`.
 */
import { collectionOf, MIGRATE_ORDER, type ItemType } from '../collections.js';

/** A collection a migration copies: every collection of the registry. */
export type MigrateType = ItemType;

/** An item of the source cache, as fetched (`json`). */
export interface SourceItem {
  readonly type: MigrateType;
  readonly id: number;
  readonly json: Readonly<Record<string, unknown>>;
}

export interface PlanStep {
  readonly type: MigrateType;
  readonly sourceId: number;
  readonly slug: string;
  readonly title: string;
  /** Pages: the parent's source id (0 = top level, also after a cycle or a missing parent). */
  readonly parentSourceId: number;
  /** `skip`: already migrated (target id known from `id_map`). */
  readonly action: 'create' | 'skip';
  readonly targetId: number | undefined;
}

export interface MigrationPlan {
  readonly steps: PlanStep[];
  /** Items not migrated and hierarchy repairs, one line each. */
  readonly warnings: string[];
}

export function planMigration(
  items: readonly SourceItem[],
  migrated: (type: MigrateType, sourceId: number) => number | undefined,
): MigrationPlan {
  const warnings: string[] = [];
  const kept = items.filter((item) => {
    const status = typeof item.json.status === 'string' ? item.json.status : '';
    // Statuses a create cannot carry or that are not content: left behind, with a warning.
    if (collectionOf(item.type).migrate.leftBehind.includes(status)) {
      warnings.push(`${item.type} ${item.id}: status "${status}" is not migrated`);
      return false;
    }
    return true;
  });
  const byType = (type: MigrateType) =>
    kept.filter((item) => item.type === type).sort((a, b) => a.id - b.id);
  const ordered: { item: SourceItem; parent: number }[] = MIGRATE_ORDER.flatMap((type) =>
    collectionOf(type).hierarchical
      ? orderParentsFirst(byType(type), warnings)
      : byType(type).map((item) => ({ item, parent: 0 })),
  );
  const steps = ordered.map(({ item, parent }): PlanStep => {
    const targetId = migrated(item.type, item.id);
    return {
      type: item.type,
      sourceId: item.id,
      slug: typeof item.json.slug === 'string' ? item.json.slug : '',
      title: titleOf(item.json),
      parentSourceId: parent,
      action: targetId === undefined ? 'create' : 'skip',
      targetId,
    };
  });
  return { steps, warnings };
}

/**
 * Pages with their parents before them (depth-first from the roots, siblings by menu_order
 * then id). A parent that is not among the pages makes the page top-level; so does a cycle
 * (the page where the cycle is found is cut loose). Both are reported.
 */
export function orderParentsFirst(
  pages: readonly SourceItem[],
  warnings: string[],
): { item: SourceItem; parent: number }[] {
  const byId = new Map(pages.map((page) => [page.id, page]));
  const parentOf = new Map<number, number>();
  for (const page of pages) {
    const parent = typeof page.json.parent === 'number' ? page.json.parent : 0;
    if (parent !== 0 && !byId.has(parent)) {
      warnings.push(
        `${page.type} ${page.id}: parent ${parent} is not in the source; migrated as a top-level page`,
      );
      parentOf.set(page.id, 0);
    } else parentOf.set(page.id, parent);
  }
  // Cut cycles: walk up from each page; meeting the page itself again means a loop.
  for (const page of pages) {
    const seen = new Set<number>([page.id]);
    let current = parentOf.get(page.id) ?? 0;
    while (current !== 0) {
      if (seen.has(current)) {
        warnings.push(
          `${page.type} ${page.id}: its parents form a cycle; migrated as a top-level page`,
        );
        parentOf.set(page.id, 0);
        break;
      }
      seen.add(current);
      current = parentOf.get(current) ?? 0;
    }
  }
  const children = new Map<number, SourceItem[]>();
  for (const page of pages) {
    const parent = parentOf.get(page.id) ?? 0;
    let list = children.get(parent);
    if (!list) children.set(parent, (list = []));
    list.push(page);
  }
  const menuOrder = (page: SourceItem) =>
    typeof page.json.menu_order === 'number' ? page.json.menu_order : 0;
  for (const list of children.values())
    list.sort((a, b) => menuOrder(a) - menuOrder(b) || a.id - b.id);
  const out: { item: SourceItem; parent: number }[] = [];
  const visit = (parent: number) => {
    for (const page of children.get(parent) ?? []) {
      out.push({ item: page, parent });
      visit(page.id);
    }
  };
  visit(0);
  return out;
}

function titleOf(json: Readonly<Record<string, unknown>>): string {
  const title = json.title;
  if (typeof title === 'string') return title;
  if (typeof title === 'object' && title !== null) {
    const { raw, rendered } = title as { raw?: unknown; rendered?: unknown };
    if (typeof raw === 'string') return raw;
    if (typeof rendered === 'string') return rendered;
  }
  return '';
}

/** What reading the target found, for the plan text. */
export interface PlanFindings {
  /** Source id → target id of every item the target already holds (mapped, recovered, adopted). */
  readonly recovered: Readonly<Record<MigrateType, ReadonlyMap<number, number>>>;
  readonly conflicts: readonly {
    readonly type: MigrateType;
    readonly sourceId: number;
    readonly targetIds: readonly number[];
    readonly resolution: string;
  }[];
}

const RESOLUTION: Readonly<Record<string, string>> = {
  stop: 'stops the run',
  skip: 'skipped',
  beside: 'created beside it under another slug',
  adopt: 'taken as the copy',
};

/** The dry-run plan as text: one line per item, then the totals and warnings. */
export function formatPlan(plan: MigrationPlan, findings?: PlanFindings): string {
  const lines: string[] = [];
  const conflicts = new Map(findings?.conflicts.map((c) => [`${c.type}:${c.sourceId}`, c]));
  const counts = { skip: 0, recover: 0, conflict: 0 };
  for (const step of plan.steps) {
    const what = `${step.type} ${step.sourceId} "${step.title}" (${step.slug || 'no slug'})`;
    const parent =
      collectionOf(step.type).hierarchical && step.parentSourceId !== 0
        ? ` under ${step.type} ${step.parentSourceId}`
        : '';
    const conflict = conflicts.get(`${step.type}:${step.sourceId}`);
    const found = findings?.recovered[step.type].get(step.sourceId);
    if (step.action === 'skip') {
      counts.skip += 1;
      lines.push(`skip   ${what}: already migrated as ${step.targetId}`);
    } else if (conflict !== undefined) {
      counts.conflict += 1;
      lines.push(
        `conflict ${what}${parent}: the target's ${step.type} ${conflict.targetIds.join(', ')} has this slug; ${RESOLUTION[conflict.resolution] ?? conflict.resolution}`,
      );
    } else if (found !== undefined) {
      counts.recover += 1;
      lines.push(`recover ${what}: already on the target as ${found} (made by this migration)`);
    } else {
      lines.push(`create ${what}${parent}`);
    }
  }
  const count = (type: MigrateType) =>
    plan.steps.filter(
      (step) =>
        step.type === type &&
        step.action === 'create' &&
        findings?.recovered[type].get(step.sourceId) === undefined &&
        !['stop', 'skip', 'adopt'].includes(
          conflicts.get(`${type}:${step.sourceId}`)?.resolution ?? '',
        ),
    ).length;
  lines.push(
    `plan: create ${MIGRATE_ORDER.map((type) => `${count(type)} ${type}`).join(', ')}; ` +
      `skip ${counts.skip} already migrated` +
      (findings
        ? `; recover ${counts.recover} found on the target; ${counts.conflict} conflict(s)`
        : ''),
  );
  for (const warning of plan.warnings) lines.push(`warning: ${warning}`);
  return `${lines.join('\n')}\n`;
}
