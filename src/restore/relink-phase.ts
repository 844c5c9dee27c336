/**
 * Links to re-created items in the other items of the site: every item the cache holds whose
 * text may name one (its old link, short link, file URL or media id), or whose parent or
 * featured file is one, is read from the site
 * right before, and updated only where moving the links changes its content or excerpt —
 * so a re-run finds nothing to send.
 *
 * Deleting an item for good changes others without touching their `modified`: its child pages
 * move up a level and a deleted file is no longer anyone's featured image
 * (observed on deployed servers). A pull cannot see that, so when the site still has the
 * item as the cache last saw it (same `modified_gmt`), the cache's parent or featured file is
 * the one to point at the re-created item, whatever the site shows now.
 */
import { collectionRoute, ITEM_TYPES, isContentType, type ItemType } from '../collections.js';
import { mayLink, relinkText } from './relink-text.js';
import { keyOf } from './restore-plan.js';
import { refTypeOf, sameValue, valueOf } from './restore-fields.js';
import { readSiteItems } from './site-read.js';
import { failure, sendWrites, type RestoreRun, type WriteRequest } from './restore-run.js';

const RELINKED = ['content', 'excerpt'] as const;
/** Fields naming another item: a page's parent, a featured file. */
const REFERENCES = ['parent', 'featured_media'] as const;

/** The new id when `value` names an item that was created again; else undefined. */
function movedRef(run: RestoreRun, type: ItemType, field: string, value: unknown) {
  const refType = refTypeOf(type, field);
  if (refType === undefined || typeof value !== 'number' || value < 1) return undefined;
  return run.mapped.get(keyOf(refType, value));
}

function pointsAtRecreated(
  run: RestoreRun,
  type: ItemType,
  item: { parent: number | null; featuredMedia: number | null },
): boolean {
  return (
    movedRef(run, type, 'parent', item.parent) !== undefined ||
    movedRef(run, type, 'featured_media', item.featuredMedia) !== undefined
  );
}

/** An item that may link to re-created ones, with its references as the cache last saw them. */
export interface RelinkCandidate {
  type: ItemType;
  id: number;
  title: string;
  cached: Readonly<Record<string, unknown>>;
}

/** Items of the cache (not `skip`: those restore wrote already) that may link to re-created ones. */
export function relinkCandidates(run: RestoreRun, skip: ReadonlySet<string>): RelinkCandidate[] {
  const { links } = run;
  if (links.ids.size + links.fileIds.size + links.urls.size === 0) return [];
  const out: RelinkCandidate[] = [];
  for (const type of ITEM_TYPES.filter(isContentType)) {
    for (const item of run.store.items.iterate(run.lang, type)) {
      if (item.deletedAt !== null || skip.has(keyOf(type, item.id))) continue;
      if (!mayLink(item.json, links) && !pointsAtRecreated(run, type, item)) continue;
      out.push({
        type,
        id: item.id,
        title: item.title ?? '',
        cached: JSON.parse(item.json) as Record<string, unknown>,
      });
    }
  }
  return out;
}

/** The new id a reference field should name now, or undefined when it stays as it is. */
function movedField(
  run: RestoreRun,
  candidate: RelinkCandidate,
  now: Readonly<Record<string, unknown>>,
  field: (typeof REFERENCES)[number],
): number | undefined {
  const moved = movedRef(run, candidate.type, field, now[field]);
  if (moved !== undefined) return moved;
  const untouched = sameValue('date_gmt', candidate.cached.modified_gmt, now.modified_gmt);
  if (!untouched) return undefined;
  const fromCache = movedRef(run, candidate.type, field, candidate.cached[field]);
  return fromCache !== undefined && fromCache !== now[field] ? fromCache : undefined;
}

export async function relinkOthers(
  run: RestoreRun,
  candidates: readonly RelinkCandidate[],
): Promise<void> {
  if (candidates.length === 0) return;
  const site = await readSiteItems(run.session, candidates, () => (run.counts.requests += 1));
  const writes: (WriteRequest & { title: string })[] = [];
  for (const candidate of candidates) {
    const { type, id, title } = candidate;
    const now = site.get(keyOf(type, id));
    if (now === undefined) continue;
    const body: Record<string, unknown> = {};
    for (const field of RELINKED) {
      const text = valueOf(now, field);
      if (typeof text !== 'string') continue;
      const moved = relinkText(text, run.links);
      if (moved !== text) body[field] = moved;
    }
    for (const field of REFERENCES) {
      const moved = movedField(run, candidate, now, field);
      if (moved !== undefined) body[field] = moved;
    }
    if (Object.keys(body).length === 0) continue;
    const path = `/${collectionRoute(type)}/${id}`;
    writes.push({ type, id, title, request: { method: 'POST', path, body } });
  }
  await sendWrites(run, writes, (sent, outcomes) => {
    outcomes.forEach((outcome, i) => {
      const write = sent[i]!;
      if (!outcome.ok) return failure(run, write, outcome);
      const title = writes.find((w) => w === write)?.title ?? '';
      const fields = Object.keys(write.request.body ?? {}).sort();
      run.report.done.push({ kind: 'relink', type: write.type, id: write.id, title, fields });
    });
  });
}
