import type { MigrateType, PlanStep } from './planner.js';

/**
 * What a migration does with a person's item on the target that has the slug of an item it
 * is about to create. Pure: the policy, the conflict records and their text.
 */

/**
 * `stop` (the default): list every conflict and create nothing. `skip`: leave those source
 * items out. `beside`: create them anyway; the target gives each another slug (`slug-2`)
 * and links follow it. `adopt`: take the person's item as the migrated copy (recorded,
 * never changed).
 */
export type ConflictPolicy = 'stop' | 'skip' | 'beside' | 'adopt';

export const CONFLICT_POLICIES: readonly ConflictPolicy[] = ['stop', 'skip', 'beside', 'adopt'];

export interface MigrateConflict {
  readonly type: MigrateType;
  readonly sourceId: number;
  readonly slug: string;
  /** The target's items with that slug (where the new item would go), by id. */
  readonly targetIds: number[];
  /** What the run did (or, stopped or dry, would do) about it. */
  readonly resolution: ConflictPolicy;
}

/** What the scan decided for one step that was not in `id_map`, for the plan text. */
export type StepDecision = 'recover' | 'conflict';

export function conflictOf(
  step: PlanStep,
  targets: readonly Readonly<Record<string, unknown>>[],
  policy: ConflictPolicy,
): MigrateConflict {
  return {
    type: step.type,
    sourceId: step.sourceId,
    slug: step.slug,
    targetIds: targets.map((target) => target.id).filter((id) => typeof id === 'number'),
    resolution: policy,
  };
}

const DOING: Readonly<Record<ConflictPolicy, string>> = {
  stop: 'stops the run',
  skip: 'skipped',
  beside: 'created beside it under another slug',
  adopt: 'the existing item is taken as the copy',
};

/** One line per conflict: what clashes with what, and what happens. */
export function formatConflict(conflict: MigrateConflict): string {
  const ids = conflict.targetIds.join(', ');
  return `conflict: ${conflict.type} ${conflict.sourceId} (${conflict.slug}): the target already has ${conflict.type} ${ids} with this slug, not created by this migration; ${DOING[conflict.resolution]}`;
}

/** The hint printed when a run stopped on conflicts. */
export const STOPPED_HINT =
  'nothing was created: choose what to do with --on-conflict skip|beside|adopt (see --dry-run for the whole plan)';
