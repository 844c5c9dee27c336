/**
 * Updates, untrashing and trashing of items on the site, through the batch route in chunks of
 * its limit. The plan was made from a read just before; an item that read finds different
 * from the run's first read (its `modified_gmt` or a value restore writes) was changed by
 * someone meanwhile: a conflict, reported and not overwritten, unless `force`.
 */
import { collectionRoute } from '../collections.js';
import { relinkText } from './relink-text.js';
import { keyOf, type RestoreAction } from './restore-plan.js';
import { failure, sendWrites, type RestoreRun, type WriteRequest } from './restore-run.js';

type Write = Exclude<RestoreAction, { kind: 'recreate' }>;

/**
 * `firstRead` and `lastRead`: a fingerprint of each item (`type/siteId`) as the run's first
 * read and the read right before these writes saw it; an item created by this run is not in
 * the first and cannot conflict.
 */
export async function writeChanges(
  run: RestoreRun,
  actions: readonly Write[],
  firstRead: ReadonlyMap<string, string>,
  lastRead: ReadonlyMap<string, string>,
): Promise<void> {
  const sendable: Write[] = [];
  for (const action of actions) {
    const key = keyOf(action.type, action.id);
    const before = firstRead.get(key);
    if (!run.force && before !== undefined && before !== lastRead.get(key)) {
      run.report.conflicts.push({
        type: action.type,
        id: action.id,
        message: `${action.type}/${action.id} changed on the site while restore ran (now modified ${action.modified ?? 'at an unknown time'}); not overwritten (use --force)`,
      });
    } else sendable.push(action);
  }
  const writes = sendable.map((action) => ({
    type: action.type,
    id: action.id,
    request: requestOf(run, action),
  }));
  await sendWrites(run, writes, (sent, outcomes) => {
    outcomes.forEach((outcome, i) => {
      const action = sendable[writes.indexOf(sent[i]!)]!;
      if (!outcome.ok) return failure(run, sent[i]!, outcome);
      const body = action.kind === 'trash' ? {} : (sent[i]!.request.body ?? {});
      run.report.done.push({
        kind: action.kind,
        type: action.type,
        id: action.oldId,
        ...(action.id !== action.oldId ? { newId: action.id } : {}),
        title: action.title,
        fields: Object.keys(body).sort(),
      });
    });
    run.onLine?.(`sent ${sent.length} change(s)`);
  });
}

/** The request of one action, references and links to re-created items filled in. */
export function requestOf(run: RestoreRun, action: Write): WriteRequest['request'] {
  const path = `/${collectionRoute(action.type)}/${action.id}`;
  if (action.kind === 'trash') return { method: 'DELETE', path };
  const body: Record<string, unknown> = { ...action.body };
  for (const ref of action.refs) {
    const id = run.mapped.get(keyOf(ref.type, ref.oldId));
    if (id !== undefined) body[ref.field] = id;
    else delete body[ref.field];
  }
  for (const field of ['content', 'excerpt']) {
    if (typeof body[field] === 'string') body[field] = relinkText(body[field], run.links);
  }
  return { method: 'POST', path, body };
}
