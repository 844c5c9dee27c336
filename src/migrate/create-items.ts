import { collectionRoute, type ContentType } from '../collections.js';
import type { Store } from '../store/index.js';
import { interpretBatchResult } from '../push/batch-result.js';
import type { SiteSession } from '../push/site-session.js';
import type { MigrationPlan, PlanStep, SourceItem } from './planner.js';
import { postBody } from './remap.js';
import type { CreatedItem } from './relink.js';
import { rememberUrls, type MigrateContext } from './recovery.js';
import type { MigrateReport } from './report.js';
import { writeOne } from './write-one.js';

/**
 * Creating the items of a migration whose body is text (pages, posts): in batches where the
 * target allows them, each batch's answers recorded in `id_map` in one transaction.
 */

/** What creating items needs, and what it collects for the second pass. */
export interface CreateRun {
  readonly store: Store;
  readonly session: SiteSession;
  readonly byId: ReadonlyMap<string, SourceItem>;
  readonly context: MigrateContext;
  readonly keys: { sourceKey: string; targetKey: string };
  readonly maxItems: number;
  readonly report: MigrateReport;
  readonly onLine: ((line: string) => void) | undefined;
  /** Items created by this run and the bodies they were created with. */
  readonly created: CreatedItem[];
}

/**
 * A page tree (the collection's `hierarchical`) level by level: a level's parents were all
 * created by the previous one.
 */
export async function createTree(
  run: CreateRun,
  plan: MigrationPlan,
  type: ContentType,
  pages: readonly PlanStep[],
): Promise<void> {
  const depth = depthsOf(plan.steps, type);
  const levels = [...new Set(pages.map((step) => depth.get(step.sourceId) ?? 0))].sort(
    (a, b) => a - b,
  );
  for (const level of levels) {
    const steps = pages.filter((step) => (depth.get(step.sourceId) ?? 0) === level);
    const orphans = steps.filter(
      (step) => step.parentSourceId !== 0 && !run.context.ids[type].has(step.parentSourceId),
    );
    for (const step of orphans) {
      run.report.failed.push({
        type,
        sourceId: step.sourceId,
        message: `waits for its parent page ${step.parentSourceId}, which could not be created`,
      });
    }
    await createInBatches(
      run,
      type,
      steps.filter((step) => !orphans.includes(step)),
    );
  }
}

export async function createInBatches(
  run: CreateRun,
  type: ContentType,
  steps: readonly PlanStep[],
): Promise<void> {
  const { store, session, byId, context, keys, report } = run;
  const batchable = session.index.allowsBatch(collectionRoute(type), 'POST');
  const size = batchable ? run.maxItems : 1;
  for (let start = 0; start < steps.length; start += size) {
    const chunkSteps = steps.slice(start, start + size);
    const bodies = chunkSteps.map((step) => {
      const result = postBody(
        type,
        byId.get(`${type}:${step.sourceId}`)!.json,
        step.parentSourceId,
        context,
      );
      for (const note of result.notes) report.warnings.push(`${type} ${step.sourceId}: ${note}`);
      return result.body;
    });
    const refs = chunkSteps.map((step) => String(step.sourceId));
    const requests = bodies.map((body) => ({
      method: 'POST' as const,
      path: `/${collectionRoute(type)}`,
      body,
    }));
    let outcomes;
    if (batchable) {
      // `normal`: one refused item must not hold back the 24 others; it is reported.
      const result = await session.client.batch(requests, 'normal', { idempotent: false });
      report.batches += 1;
      outcomes = interpretBatchResult({ lang: session.lang, requests, refs }, result);
    } else {
      outcomes = [await writeOne(session, collectionRoute(type), bodies[0]!, refs[0]!, false)];
    }
    report.requests += 1;
    store.transaction(() => {
      for (const outcome of outcomes) {
        if (!outcome.ok) continue;
        store.idMap.set(
          keys.sourceKey,
          type,
          Number(outcome.ref),
          keys.targetKey,
          outcome.item.id as number,
        );
      }
    });
    outcomes.forEach((outcome, i) => {
      const sourceId = Number(outcome.ref);
      if (!outcome.ok) {
        report.failed.push({ type, sourceId, message: `${outcome.code}: ${outcome.message}` });
        return;
      }
      const json = byId.get(`${type}:${sourceId}`)!.json;
      context.ids[type].set(sourceId, outcome.item.id as number);
      rememberUrls(context, type, json, outcome.item);
      run.created.push({
        type,
        sourceId,
        targetId: outcome.item.id as number,
        parentSourceId: chunkSteps[i]!.parentSourceId,
        json,
        sent: bodies[i]!,
      });
      report.created[type] += 1;
    });
    run.onLine?.(`created ${outcomes.filter((o) => o.ok).length}/${outcomes.length} ${type}`);
  }
}

/** Depth of each page in the plan (0 = top level), from the plan's parent links. */
function depthsOf(steps: readonly PlanStep[], type: ContentType): Map<number, number> {
  const parent = new Map(
    steps.filter((step) => step.type === type).map((step) => [step.sourceId, step.parentSourceId]),
  );
  const depth = new Map<number, number>();
  const of = (id: number, guard = 0): number => {
    const known = depth.get(id);
    if (known !== undefined) return known;
    const up = parent.get(id) ?? 0;
    const value = up === 0 || guard > steps.length ? 0 : of(up, guard + 1) + 1;
    depth.set(id, value);
    return value;
  };
  for (const id of parent.keys()) of(id);
  return depth;
}
