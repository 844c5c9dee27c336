import { existsSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { BatchRequest, BatchResult, BatchValidation, SiteIndex } from '../client/index.js';
import { CHECKOUT_TYPES, collectionRoute } from '../collections.js';
import { HttpError, SiteError } from '../errors.js';
import type { CmsItem, Edit, Store } from '../store/index.js';
import { readTextIfExists, textHash, writeFileAtomic } from './atomic-file.js';
import { planBatches, BATCH_LIMIT, type BatchChunk, type PlannedEdit } from './batch-planner.js';
import { interpretBatchResult, siteError, type SubOutcome } from './batch-result.js';
import {
  checkoutPath,
  fieldsFromItem,
  parseCheckout,
  serializeCheckout,
  type CheckoutType,
} from './checkout-file.js';
import { editApplied, fetchItems, findCreated } from './already-applied.js';
import {
  describeConflict,
  findConflicts,
  type Conflict,
  type RemoteCopyHint,
} from './conflicts.js';
import { remoteCopyOf } from './remote-copies.js';
import { fetchRemoteModified } from './remote-modified.js';
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

export async function pushEdits(options: PushOptions): Promise<PushSummary> {
  const { store } = options;
  const summary = emptyPushSummary();
  const edits = [
    ...store.edits.list({ state: 'pending' }),
    ...store.edits.list({ state: 'failed' }),
  ]
    .filter((edit) => options.languages === undefined || options.languages.includes(edit.lang))
    .sort((a, b) => a.id - b.id);
  if (edits.length === 0) return summary;

  const langs = [...new Set(edits.map((edit) => edit.lang))];
  const sessions = new Map<string, SiteSession>();
  for (const lang of langs) sessions.set(lang, await options.session(lang));

  // 1. Validate everything before anything is sent.
  for (const edit of edits) {
    const index = sessions.get(edit.lang)!.index;
    summary.invalid.push(...validateOne(edit, index, options.localEnumCheck ?? true));
  }
  if (summary.invalid.length > 0) {
    summary.pending = edits.length;
    return summary;
  }

  // 2. Conflicts: items changed on the site since their checkout stay queued.
  const held = new Set<number>();
  if (!options.force) {
    for (const lang of langs) {
      const session = sessions.get(lang)!;
      for (const type of CHECKOUT_TYPES) {
        const mine = edits.filter(
          (edit) => edit.lang === lang && edit.type === type && edit.itemId !== null,
        );
        if (mine.length === 0) continue;
        const remote = await fetchRemoteModified(
          session.client,
          type,
          mine.map((edit) => edit.itemId!),
          session.index.perPageMax(collectionRoute(type)),
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
            ? new Map()
            : await fetchItems(
                session.client,
                type,
                conflicts.map((conflict) => conflict.id),
                session.index.perPageMax(collectionRoute(type)),
              );
        for (const conflict of conflicts) {
          const edit = mine.find((candidate) => String(candidate.id) === conflict.ref)!;
          const item = current.get(conflict.id);
          if (item !== undefined && editApplied(edit, item)) {
            held.add(edit.id);
            summary.recovered += 1;
            recordOutcome(options, summary, edit, {
              ref: conflict.ref,
              ok: true,
              status: 200,
              item,
            });
            continue;
          }
          const message = describeConflict(conflict, labelOf(edit), hintOf(edit.file));
          held.add(edit.id);
          summary.conflicts.push({ edit: edit.id, label: labelOf(edit), message, conflict });
          if (!options.dryRun)
            store.edits.update(edit.id, { state: 'pending', error: `conflict: ${message}` });
        }
      }
    }
  }

  // 2b. Creates the site already has (a run that stopped before recording the answer) are
  // adopted, never created twice.
  if (!options.dryRun) {
    for (const lang of langs) {
      const session = sessions.get(lang)!;
      for (const type of CHECKOUT_TYPES) {
        const creates = edits.filter(
          (edit) => edit.lang === lang && edit.type === type && edit.itemId === null,
        );
        if (creates.length === 0) continue;
        const found = await findCreated(
          session.client,
          type,
          creates,
          session.index.perPageMax(collectionRoute(type)),
        );
        for (const edit of creates) {
          const item = found.get(edit.id);
          if (item === undefined) continue;
          held.add(edit.id);
          summary.recovered += 1;
          recordOutcome(options, summary, edit, {
            ref: String(edit.id),
            ok: true,
            status: 200,
            item,
          });
        }
      }
    }
  }

  // 3. Plan and send.
  const sendable = edits.filter((edit) => !held.has(edit.id));
  const byRef = new Map(sendable.map((edit) => [String(edit.id), edit]));
  const maxItems = Math.min(
    BATCH_LIMIT,
    ...langs.map((lang) => sessions.get(lang)!.index.batchMaxItems()),
  );
  const plan = planBatches(sendable.map(toPlanned), { maxItems });
  for (const ref of plan.unchanged) {
    if (!options.dryRun) store.edits.update(Number(ref), { state: 'done', error: null });
  }
  for (const chunk of plan.chunks) {
    chunk.requests.forEach((request, i) =>
      summary.plan.push(
        `${chunk.lang} ${request.method ?? 'POST'} ${request.path} (${labelOf(byRef.get(chunk.refs[i]!)!)})`,
      ),
    );
  }
  if (options.dryRun) {
    summary.pending = edits.length;
    return summary;
  }
  for (const chunk of plan.chunks) {
    const session = sessions.get(chunk.lang)!;
    const result = await sendChunk(session, chunk, options.validation ?? 'require-all-validate');
    summary.batches += result.batchCalls;
    summary.sent += chunk.requests.length;
    const outcomes = interpretBatchResult(chunk, result.result);
    for (const outcome of outcomes)
      recordOutcome(options, summary, byRef.get(outcome.ref)!, outcome);
  }
  summary.pending =
    store.edits.list({ state: 'pending' }).length + store.edits.list({ state: 'failed' }).length;
  return summary;
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
  const route = create ? `cms/v2/${edit.type}` : `cms/v2/${edit.type}/${edit.itemId}`;
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

function isTrash(edit: Edit): boolean {
  return edit.itemId !== null && edit.fields.status === 'trash';
}

/**
 * One chunk through `POST batch/v1`; when the site does not allow a route in a batch, its
 * requests go one by one and their answers are assembled into the same shape.
 */
async function sendChunk(
  session: SiteSession,
  chunk: BatchChunk,
  validation: BatchValidation,
): Promise<{ result: BatchResult; batchCalls: number }> {
  const batchable = chunk.requests.every((request) =>
    session.index.allowsBatch(request.path.replace(/^\//, ''), request.method ?? 'POST'),
  );
  if (batchable) {
    // A batch of updates and trashes can be repeated harmlessly; one with creates cannot.
    const idempotent = chunk.requests.every((request) => /\/\d+$/.test(request.path));
    return {
      result: await session.client.batch(chunk.requests, validation, { idempotent }),
      batchCalls: 1,
    };
  }
  const responses = [];
  for (const request of chunk.requests) responses.push(await sendOne(session, request));
  return { result: { failed: null, responses }, batchCalls: 0 };
}

async function sendOne(session: SiteSession, request: BatchRequest) {
  try {
    const response = await session.client.request<unknown>(request.method ?? 'POST', request.path, {
      ...(request.body === undefined ? {} : { body: request.body }),
    });
    return { status: response.status, body: response.data, headers: {} };
  } catch (error) {
    if (error instanceof HttpError) return { status: error.status, body: error.body, headers: {} };
    throw error;
  }
}

function recordOutcome(
  options: PushOptions,
  summary: PushSummary,
  edit: Edit,
  outcome: SubOutcome,
): void {
  const { store } = options;
  if (!outcome.ok) {
    const error = `${outcome.code}: ${outcome.message}`;
    if (outcome.notRun) store.edits.update(edit.id, { state: 'pending', error });
    else {
      store.edits.update(edit.id, { state: 'failed', error });
      summary.failed.push({
        edit: edit.id,
        label: labelOf(edit),
        code: outcome.code,
        message: outcome.message,
      });
    }
    return;
  }
  const type = edit.type as CheckoutType;
  const item = itemOf(outcome.item);
  if (item === undefined) {
    const { code, message } = siteError(outcome.item, outcome.status);
    store.edits.update(edit.id, {
      state: 'failed',
      error: `${code}: the site answered without the item (${message})`,
    });
    summary.failed.push({
      edit: edit.id,
      label: labelOf(edit),
      code,
      message: 'the site answered without the item',
    });
    return;
  }
  const context = hasRaw(item) ? 'edit' : 'view';
  const modified = typeof item.modified_gmt === 'string' ? item.modified_gmt : null;
  store.transaction(() => {
    store.items.upsertPage(edit.lang, type, [item], { context });
    store.edits.update(edit.id, {
      state: 'done',
      error: null,
      itemId: item.id,
      baseModifiedGmt: modified,
    });
  });
  if (edit.itemId === null) summary.created += 1;
  else if (isTrash(edit)) summary.trashed += 1;
  else summary.updated += 1;
  if (options.dir !== undefined) syncFile(options, edit, type, item, modified);
  else if (store.checkouts.get(edit.lang, type, item.id) !== undefined) {
    const checkout = store.checkouts.get(edit.lang, type, item.id)!;
    store.checkouts.set({ ...checkout, baseModifiedGmt: modified });
  }
}

/**
 * After a successful write, the item's file shows the site's version and is recorded as the
 * new base. A file the user changed again since it was read is not overwritten (it stays an
 * edit for the next push); a new item's file gets its id and its `{id}-{slug}.html` name.
 */
function syncFile(
  options: PushOptions,
  edit: Edit,
  type: CheckoutType,
  item: CmsItem,
  modified: string | null,
): void {
  const { store } = options;
  const dir = options.dir!;
  const previous = store.checkouts.get(edit.lang, type, item.id);
  const oldFile = edit.file ?? previous?.file;
  const slug = typeof item.slug === 'string' ? item.slug : '';
  const target =
    edit.itemId === null || oldFile === undefined
      ? checkoutPath(dir, { lang: edit.lang, type, id: item.id, slug })
      : oldFile;
  const serverText = serializeCheckout({
    id: item.id,
    type,
    lang: edit.lang,
    fields: fieldsFromItem(item, type),
  });
  const current = oldFile === undefined ? undefined : readTextIfExists(oldFile);
  const readHash =
    oldFile === undefined ? undefined : options.fileHashes?.get(path.resolve(oldFile));
  const untouched = current === undefined || readHash === undefined || current.hash === readHash;
  let text = serverText;
  if (!untouched && current !== undefined) {
    // Edited again meanwhile: keep the user's newest text (with its new id for a create).
    const doc = parseCheckout(current.text, oldFile!, { type, lang: edit.lang });
    text = serializeCheckout({ ...doc, id: item.id });
  }
  writeFileAtomic(target, text);
  store.checkouts.set({
    lang: edit.lang,
    type,
    id: item.id,
    file: target,
    baseModifiedGmt: modified,
    fileHash: textHash(serverText),
  });
  if (oldFile !== undefined && path.resolve(oldFile) !== path.resolve(target))
    rmSync(oldFile, { force: true });
}

function itemOf(body: Readonly<Record<string, unknown>>): CmsItem | undefined {
  // DELETE with force answers {deleted, previous}; without force (trash) the item itself.
  const candidate =
    typeof body.previous === 'object' && body.previous !== null && body.id === undefined
      ? body.previous
      : body;
  const record = candidate as Record<string, unknown>;
  return typeof record.id === 'number' && Number.isInteger(record.id) && record.id > 0
    ? (record as CmsItem)
    : undefined;
}

function hasRaw(item: CmsItem): boolean {
  const content = item.content as { raw?: unknown } | undefined;
  return typeof content?.raw === 'string';
}

/** How an edit is named to the user: its file, else `lang/type/id`. */
export function labelOf(edit: Edit): string {
  if (edit.file !== null) return edit.file;
  return `${edit.lang}/${edit.type}/${edit.itemId ?? 'new'}`;
}

/** Where the site's version of a conflicting file goes (none for edits without a file). */
function hintOf(file: string | null): RemoteCopyHint | undefined {
  if (file === null) return undefined;
  const copy = remoteCopyOf(file);
  return { file, copy, exists: existsSync(copy) };
}
