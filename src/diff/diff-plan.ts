/**
 * What changed between two sides, as pure rules: each item present on either side becomes at
 * most one change. Deleted = gone for good (not even in the trash); trashed = moved to the
 * trash; unpublished = was published, now a draft, pending or private; media are added or
 * removed (or updated). An update carries a line diff of title, excerpt and content and the
 * names of the other fields that changed. A media item removed together with an item deleted
 * for good that featured it is part of that deletion (one loss, as the user did it), not a
 * change of its own.
 */
import { collectionOf } from '../collections.js';
import { canonicalJson, type ItemType } from '../store/index.js';
import { changedHunks, lineDiff, type DiffLine } from './line-diff.js';
import { QUIET_FIELDS, TEXT_FIELDS, textOf, type ItemPair, type ItemState } from './item-state.js';

export type ChangeKind =
  'created' | 'updated' | 'trashed' | 'deleted' | 'unpublished' | 'media-added' | 'media-removed';

export interface TextChange {
  readonly field: (typeof TEXT_FIELDS)[number];
  /** Changed lines with two lines of context (`…` marks a gap). */
  readonly lines: readonly DiffLine[];
}

export interface ItemChange {
  readonly kind: ChangeKind;
  readonly type: ItemType;
  readonly id: number;
  /** The title on the newer side (the older one for a deletion). */
  readonly title: string;
  readonly statusBefore: string | null;
  readonly statusAfter: string | null;
  /** Line diffs of the text fields that differ. */
  readonly text: readonly TextChange[];
  /** Other top-level fields that differ (without `modified` and `_links`), sorted. */
  readonly fields: readonly string[];
  /** For a deletion: its featured media item, removed too (otherwise empty). */
  readonly removedMedia: readonly RemovedMedia[];
}

/** A media item removed together with the deleted item that featured it. */
export interface RemovedMedia {
  readonly type: ItemType;
  readonly id: number;
  readonly title: string;
}

/** Order of the kinds in a report: the losses first. */
const KIND_ORDER: readonly ChangeKind[] = [
  'deleted',
  'media-removed',
  'trashed',
  'unpublished',
  'updated',
  'created',
  'media-added',
];

const NOT_PUBLIC = new Set(['draft', 'pending', 'private']);

/** The changes of `pairs`, losses first, then by type and id. Unchanged pairs give nothing. */
export function planDiff(pairs: Iterable<ItemPair>): ItemChange[] {
  const changes: ItemChange[] = [];
  const featured = new Map<number, number>();
  for (const pair of pairs) {
    const change = changeOf(pair);
    if (change === undefined) continue;
    changes.push(change);
    const media = pair.before?.json['featured_media'];
    if (change.kind === 'deleted' && typeof media === 'number' && media > 0)
      featured.set(changes.length - 1, media);
  }
  return foldFeaturedMedia(changes, featured).sort(
    (x, y) =>
      KIND_ORDER.indexOf(x.kind) - KIND_ORDER.indexOf(y.kind) ||
      x.type.localeCompare(y.type) ||
      x.id - y.id,
  );
}

/** The one change of a pair, or undefined when both sides hold the same. */
export function changeOf(pair: ItemPair): ItemChange | undefined {
  const { before, after } = pair;
  if (before === undefined && after === undefined) return undefined;
  const file = collectionOf(pair.type).file;
  if (before === undefined) return make(file ? 'media-added' : 'created', pair);
  if (after === undefined) return make(file ? 'media-removed' : 'deleted', pair);
  if (sameContent(before, after)) return undefined;
  if (after.status === 'trash' && before.status !== 'trash') return make('trashed', pair);
  if (before.status === 'publish' && after.status !== null && NOT_PUBLIC.has(after.status)) {
    return make('unpublished', pair);
  }
  return make('updated', pair);
}

/**
 * Moves each removed media item that a deleted item featured (`featured`: index of the
 * deletion → media id) into that deletion's `removedMedia`; media removed on their own keep
 * their own change. A media item featured by several deleted items goes with the first.
 */
function foldFeaturedMedia(
  changes: readonly ItemChange[],
  featured: ReadonlyMap<number, number>,
): ItemChange[] {
  const removed = new Map<number, ItemChange>();
  for (const change of changes) if (change.kind === 'media-removed') removed.set(change.id, change);
  const folded = new Set<ItemChange>();
  const out = changes.map((change, index) => {
    const media = removed.get(featured.get(index) ?? 0);
    if (media === undefined || folded.has(media)) return change;
    folded.add(media);
    const entry: RemovedMedia = { type: media.type, id: media.id, title: media.title };
    return { ...change, removedMedia: [...change.removedMedia, entry] };
  });
  return out.filter((change) => !folded.has(change));
}

function sameContent(before: ItemState, after: ItemState): boolean {
  if (before.contentHash !== undefined && before.contentHash === after.contentHash) return true;
  return canonicalJson(before.json) === canonicalJson(after.json);
}

function make(kind: ChangeKind, pair: ItemPair): ItemChange {
  const { before, after } = pair;
  const shown = after ?? before;
  return {
    kind,
    type: pair.type,
    id: pair.id,
    title: shown === undefined ? '' : textOf(shown.json, 'title'),
    statusBefore: before?.status ?? null,
    statusAfter: after?.status ?? null,
    text: before !== undefined && after !== undefined ? textChanges(before, after) : [],
    fields: before !== undefined && after !== undefined ? changedFields(before, after) : [],
    removedMedia: [],
  };
}

function textChanges(before: ItemState, after: ItemState): TextChange[] {
  const out: TextChange[] = [];
  for (const field of TEXT_FIELDS) {
    const old = textOf(before.json, field);
    const now = textOf(after.json, field);
    if (old !== now) out.push({ field, lines: changedHunks(lineDiff(old, now)) });
  }
  return out;
}

/** Top-level fields whose canonical JSON differs, without the quiet ones. */
export function changedFields(before: ItemState, after: ItemState): string[] {
  const names = new Set([...Object.keys(before.json), ...Object.keys(after.json)]);
  return [...names]
    .filter((name) => !QUIET_FIELDS.has(name))
    .filter((name) => canonical(before.json[name]) !== canonical(after.json[name]))
    .sort();
}

function canonical(value: unknown): string {
  return value === undefined ? '' : canonicalJson(value);
}
