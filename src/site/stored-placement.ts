/**
 * Where the last build placed each public post, kept in the cache (`build_placement`) so that
 * a run after a few edits that move nothing does not read every post again to place the site
 * (issue 17: reading the model and placing every post were most of a one-edit run at 10,000
 * posts). The record holds what `placeSite` found of the posts (their places in the posts'
 * source, ids, sticky flags, files, the media each uses, the warnings) and is used only when
 * it still fits: the source's order holds the same ids at the same places, no page changed,
 * and every edited post was placed and is still public at the same file, sticky alike, using
 * the same media. Anything else places the site in full, as before. The posts are recorded a
 * chunk at a time (`placement-chunks.ts`), each made as the cache writes it and read back one at
 * a time into columns: no text or array of every post is made (issue 17). The texts read are
 * digested as they are read: the posts' part of the layout digest, as the build that wrote them
 * made it. Pure but for the reads of the edited posts (`PostSource`) and of the chunks.
 */
import { editedIds } from './edit-plan.js';
import { addMediaUses, safePagePath } from './placed-entries.js';
import { EDIT_WINDOW, PlacedPosts, postSourceOf } from './placed-posts.js';
import { PartsDigest } from './digest.js';
import { postChunks, type PostsChunk } from './placement-chunks.js';
import { placeAround } from './site-placement.js';
import { TextColumn } from './text-column.js';
import type { PlacedSite, PlanOptions } from './site-plan.js';
import { isPublicEntry, type PostEntry, type SiteModel } from './site-model.js';
import type { PlacementPosts } from '../store/index.js';

/** Bump when the record's shape or meaning changes: an older record is then ignored. */
const RECORD_VERSION = 2;

/** What placing the posts found besides them, as stored (JSON). */
interface PlacementFacts {
  version: typeof RECORD_VERSION;
  /** `PostSource.size` when placed. */
  sourceSize: number;
  /** Posts placed: the chunks' lengths add up to it. */
  length: number;
  candidates: number;
  candidateWarnings: string[];
  claimWarnings: string[];
  /** `[place, files]` of each candidate that uses local files. */
  uses: [number, string[]][];
}

/** The placed posts as columns, read from the chunks, and the digest of the chunks read. */
interface PostColumns {
  places: Uint32Array;
  ids: Float64Array;
  sticky: Uint8Array;
  files: TextColumn;
  /** The posts' part of the layout digest (`PlacedPosts.layoutDigest`): the texts read. */
  layoutDigest: string;
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
  posts: PlacementPosts;
  newest: string | null;
}

/** The placement's record, as text for the cache: the posts' chunks made as they are written. */
export function placementRecord(placed: PlacedSite): RecordedPlacement {
  const { posts } = placed;
  return {
    posts: { facts: factsRecord(placed), chunks: () => postChunks(posts) },
    newest: newestRecord(posts),
  };
}

/** The newest post of a placement, as text for the cache. */
export function newestRecord(posts: PlacedPosts): string | null {
  if (posts.newestModified === undefined) return null;
  const newest: Newest = { modified: posts.newestModified, index: posts.newestIndex };
  return JSON.stringify(newest);
}

function factsRecord(placed: PlacedSite): string {
  const { facts } = placed;
  const record: PlacementFacts = {
    version: RECORD_VERSION,
    sourceSize: postSourceOf(placed.model).size,
    length: placed.posts.length,
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
  const facts = parsedFacts(recorded.posts.facts);
  const newestBefore = parsedNewest(recorded.newest);
  const edited = editedIds(changed);
  if (facts === undefined || edited === undefined || edited.pageIds.size > 0) return undefined;
  const source = postSourceOf(model);
  if (source.size !== facts.sourceSize) return undefined;
  const columns = readColumns(recorded.posts, facts.length);
  if (columns === undefined) return undefined;
  const indexes: number[] = [];
  for (let index = 0; index < columns.ids.length; index++) {
    const id = columns.ids[index] as number;
    if (source.idAt(columns.places[index] as number) !== id) return undefined;
    if (edited.postIds.has(id)) indexes.push(index);
  }
  if (indexes.length !== edited.postIds.size) return undefined;
  const uses = new Map(facts.uses);
  const entries = source.readAt(indexes.map((index) => columns.places[index] as number));
  let newest = newestBefore;
  for (const [at, index] of indexes.entries()) {
    const entry = entries[at];
    if (!movedNothing(entry, columns, index, uses)) return undefined;
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
    columns,
    newest ?? undefined,
    EDIT_WINDOW,
    undefined,
    columns.layoutDigest,
  );
  const placed = placeAround(model, options, {
    candidates: facts.candidates,
    candidateWarnings: facts.candidateWarnings,
    uses,
    claim: (_claims, warnings) => {
      // The files claimed as the last build claimed them: the pages, media and generated
      // files claimed before them are the same, and so is every post.
      warnings.push(...facts.claimWarnings);
      return posts;
    },
  });
  return { placed, edited: indexes };
}

/** The edited post is public and where the record puts it, sticky alike, using the same media. */
function movedNothing(
  entry: PostEntry | undefined,
  columns: PostColumns,
  index: number,
  uses: ReadonlyMap<number, readonly string[]>,
): entry is PostEntry {
  if (entry === undefined || !isPublicEntry(entry)) return false;
  const path = safePagePath(entry, 'post', []);
  if (path === undefined || path.file !== columns.files.get(index)) return false;
  if ((entry.sticky ? 1 : 0) !== columns.sticky[index]) return false;
  const own = new Set<string>();
  addMediaUses(own, { entry, ...path, digest: '' });
  const before = uses.get(columns.places[index] as number) ?? [];
  return own.size === before.length && before.every((file) => own.has(file));
}

function parsedNewest(text: string | null): Newest | null {
  if (text === null) return null;
  const value = parsedJson(text) as Partial<Newest> | null | undefined;
  return typeof value?.modified === 'string' && typeof value.index === 'number'
    ? { modified: value.modified, index: value.index }
    : null;
}

/** The facts, or undefined when they are not ones this code wrote. */
function parsedFacts(text: string): PlacementFacts | undefined {
  const facts = parsedJson(text) as Partial<PlacementFacts> | null | undefined;
  if (facts === null || typeof facts !== 'object' || facts.version !== RECORD_VERSION)
    return undefined;
  return Number.isInteger(facts.length) ? (facts as PlacementFacts) : undefined;
}

/**
 * The `length` posts of the chunks as columns, read a chunk at a time; undefined when the
 * chunks are not ones this code wrote or hold another number of posts.
 */
function readColumns(posts: PlacementPosts, length: number): PostColumns | undefined {
  const columns: Omit<PostColumns, 'layoutDigest'> = {
    places: new Uint32Array(length),
    ids: new Float64Array(length),
    sticky: new Uint8Array(length),
    files: new TextColumn(length),
  };
  const digest = new PartsDigest();
  let at = 0;
  for (const text of posts.chunks()) {
    digest.add(text);
    const chunk = parsedJson(text) as Partial<PostsChunk> | null | undefined;
    const size = chunk?.ids?.length;
    const parts = [chunk?.places, chunk?.ids, chunk?.sticky, chunk?.files];
    if (size === undefined || parts.some((part) => !Array.isArray(part) || part.length !== size))
      return undefined;
    if (at + size > length) return undefined;
    const { places, ids, sticky, files } = chunk as PostsChunk;
    columns.places.set(places, at);
    columns.ids.set(ids, at);
    columns.sticky.set(sticky, at);
    for (const file of files) {
      if (typeof file !== 'string') return undefined;
      columns.files.push(file);
    }
    at += size;
  }
  return at === length ? { ...columns, layoutDigest: digest.hex() } : undefined;
}

function parsedJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
