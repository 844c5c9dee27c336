import { existsSync } from 'node:fs';
import type { BatchValidation, SiteIndex } from '../client/index.js';
import { CHECKOUT_TYPES, collectionRoute } from '../collections.js';
import { SiteError } from '../errors.js';
import type { CmsItem, Edit, Store } from '../store/index.js';
import { planBatches, BATCH_LIMIT, type BatchPlan, type PlannedEdit } from './batch-planner.js';
import { interpretBatchResult } from './batch-result.js';
import type { CheckoutType } from './checkout-file.js';
import { editApplied, fetchItems, findCreated } from './already-applied.js';
import {
  describeConflict,
  findConflicts,
  type Conflict,
  type RemoteCopyHint,
} from './conflicts.js';
import { isTrash, labelOf } from './queued-edit.js';
import { recordOutcome } from './record-outcome.js';
import { remoteCopyOf } from './remote-copies.js';
import { fetchRemoteModified } from './remote-modified.js';
import { sendChunk } from './send-chunk.js';
import type { SiteSession } from './site-session.js';
import { validateEdit, type EditProblem } from './validate-edit.js';

/**
 * `push`: sends the queued edits. Order of the checks matters: every edit is validated
 * locally first (one problem anywhere → nothing is sent), then the site's `modified_gmt` of
 * each edited item is compared with the checkout base (a conflict is kept back, never
 * overwritten, unless forced), then the rest go out through `POST batch/v1`, and each
 * sub-response is recorded as it comes back.
 */

export interface PushOptions {
  readonly store: Store;
  /** Opens (or returns) the session of a language; called once per language with edits. */
  readonly session: (lang: string) => Promise<SiteSession>;
  /** The checkout dir: files of successful edits are rewritten (or renamed, for creates) there. */
  readonly dir?: string;
  /** Only edits of these languages. @default all */
  readonly languages?: readonly string[];
  /** Write even when the site changed since checkout. @default false */
  readonly force?: boolean;
  /** Validate and check conflicts, but send nothing. @default false */
  readonly dryRun?: boolean;
  /** @default 'require-all-validate' */
  readonly validation?: BatchValidation;
  /**
   * Check `enum` args locally. Off only to let the site be the judge (tests prove the site's
   * refusal is recorded). @default true
   */
  readonly localEnumCheck?: boolean;
  /** File hashes as read when the edits were recorded (from `recordFileEdits`). */
  readonly fileHashes?: ReadonlyMap<string, string>;
}

export interface PushFailure {
  readonly edit: number;
  readonly label: string;
  readonly code: string;
  readonly message: string;
}

export interface PushSummary {
  /** Requests sent (sub-requests of batches). */
  sent: number;
  /** `POST batch/v1` calls. */
  batches: number;
  created: number;
  updated: number;
  trashed: number;
  conflicts: { edit: number; label: string; message: string; conflict: Conflict }[];
  failed: PushFailure[];
  /** Edits still queued after this run (conflicts, failures, not run). */
  pending: number;
  /**
   * Edits found already applied on the site (an earlier run's write whose answer was lost):
   * recorded as done without writing again. Also counted in created/updated/trashed.
   */
  recovered: number;
  /** Local validation problems; when any, nothing was sent. */
  invalid: EditProblem[];
  /** What would be sent (dry run) or was sent: one line per request. */
  plan: string[];
}

/** One push run: its options, its queued edits and sessions, and what it found so far. */
interface PushRun {
  readonly options: PushOptions;
  readonly summary: PushSummary;
  /** Pending and failed edits of the chosen languages, in the order they were recorded. */
  readonly edits: readonly Edit[];
  /** The languages of `edits`, in order of first edit; each has its session. */
  readonly langs: readonly string[];
  readonly sessions: ReadonlyMap<string, SiteSession>;
  /** Edits not to send: conflicts, and writes the site already has. */
  readonly held: Set<number>;
}

/**
 * Sends the edits already queued in the cache (`runPush` records the checkout files' edits
 * first, opens the sessions and reports).
 */
export async function sendQueuedEdits(options: PushOptions): Promise<PushSummary> {
  const summary = emptyPushSummary();
  const edits = queuedEdits(options.store, options.languages);
  if (edits.length === 0) return summary;
  const langs = [...new Set(edits.map((edit) => edit.lang))];
  const sessions = new Map<string, SiteSession>();
  for (const lang of langs) sessions.set(lang, await options.session(lang));
  const run: PushRun = { options, summary, edits, langs, sessions, held: new Set() };

  // Everything is validated before anything is sent.
  summary.invalid.push(...validateAll(run));
  if (summary.invalid.length > 0) {
    summary.pending = edits.length;
    return summary;
  }
  if (!options.force) await holdConflicts(run);
  if (!options.dryRun) await adoptCreatesOnSite(run);
  const plan = planSends(run);
  if (options.dryRun) {
    summary.pending = edits.length;
    return summary;
  }
  await sendPlan(run, plan);
  summary.pending =
    options.store.edits.list({ state: 'pending' }).length +
    options.store.edits.list({ state: 'failed' }).length;
  return summary;
}

/** The pending and failed edits of these languages (all when undefined), oldest first. */
function queuedEdits(store: Store, languages: readonly string[] | undefined): Edit[] {
  return [...store.edits.list({ state: 'pending' }), ...store.edits.list({ state: 'failed' })]
    .filter((edit) => languages === undefined || languages.includes(edit.lang))
    .sort((a, b) => a.id - b.id);
}

function validateAll(run: PushRun): EditProblem[] {
  const enumCheck = run.options.localEnumCheck ?? true;
  return run.edits.flatMap((edit) =>
    validateOne(edit, run.sessions.get(edit.lang)!.index, enumCheck),
  );
}

/** The run's edits of existing items (or of new ones), per language and type, in order. */
function* editGroups(
  run: PushRun,
  creates: boolean,
): Generator<{ session: SiteSession; type: CheckoutType; edits: Edit[] }> {
  for (const lang of run.langs) {
    for (const type of CHECKOUT_TYPES) {
      const edits = run.edits.filter(
        (edit) => edit.lang === lang && edit.type === type && (edit.itemId === null) === creates,
      );
      if (edits.length > 0) yield { session: run.sessions.get(lang)!, type, edits };
    }
  }
}

/** Items changed on the site since their checkout stay queued, never overwritten. */
async function holdConflicts(run: PushRun): Promise<void> {
  const { options, summary } = run;
  for (const { session, type, edits: mine } of editGroups(run, false)) {
    const perPage = session.index.perPageMax(collectionRoute(type));
    const remote = await fetchRemoteModified(
      session.client,
      type,
      mine.map((edit) => edit.itemId!),
      perPage,
    );
    const conflicts = findConflicts(
      mine.map((edit) => ({
        ref: String(edit.id),
        id: edit.itemId!,
        base: edit.baseModifiedGmt ?? undefined,
      })),
      remote,
    );
    // A changed or gone item may be our own earlier write whose answer was lost.
    const current =
      conflicts.length === 0 || options.dryRun
        ? new Map<number, CmsItem>()
        : await fetchItems(
            session.client,
            type,
            conflicts.map((conflict) => conflict.id),
            perPage,
          );
    for (const conflict of conflicts) {
      const edit = mine.find((candidate) => String(candidate.id) === conflict.ref)!;
      const item = current.get(conflict.id);
      if (item !== undefined && editApplied(edit, item)) {
        recordAlreadyApplied(run, edit, item);
        continue;
      }
      const message = describeConflict(conflict, labelOf(edit), hintOf(edit.file));
      run.held.add(edit.id);
      summary.conflicts.push({ edit: edit.id, label: labelOf(edit), message, conflict });
      if (!options.dryRun)
        options.store.edits.update(edit.id, { state: 'pending', error: `conflict: ${message}` });
    }
  }
}

/**
 * Creates the site already has (a run that stopped before recording the answer) are adopted,
 * never created twice.
 */
async function adoptCreatesOnSite(run: PushRun): Promise<void> {
  for (const { session, type, edits: creates } of editGroups(run, true)) {
    const found = await findCreated(
      session.client,
      type,
      creates,
      session.index.perPageMax(collectionRoute(type)),
    );
    for (const edit of creates) {
      const item = found.get(edit.id);
      if (item !== undefined) recordAlreadyApplied(run, edit, item);
    }
  }
}

/** An edit the site already shows: recorded as done, not sent again. */
function recordAlreadyApplied(run: PushRun, edit: Edit, item: CmsItem): void {
  run.held.add(edit.id);
  run.summary.recovered += 1;
  recordOutcome(run.options, run.summary, edit, {
    ref: String(edit.id),
    ok: true,
    status: 200,
    item,
  });
}

/**
 * The batches for the edits not held; edits that change nothing are done at once. Each
 * request is listed in the summary's plan (what a dry run shows).
 */
function planSends(run: PushRun): { plan: BatchPlan; byRef: Map<string, Edit> } {
  const { options, summary } = run;
  const sendable = run.edits.filter((edit) => !run.held.has(edit.id));
  const byRef = new Map(sendable.map((edit) => [String(edit.id), edit]));
  const maxItems = Math.min(
    BATCH_LIMIT,
    ...run.langs.map((lang) => run.sessions.get(lang)!.index.batchMaxItems()),
  );
  const plan = planBatches(sendable.map(toPlanned), { maxItems });
  for (const ref of plan.unchanged) {
    if (!options.dryRun) options.store.edits.update(Number(ref), { state: 'done', error: null });
  }
  for (const chunk of plan.chunks) {
    chunk.requests.forEach((request, i) =>
      summary.plan.push(
        `${chunk.lang} ${request.method ?? 'POST'} ${request.path} (${labelOf(byRef.get(chunk.refs[i]!)!)})`,
      ),
    );
  }
  return { plan, byRef };
}

/** Sends the planned batches in order and records each sub-response as it comes back. */
async function sendPlan(
  run: PushRun,
  { plan, byRef }: { plan: BatchPlan; byRef: Map<string, Edit> },
): Promise<void> {
  const { options, summary } = run;
  for (const chunk of plan.chunks) {
    const session = run.sessions.get(chunk.lang)!;
    const result = await sendChunk(session, chunk, options.validation ?? 'require-all-validate');
    summary.batches += result.batchCalls;
    summary.sent += chunk.requests.length;
    const outcomes = interpretBatchResult(chunk, result.result);
    for (const outcome of outcomes)
      recordOutcome(options, summary, byRef.get(outcome.ref)!, outcome);
  }
}

/** A summary of nothing sent yet (push and run-push start from it). */
export function emptyPushSummary(): PushSummary {
  return {
    sent: 0,
    batches: 0,
    created: 0,
    updated: 0,
    trashed: 0,
    recovered: 0,
    conflicts: [],
    failed: [],
    pending: 0,
    invalid: [],
    plan: [],
  };
}

function validateOne(edit: Edit, index: SiteIndex, enumCheck: boolean): EditProblem[] {
  if (isTrash(edit)) return [];
  const create = edit.itemId === null;
  const collection = collectionRoute(edit.type as CheckoutType);
  const route = create ? collection : `${collection}/${edit.itemId}`;
  const args = index.args(route, 'POST');
  if (args === undefined)
    throw new SiteError(
      index.indexUrl,
      `${index.indexUrl} has no POST ${route}: cannot write ${edit.type}`,
    );
  return validateEdit({
    file: labelOf(edit),
    fields: edit.fields,
    args,
    mode: create ? 'create' : 'update',
    skipEnum: !enumCheck,
  }).errors;
}

function toPlanned(edit: Edit): PlannedEdit {
  const type = edit.type as CheckoutType;
  if (edit.itemId === null)
    return { ref: String(edit.id), lang: edit.lang, type, action: 'create', body: edit.fields };
  if (isTrash(edit))
    return {
      ref: String(edit.id),
      lang: edit.lang,
      type,
      action: 'trash',
      id: edit.itemId,
      body: {},
    };
  return {
    ref: String(edit.id),
    lang: edit.lang,
    type,
    action: 'update',
    id: edit.itemId,
    body: edit.fields,
  };
}

/** Where the site's version of a conflicting file goes (none for edits without a file). */
function hintOf(file: string | null): RemoteCopyHint | undefined {
  if (file === null) return undefined;
  const copy = remoteCopyOf(file);
  return { file, copy, exists: existsSync(copy) };
}
