/**
 * Items deleted for good, created again: files first (one upload each: the upload route takes
 * no batch), then posts and pages through the batch route, a page tree parents first. Before
 * creating anything, the site is searched for copies a killed run made (recognised as
 * migration recognises its own, never by slug alone); each new id is recorded in
 * `restore_map` right after the answer (a batch's answers in one transaction).
 */
import { collectionOf, collectionRoute, type ItemType } from '../collections.js';
import { CmsMirrorError } from '../errors.js';
import { itemUrlPairs, mediaFields, mediaFileName, mediaUrlPairs } from '../migrate/remap.js';
import { scanTarget } from '../migrate/target-scan.js';
import type { PlanStep } from '../migrate/planner.js';
import { relinkText, withRecreated } from './relink-text.js';
import { valueOf } from './restore-fields.js';
import { keyOf, type RestoreAction } from './restore-plan.js';
import { failure, sendWrites, type RestoreRun, type WriteRequest } from './restore-run.js';

type Json = Readonly<Record<string, unknown>>;
type Recreate = Extract<RestoreAction, { kind: 'recreate' }>;

export async function recreateItems(run: RestoreRun, actions: readonly Recreate[]): Promise<void> {
  const pending = await adoptOwnCopies(run, actions);
  for (const action of pending.filter((a) => collectionOf(a.type).file)) {
    await uploadAgain(run, action);
  }
  let left = pending.filter((a) => !collectionOf(a.type).file);
  while (left.length > 0) {
    const waiting = new Set(left.map((a) => keyOf(a.type, a.oldId)));
    let ready = left.filter((a) => a.refs.every((ref) => !waiting.has(keyOf(ref.type, ref.oldId))));
    if (ready.length === 0) ready = left; // a cycle: created without the missing parents
    left = left.filter((a) => !ready.includes(a));
    const writes = ready.map((action): WriteRequest => ({
      type: action.type,
      id: action.oldId,
      request: {
        method: 'POST',
        path: `/${collectionRoute(action.type)}`,
        body: bodyOf(run, action),
      },
    }));
    await sendWrites(run, writes, (sent, outcomes) => {
      run.store.transaction(() => {
        outcomes.forEach((outcome, i) => {
          const action = ready[writes.indexOf(sent[i]!)]!;
          if (outcome.ok) record(run, action, outcome.item, 'recreate');
          else failure(run, sent[i]!, outcome);
        });
      });
    });
  }
}

/** The create body with references to re-created items and links to them filled in. */
function bodyOf(run: RestoreRun, action: Recreate): Record<string, unknown> {
  const body: Record<string, unknown> = { ...action.body };
  for (const ref of action.refs) {
    const id = run.mapped.get(keyOf(ref.type, ref.oldId));
    if (id !== undefined) body[ref.field] = id;
  }
  for (const field of ['content', 'excerpt']) {
    if (typeof body[field] === 'string') body[field] = relinkText(body[field], run.links);
  }
  return body;
}

/** Records a re-created (or recognised) item: its new id, and its new link for relinking. */
function record(run: RestoreRun, action: Recreate, item: Json, kind: 'recreate' | 'adopt'): void {
  const newId = item.id as number;
  const file = collectionOf(action.type).file;
  const urls = file ? mediaUrlPairs(action.json, item) : itemUrlPairs(action.json, item);
  run.store.restoreMap.set({
    lang: run.lang,
    type: action.type,
    oldId: action.oldId,
    newId,
    runId: run.runId,
    urls,
  });
  run.mapped.set(keyOf(action.type, action.oldId), newId);
  run.links = withRecreated(run.links, { file, oldId: action.oldId, newId, urls });
  run.report.done.push({
    kind,
    type: action.type,
    id: action.oldId,
    newId,
    title: action.title,
    fields: [],
  });
  run.onLine?.(
    `${kind === 'adopt' ? 'found' : 'created'} ${action.type}/${action.oldId} again as ${newId}`,
  );
}

/** Copies a killed run made are taken as made; the rest is returned to be created. */
async function adoptOwnCopies(run: RestoreRun, actions: readonly Recreate[]): Promise<Recreate[]> {
  const left: Recreate[] = [];
  const claimed = new Set(run.mapped.values());
  const types = [...new Set(actions.map((action) => action.type))];
  for (const type of types) {
    const ofType = actions.filter((action) => action.type === type);
    const byId = new Map(
      ofType.map((a) => [`${type}:${a.oldId}`, { type, id: a.oldId, json: a.json }]),
    );
    const steps = ofType.map((a): PlanStep => stepOf(a));
    await scanTarget({
      session: run.session,
      steps,
      type,
      byId,
      claimed,
      parentTarget: (id) => run.mapped.get(keyOf(type, id)),
      countRequest: () => (run.counts.requests += 1),
      onFinding: (step, finding) => {
        const action = ofType.find((a) => a.oldId === step.sourceId)!;
        if (finding.kind === 'own')
          run.store.transaction(() => record(run, action, finding.target, 'adopt'));
        else left.push(action);
        if (finding.kind === 'conflict')
          run.report.notes.push(
            `${type}/${action.oldId}: another item holds its slug; the site gives it another`,
          );
      },
    });
  }
  return left;
}

function stepOf(action: Recreate): PlanStep {
  const slug = valueOf(action.json, 'slug');
  const parent = action.refs.find((ref) => ref.field === 'parent')?.oldId;
  return {
    type: action.type,
    sourceId: action.oldId,
    slug: typeof slug === 'string' ? slug : '',
    title: action.title,
    parentSourceId: parent ?? (typeof action.body.parent === 'number' ? action.body.parent : 0),
    action: 'create',
    targetId: undefined,
  };
}

/** A file deleted for good, uploaded again from the backup's copy of its bytes. */
async function uploadAgain(run: RestoreRun, action: Recreate): Promise<void> {
  const url = typeof action.json.source_url === 'string' ? action.json.source_url : '';
  const file = url === '' ? undefined : run.store.media.getFile(url);
  const bytes = file === undefined ? undefined : run.store.media.getBlob(file.sha256);
  if (bytes === undefined) {
    run.report.failed.push({
      type: action.type,
      id: action.oldId,
      message: `the backup holds no copy of ${url || 'its file'}`,
    });
    return;
  }
  const mime =
    typeof action.json.mime_type === 'string' ? action.json.mime_type : 'application/octet-stream';
  try {
    run.counts.requests += 1;
    run.counts.writes += 1;
    const response = await run.session.client.request<Json>('POST', collectionRoute(action.type), {
      query: mediaFields(action.json, NO_REMAP),
      rawBody: { data: bytes, contentType: mime },
      headers: { 'content-disposition': `attachment; filename="${mediaFileName(action.json)}"` },
      idempotent: false,
    });
    record(run, action, response.data, 'recreate');
  } catch (error) {
    if (!(error instanceof CmsMirrorError)) throw error;
    run.report.failed.push({ type: action.type, id: action.oldId, message: error.message });
  }
}

/** Same site: no author or URL is mapped in a file's fields. */
const NO_REMAP = {
  ids: {} as Record<ItemType, ReadonlyMap<number, number>>,
  authors: new Map<number, number>(),
  urls: new Map<string, string>(),
  sourceHome: '',
  targetHome: '',
  sourceUrl: '',
  targetUrl: '',
};
