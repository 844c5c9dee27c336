/**
 * The public posts of a plan, newest first at their places, held as a few columns (place in
 * the source, id, sticky, file: ~60 bytes a post) instead of the entries: whatever else a step
 * needs of a post (title, excerpt, dates, links) is read again from the model's posts a window
 * at a time (`PostSource`), so that a build does not hold its site whole (issue 17). A small
 * site's posts are the exception: held as first read (`HOLD_ALL_POSTS`).
 */
import { contestedFiles } from './contested-paths.js';
import { PathClaims } from './path-claims.js';
import { postsLayoutDigest } from './placement-chunks.js';
import { compare, entryDigest, pagePathOf, safePagePath, type Placed } from './placed-entries.js';
import { isPublicEntry, type PostEntry, type PostSource, type SiteModel } from './site-model.js';
import { TextColumn } from './text-column.js';

/** Posts read at a time (a whole site's walk; an edit's plan reads a few: `EDIT_WINDOW`). */
const WINDOW = 1000;

/** Posts read at a time around the few an edit's plan shows (a listing page, neighbours). */
export const EDIT_WINDOW = 32;

/**
 * A full placement of a site with no more posts than this keeps the entries its first pass
 * read, and the build reads no post again: it walks its posts seven times (the plan's listings
 * and pages, the sitemap, the render's listings and pages, each search bundle's digest and
 * documents), and read again from the cache each time the rows were about a quarter of the
 * build thread's time at 10,000 posts. Held, an entry costs ~1 KB (its HTML is never held), so
 * ~20 MB at most; a larger site reads its posts again a window at a time (issue 17's memory).
 */
export const HOLD_ALL_POSTS = 20_000;

interface Window {
  start: number;
  posts: Placed<PostEntry>[];
}

export class PlacedPosts {
  readonly #source: PostSource;
  /** The place in the source of each post. */
  readonly #places: Uint32Array;
  readonly #ids: Float64Array;
  readonly #sticky: Uint8Array;
  readonly #files: TextColumn;
  /** The newest `modifiedGmt` of the posts placed (the sitemap's date of the home). */
  readonly newestModified: string | undefined;
  /** The first post with `newestModified` (-1 when none is placed). */
  readonly newestIndex: number;
  /** Posts read at a time by `at`. */
  readonly #window: number;
  /** The last two windows read (a page's newer neighbour may be in the window before). */
  #windows: Window[] = [];
  /** The first pass's entries by place in the source, when every post is held. */
  readonly #held: readonly (PostEntry | undefined)[] | undefined;
  /** Each held post placed, made when first asked for (its digest made once). */
  readonly #heldPlaced: (Placed<PostEntry> | undefined)[] = [];
  /** `layoutDigest`: given when placed from a record, else made when first asked for. */
  #layoutDigest: string | undefined;
  /** `listed`, made when first asked for (an edit's plan asks twice). */
  #listed: Uint32Array | undefined;

  constructor(
    source: PostSource,
    columns: { places: Uint32Array; ids: Float64Array; sticky: Uint8Array; files: TextColumn },
    newest?: { modified: string; index: number },
    window: number = WINDOW,
    held?: readonly (PostEntry | undefined)[],
    layoutDigest?: string,
  ) {
    this.#window = window;
    this.#held = held;
    this.#layoutDigest = layoutDigest;
    this.newestModified = newest?.modified;
    this.newestIndex = newest?.index ?? -1;
    this.#source = source;
    this.#places = columns.places;
    this.#ids = columns.ids;
    this.#sticky = columns.sticky;
    this.#files = columns.files;
  }

  get length(): number {
    return this.#ids.length;
  }

  id(index: number): number {
    return this.#ids[index] as number;
  }

  sticky(index: number): boolean {
    return this.#sticky[index] === 1;
  }

  file(index: number): string {
    return this.#files.get(index);
  }

  /** The post's place in the source (`PostSource`). */
  place(index: number): number {
    return this.#places[index] as number;
  }

  /** The post at `index`, read with its window; undefined past either end. */
  at(index: number): Placed<PostEntry> | undefined {
    if (index < 0 || index >= this.length) return undefined;
    if (this.#held !== undefined) return this.#heldAt(index);
    const start = index - (index % this.#window);
    let window = this.#windows.find((held) => held.start === start);
    if (window === undefined) {
      window = { start, posts: this.slice(start, Math.min(this.length, start + this.#window)) };
      this.#windows = [window, ...this.#windows.slice(0, 1)];
    }
    return window.posts[index - start];
  }

  /** The posts from `start` to `end` (excluded), read in one go. */
  slice(start: number, end: number): Placed<PostEntry>[] {
    const from = Math.max(0, start);
    const to = Math.min(this.length, end);
    if (to <= from) return [];
    if (this.#held !== undefined) {
      const held: Placed<PostEntry>[] = [];
      for (let index = from; index < to; index++) held.push(this.#heldAt(index));
      return held;
    }
    const first = this.#places[from] as number;
    const entries = this.#source.read(first, (this.#places[to - 1] as number) + 1);
    const posts: Placed<PostEntry>[] = [];
    for (let index = from; index < to; index++)
      posts.push(this.#placed(entries[(this.#places[index] as number) - first], index));
    return posts;
  }

  /** The posts at these indexes, in the order given. */
  pick(indexes: ArrayLike<number>): Placed<PostEntry>[] {
    if (this.#held !== undefined) return Array.from(indexes, (index) => this.#heldAt(index));
    const places = Array.from(indexes, (index) => this.#places[index] as number);
    const entries = this.#source.readAt(places);
    return Array.from(indexes, (index, at) => this.#placed(entries[at], index));
  }

  /** Every post in order, a window at a time. */
  *windows(): Generator<Placed<PostEntry>[]> {
    for (let start = 0; start < this.length; start += WINDOW)
      yield this.slice(start, start + WINDOW);
  }

  /**
   * The posts' part of the layout digest (`layoutDigestOf`): the digest of their record's
   * chunks (`placement-chunks.ts`), made once, or the one read with the record they were
   * placed from (the same texts).
   */
  layoutDigest(): string {
    this.#layoutDigest ??= postsLayoutDigest(this);
    return this.#layoutDigest;
  }

  /** The listing order: sticky posts first, then the others, each newest first. */
  listed(): Uint32Array {
    if (this.#listed !== undefined) return this.#listed;
    const listed = new Uint32Array(this.length);
    let at = 0;
    for (const wanted of [1, 0])
      for (let index = 0; index < this.length; index++)
        if (this.#sticky[index] === wanted) listed[at++] = index;
    this.#listed = listed;
    return listed;
  }

  #heldAt(index: number): Placed<PostEntry> {
    let placed = this.#heldPlaced[index];
    if (placed === undefined) {
      placed = this.#placed(this.#held?.[this.#places[index] as number], index);
      this.#heldPlaced[index] = placed;
    }
    return placed;
  }

  #placed(entry: PostEntry | undefined, index: number): Placed<PostEntry> {
    // The cache is not written while a build reads it: a post placed is read again alike.
    if (entry === undefined || entry.id !== this.#ids[index])
      throw new Error(`Internal error: post ${this.#ids[index]} is not read again alike.`);
    return new PlacedPost(entry);
  }
}

/**
 * A post read again at its place, its digest made when first asked for: the sitemap and the
 * feed read every post and need none (the digests were ~0.15 s of a one-edit run's sitemap at
 * 10,000 posts); a page's plan asks for it.
 */
class PlacedPost implements Placed<PostEntry> {
  readonly entry: PostEntry;
  readonly sitePath: string;
  readonly file: string;
  #digest: string | undefined;

  constructor(entry: PostEntry) {
    const { sitePath, file } = pagePathOf(entry);
    this.entry = entry;
    this.sitePath = sitePath;
    this.file = file;
  }

  get digest(): string {
    this.#digest ??= entryDigest(this.entry);
    return this.#digest;
  }
}

/** The model's posts as a source: its `postSource`, or its array newest first. */
export function postSourceOf(model: SiteModel): PostSource {
  if (model.postSource !== undefined) return model.postSource;
  const posts = [...model.posts].sort((a, b) => compare(b.dateGmt, a.dateGmt) || b.id - a.id);
  return {
    size: posts.length,
    read: (start, end) => posts.slice(start, end),
    readAt: (places) => Array.from(places, (place) => posts[place]),
    idAt: (place) => posts[place]?.id,
  };
}

/** Posts public and at a safe path, before any is claimed (the first pass over the source). */
export interface PostCandidates {
  places: number[];
  ids: number[];
  sticky: number[];
  files: TextColumn;
  /** Each candidate's `modifiedGmt`, while the claims are made. */
  modified: TextColumn;
  /** Every entry read, by place, when the source has no more than `HOLD_ALL_POSTS`. */
  held?: (PostEntry | undefined)[];
}

/**
 * The first pass: the public posts with a safe path, in order, each handed to `each` (the
 * media they use). Warnings as `publicOnly` and `placeEntries` give them. Every entry read is
 * kept (`held`) when the source has no more than `holdUpTo` posts.
 */
export function postCandidates(
  source: PostSource,
  warnings: string[],
  each: (placed: Placed<PostEntry>, place: number) => void,
  holdUpTo: number = HOLD_ALL_POSTS,
): PostCandidates {
  const found: PostCandidates = {
    places: [],
    ids: [],
    sticky: [],
    files: new TextColumn(),
    modified: new TextColumn(),
  };
  const unsafe: string[] = [];
  let hidden = 0;
  const held = source.size <= holdUpTo ? new Array<PostEntry | undefined>() : undefined;
  if (held !== undefined) found.held = held;
  for (let start = 0; start < source.size; start += WINDOW) {
    const entries = source.read(start, Math.min(source.size, start + WINDOW));
    held?.push(...entries);
    entries.forEach((entry, offset) => {
      if (entry === undefined) return;
      if (!isPublicEntry(entry)) return void hidden++;
      const checked = safePagePath(entry, 'post', unsafe);
      if (checked === undefined) return;
      found.places.push(start + offset);
      found.ids.push(entry.id);
      found.sticky.push(entry.sticky ? 1 : 0);
      found.files.push(checked.file);
      found.modified.push(entry.modifiedGmt);
      each({ entry, ...checked, digest: '' }, start + offset);
    });
  }
  if (hidden > 0)
    warnings.push(`${hidden} non-public post(s) were given to the build and left out.`);
  warnings.push(...unsafe);
  return found;
}

/**
 * Claims the candidates' files, the oldest post first (as `claimAll`), and keeps the granted.
 * Each post is only checked against the site's other claims, claiming nothing: the few posts
 * whose files collide with each other's (`contestedFiles`) are claimed on a layer of their
 * own, so that no post's file, directories and owner are held (~0.1 KB a post).
 */
export function claimPosts(
  source: PostSource,
  found: PostCandidates,
  claims: PathClaims,
  warnings: string[],
): PlacedPosts {
  const { ids, files } = found;
  const byAge = Uint32Array.from(ids.keys()).sort(
    (a, b) => (ids[a] as number) - (ids[b] as number) || a - b,
  );
  const contested = contestedFiles(files);
  const amongPosts = new PathClaims(claims);
  const refused = new Uint8Array(ids.length);
  for (const index of byAge) {
    const file = files.get(index);
    const conflict =
      contested[index] === 1 ? amongPosts.claim(file, `post ${ids[index]}`) : claims.conflict(file);
    if (conflict === undefined) continue;
    refused[index] = 1;
    warnings.push(
      `post ${ids[index]} left out: its path ${sitePathAt(source, found, index)} is ${conflict}.`,
    );
  }
  const kept = Array.from(ids, (_, index) => index).filter((index) => refused[index] === 0);
  let newest: { modified: string; index: number } | undefined;
  for (let at = 0; at < kept.length; at++) {
    const modified = found.modified.get(kept[at] as number);
    if (newest === undefined || modified > newest.modified) newest = { modified, index: at };
  }
  return new PlacedPosts(
    source,
    {
      places: Uint32Array.from(kept, (index) => found.places[index] as number),
      ids: Float64Array.from(kept, (index) => ids[index] as number),
      sticky: Uint8Array.from(kept, (index) => found.sticky[index] as number),
      files: files.picked(kept),
    },
    newest,
    WINDOW,
    found.held,
  );
}

/** A candidate's site path, read again unless held (only a refused post's warning needs it). */
function sitePathAt(source: PostSource, found: PostCandidates, index: number): string {
  const place = found.places[index] as number;
  const entry = found.held !== undefined ? found.held[place] : source.readAt([place])[0];
  if (entry === undefined || entry.id !== found.ids[index])
    throw new Error(`Internal error: post ${found.ids[index]} is not read again alike.`);
  return pagePathOf(entry).sitePath;
}
