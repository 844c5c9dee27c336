/**
 * Where the last build placed each public post, kept in the cache (`build_placement`) so that
 * a run after a few edits that move nothing does not read every post again to place the site
 * (issue 17: reading the model and placing every post were most of a one-edit run at 10,000
 * posts). The record holds what `placeSite` found of the posts (their places in the posts'
 * source, ids, sticky flags, files, the media each uses, the warnings) and is used only when
 * it still fits: the source's order holds the same ids at the same places, no page changed,
 * and every edited post was placed and is still public at the same file, sticky alike, using
 * the same media. Anything else places the site in full, as before. Pure but for the reads of
 * the edited posts (`PostSource`).
 */
import { editedIds } from './edit-plan.js';
import { addMediaUses, safePagePath } from './placed-entries.js';
import { EDIT_WINDOW, PlacedPosts, postSourceOf } from './placed-posts.js';
import { placeAround } from './site-placement.js';
import type { PlacedSite, PlanOptions } from './site-plan.js';
import { isPublicEntry, type PostEntry, type SiteModel } from './site-model.js';

/** Bump when the record's shape or meaning changes: an older record is then ignored. */
const RECORD_VERSION = 1;

/** The record as stored (JSON). */
interface PlacementRecord {
  version: typeof RECORD_VERSION;
  /** `PostSource.size` when placed. */
  sourceSize: number;
  places: number[];
  ids: number[];
  sticky: number[];
  files: string[];
  candidates: number;
  candidateWarnings: string[];
  claimWarnings: string[];
  /** `[place, files]` of each candidate that uses local files. */
  uses: [number, string[]][];
}

/** The newest post (`PlacedPosts.newestModified`, `newestIndex`), recorded apart. */
interface Newest {
  modified: string;
  index: number;
}

/**
 * The placement as the cache keeps it (`BuildSources.placement`): the posts' record, which an
 * edit that moves nothing leaves as it is, and the newest post, which it may change.
 */
export interface RecordedPlacement {
  data: string;
  newest: string | null;
}

/** The placement's record, as text for the cache. */
export function placementRecord(placed: PlacedSite): RecordedPlacement {
  return { data: postsRecord(placed), newest: newestRecord(placed.posts) };
}

/** The newest post of a placement, as text for the cache. */
export function newestRecord(posts: PlacedPosts): string | null {
  if (posts.newestModified === undefined) return null;
  const newest: Newest = { modified: posts.newestModified, index: posts.newestIndex };
  return JSON.stringify(newest);
}

function postsRecord(placed: PlacedSite): string {
  const { posts, facts } = placed;
  const record: PlacementRecord = {
    version: RECORD_VERSION,
    sourceSize: postSourceOf(placed.model).size,
    places: Array.from({ length: posts.length }, (_, index) => posts.place(index)),
    ids: Array.from({ length: posts.length }, (_, index) => posts.id(index)),
    sticky: Array.from({ length: posts.length }, (_, index) => (posts.sticky(index) ? 1 : 0)),
    files: Array.from({ length: posts.length }, (_, index) => posts.file(index)),
    candidates: facts.candidates,
    candidateWarnings: [...facts.candidateWarnings],
    claimWarnings: [...facts.claimWarnings],
    uses: [...facts.uses].map(([place, files]) => [place, [...files]]),
  };
  return JSON.stringify(record);
}

/** The site placed from a record, and the edited posts' indexes among the placed posts. */
export interface PlacedFromRecord {
  placed: PlacedSite;
  edited: number[];
}

/**
 * The site placed as the record says, with the edited posts (`changed`: `type:id` keys) read
 * again; undefined when the record does not fit (the caller places the site in full).
 */
export function placedFromRecord(
  model: SiteModel,
  recorded: RecordedPlacement,
  changed: ReadonlySet<string>,
  options: PlanOptions,
): PlacedFromRecord | undefined {
  const record = parsed(recorded.data);
  const newestBefore = parsedNewest(recorded.newest);
  const edited = editedIds(changed);
  if (record === undefined || edited === undefined || edited.pageIds.size > 0) return undefined;
  const source = postSourceOf(model);
  if (source.size !== record.sourceSize) return undefined;
  const indexes: number[] = [];
  for (let index = 0; index < record.ids.length; index++) {
    const id = record.ids[index] as number;
    if (source.idAt(record.places[index] as number) !== id) return undefined;
    if (edited.postIds.has(id)) indexes.push(index);
  }
  if (indexes.length !== edited.postIds.size) return undefined;
  const uses = new Map(record.uses);
  const entries = source.readAt(indexes.map((index) => record.places[index] as number));
  let newest = newestBefore;
  for (const [at, index] of indexes.entries()) {
    const entry = entries[at];
    if (!movedNothing(entry, record, index, uses)) return undefined;
    if (newest === null) return undefined;
    // The newest post's date made older: which post is newest now is not known.
    if (newest.index === index && entry.modifiedGmt < newest.modified) return undefined;
    // The first post with the newest date, as `claimPosts` finds it.
    const modified = entry.modifiedGmt;
    if (modified > newest.modified || (modified === newest.modified && index < newest.index))
      newest = { modified, index };
  }
  const posts = new PlacedPosts(
    source,
    {
      places: Uint32Array.from(record.places),
      ids: Float64Array.from(record.ids),
      sticky: Uint8Array.from(record.sticky),
      files: record.files,
    },
    newest ?? undefined,
    EDIT_WINDOW,
  );
  const placed = placeAround(model, options, {
    candidates: record.candidates,
    candidateWarnings: record.candidateWarnings,
    uses,
    claim: (_claims, warnings) => {
      // The files claimed as the last build claimed them: the pages, media and generated
      // files claimed before them are the same, and so is every post.
      warnings.push(...record.claimWarnings);
      return posts;
    },
  });
  return { placed, edited: indexes };
}

/** The edited post is public and where the record puts it, sticky alike, using the same media. */
function movedNothing(
  entry: PostEntry | undefined,
  record: PlacementRecord,
  index: number,
  uses: ReadonlyMap<number, readonly string[]>,
): entry is PostEntry {
  if (entry === undefined || !isPublicEntry(entry)) return false;
  const path = safePagePath(entry, 'post', []);
  if (path === undefined || path.file !== record.files[index]) return false;
  if ((entry.sticky ? 1 : 0) !== record.sticky[index]) return false;
  const own = new Set<string>();
  addMediaUses(own, { entry, ...path, digest: '' });
  const before = uses.get(record.places[index] as number) ?? [];
  return own.size === before.length && before.every((file) => own.has(file));
}

function parsedNewest(text: string | null): Newest | null {
  if (text === null) return null;
  try {
    const value = JSON.parse(text) as Partial<Newest> | null;
    return typeof value?.modified === 'string' && typeof value.index === 'number'
      ? { modified: value.modified, index: value.index }
      : null;
  } catch {
    return null;
  }
}

/** The record, or undefined when it is not one this code wrote. */
function parsed(text: string): PlacementRecord | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  const record = value as Partial<PlacementRecord> | null;
  if (record === null || typeof record !== 'object' || record.version !== RECORD_VERSION)
    return undefined;
  const length = record.ids?.length;
  const columns = [record.places, record.ids, record.sticky, record.files];
  if (
    length === undefined ||
    columns.some((column) => !Array.isArray(column) || column.length !== length)
  )
    return undefined;
  return record as PlacementRecord;
}
