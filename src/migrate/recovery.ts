import { collectionOf, collectionRoute, isContentType, MIGRATE_ORDER } from '../collections.js';
import type { Store } from '../store/index.js';
import { chunkIds } from '../push/conflicts.js';
import { conflictOf, type ConflictPolicy, type MigrateConflict } from './conflicts.js';
import { isOwnCopy } from './own-copy.js';
import type { MigrateType, MigrationPlan, PlanStep, SourceItem } from './planner.js';
import { itemUrlPairs, mediaUrlPairs, type RemapContext } from './remap.js';
import type { CreatedItem } from './relink.js';
import { scanTarget, type StepFinding } from './target-scan.js';
import type { SiteSession } from '../push/site-session.js';

/**
 * Before a migration writes anything: what the target already holds. Items in `id_map` are
 * read back (their URLs feed the rewriting; those still as the migration made them are
 * re-linked at the end, so a run killed during the re-linking pass finishes it). Items not
 * in `id_map` are looked for on the target: a copy a killed run made is recorded and not
 * created again; a person's item with the same slug is a conflict, handled by the policy.
 */

type Json = Readonly<Record<string, unknown>>;

export type MigrateContext = RemapContext & {
  ids: Record<MigrateType, Map<number, number>>;
  urls: Map<string, string>;
};

export interface RecoveryInput {
  readonly store: Store;
  readonly session: SiteSession;
  readonly plan: MigrationPlan;
  readonly byId: ReadonlyMap<string, SourceItem>;
  readonly keys: { readonly sourceKey: string; readonly targetKey: string };
  readonly context: MigrateContext;
  readonly policy: ConflictPolicy;
  /** Read only: nothing is recorded in `id_map`. */
  readonly dryRun: boolean;
}

export interface RecoveryResult {
  recovered: number;
  adopted: number;
  requests: number;
  conflicts: MigrateConflict[];
  /** `${type}:${sourceId}` of items not to create (skipped conflicts). */
  skipped: Set<string>;
  /** Items of the migration already on the target, with their content now, for re-linking. */
  own: CreatedItem[];
}

/** The `id_map` type that marks a mapping as a person's item taken over (never updated). */
export const adoptedType = (type: MigrateType): string => `adopted-${type}`;

export async function recoverTarget(input: RecoveryInput): Promise<RecoveryResult> {
  const result: RecoveryResult = {
    recovered: 0,
    adopted: 0,
    requests: 0,
    conflicts: [],
    skipped: new Set(),
    own: [],
  };
  const claimed = new Set<number>();
  for (const type of MIGRATE_ORDER) {
    for (const id of input.context.ids[type].values()) claimed.add(id);
    const steps = input.plan.steps.filter((step) => step.type === type);
    await readMapped(input, result, type, steps);
    await scanTarget({
      session: input.session,
      steps: steps.filter((step) => !input.context.ids[type].has(step.sourceId)),
      type,
      byId: input.byId,
      claimed,
      parentTarget: (sourceId) => input.context.ids[type].get(sourceId),
      onFinding: (step, finding) => settle(input, result, step, finding),
      countRequest: () => (result.requests += 1),
    });
  }
  return result;
}

/** Mapped items read back by id: their URLs, and (ours, not adopted) their content. */
async function readMapped(
  input: RecoveryInput,
  result: RecoveryResult,
  type: MigrateType,
  steps: readonly PlanStep[],
): Promise<void> {
  const { context, session } = input;
  const mapped = steps.filter((step) => context.ids[type].has(step.sourceId));
  const perPage = session.index.perPageMax(collectionRoute(type));
  for (const chunk of chunkIds(
    mapped.map((step) => context.ids[type].get(step.sourceId)!),
    perPage,
  )) {
    const page = await session.client.listPage<Json>(collectionRoute(type), {
      include: chunk,
      per_page: chunk.length,
      context: 'edit',
      status: collectionOf(type).statuses.edit,
    });
    result.requests += 1;
    const targets = new Map(page.items.map((item) => [item.id as number, item]));
    for (const step of mapped) {
      const targetId = context.ids[type].get(step.sourceId)!;
      const target = targets.get(targetId);
      const item = input.byId.get(`${type}:${step.sourceId}`);
      if (target === undefined || item === undefined) continue;
      rememberUrls(context, type, item.json, target);
      const adopted =
        input.store.idMap.get(
          input.keys.sourceKey,
          adoptedType(type),
          step.sourceId,
          input.keys.targetKey,
        ) !== undefined;
      if (!adopted) addOwn(result, step, item.json, target);
    }
  }
}

/** One finding applied: recorded (not in a dry run) and counted. */
function settle(
  input: RecoveryInput,
  result: RecoveryResult,
  step: PlanStep,
  finding: StepFinding,
): void {
  const { type, sourceId } = step;
  const item = input.byId.get(`${type}:${sourceId}`)!;
  if (finding.kind === 'free') return;
  if (finding.kind === 'own') {
    record(input, type, sourceId, finding.target);
    addOwn(result, step, item.json, finding.target);
    result.recovered += 1;
    return;
  }
  result.conflicts.push(conflictOf(step, finding.targets, input.policy));
  if (input.policy === 'skip') result.skipped.add(`${type}:${sourceId}`);
  if (input.policy === 'adopt') {
    const target = finding.targets[0]!;
    record(input, type, sourceId, target);
    if (!input.dryRun) {
      input.store.idMap.set(
        input.keys.sourceKey,
        adoptedType(type),
        sourceId,
        input.keys.targetKey,
        target.id as number,
      );
    }
    result.adopted += 1;
  }
}

function record(input: RecoveryInput, type: MigrateType, sourceId: number, target: Json): void {
  const targetId = target.id as number;
  if (!input.dryRun) {
    input.store.idMap.set(input.keys.sourceKey, type, sourceId, input.keys.targetKey, targetId);
  }
  input.context.ids[type].set(sourceId, targetId);
  rememberUrls(input.context, type, input.byId.get(`${type}:${sourceId}`)!.json, target);
}

/** A page or post of the migration that is still as it made it: a candidate for re-linking. */
function addOwn(result: RecoveryResult, step: PlanStep, source: Json, target: Json): void {
  if (!isContentType(step.type) || !isOwnCopy(step.type, source, target)) return;
  const raw = (value: unknown) => (value as { raw?: unknown } | undefined)?.raw;
  result.own.push({
    type: step.type,
    sourceId: step.sourceId,
    targetId: target.id as number,
    parentSourceId: step.parentSourceId,
    json: source,
    sent: { content: raw(target.content), excerpt: raw(target.excerpt) },
  });
}

export function rememberUrls(
  context: { urls: Map<string, string> },
  type: MigrateType,
  source: Json,
  target: Json,
): void {
  if (collectionOf(type).file) {
    for (const [from, to] of mediaUrlPairs(source, target)) context.urls.set(from, to);
  } else {
    for (const [from, to] of itemUrlPairs(source, target)) context.urls.set(from, to);
  }
}
