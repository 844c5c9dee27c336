import type { SeedOptions } from './seed.js';

/** What the seed plans before it writes: ids, statuses and dates by item index. */
/**
 * How far apart languages' ids start when languages are separate sites: a rich post takes two
 * ids (itself and a revision), so post i of one language has the id of post i+1 of the
 * previous one: the same id names unrelated items, as on real separate sites.
 */
export const INDEPENDENT_ID_STEP = 2;

/** The instant seeded content is dated relative to (2025-01-15T09:30:00Z). */
export const SEED_EPOCH = Date.UTC(2025, 0, 15, 9, 30, 0) / 1000;
export const RICH_POSTS = 24;
export const DAY = 86_400;

/** Statuses and flags of the rich posts, by index. */
export const RICH_STATUS: Readonly<Record<number, string>> = {
  3: 'draft',
  4: 'pending',
  6: 'private',
  7: 'future',
  8: 'trash',
};
export const PASSWORD_POST = 2;
export const STICKY_POSTS = new Set([0, 10]);
export const FORMATS: Readonly<Record<number, string>> = {
  11: 'video',
  12: 'gallery',
  13: 'aside',
};
/** Post 14 is dated just after midnight GMT on the 1st: its local month differs in pl and es. */
export const MIDNIGHT_POST = 14;
/** Items that exist in one language only (by language position). */
export const ONLY_FIRST_LANGUAGE = { post: 5, page: 6 };
export const ONLY_SECOND_LANGUAGE = { post: 9 };

export const PAGE_PARENTS: readonly number[] = [-1, -1, -1, 2, 2, -1, 4, -1];
export const IMAGE_BOXES: readonly (readonly [number, number])[] = [
  [640, 400],
  [600, 600],
  [720, 480],
  [480, 640],
];

export interface PlannedItem {
  readonly id: number;
  readonly revisionIds: readonly number[];
  readonly autosaveId: number | undefined;
}

export interface Plan {
  readonly media: readonly number[];
  readonly pages: readonly PlannedItem[];
  /** Ids of posts; rich posts are followed by their revision ids. */
  readonly postIds: Int32Array;
  readonly richPosts: readonly PlannedItem[];
  readonly nextId: number;
}

export function revisionCount(kind: 'post' | 'page', index: number): number {
  if (kind === 'post') return index <= 1 ? 3 : 1;
  return index === 2 ? 2 : 1;
}

export function hasAutosave(kind: 'post' | 'page', index: number): boolean {
  return (kind === 'post' && index === 1) || (kind === 'page' && index === 2);
}

/** One id space shared by every language (translations get the same id), from `first`. */
export function makePlan(options: SeedOptions, first = 1): Plan {
  let next = first;
  const media = Array.from({ length: options.media }, () => next++);
  const planItem = (kind: 'post' | 'page', index: number): PlannedItem => {
    const id = next++;
    const revisionIds = Array.from({ length: revisionCount(kind, index) }, () => next++);
    const autosaveId = hasAutosave(kind, index) ? next++ : undefined;
    return { id, revisionIds, autosaveId };
  };
  const pages = Array.from({ length: options.pages }, (_, index) => planItem('page', index));
  const postIds = new Int32Array(options.posts);
  const richPosts: PlannedItem[] = [];
  for (let index = 0; index < options.posts; index++) {
    if (index < RICH_POSTS) {
      const planned = planItem('post', index);
      richPosts.push(planned);
      postIds[index] = planned.id;
    } else postIds[index] = next++;
  }
  return { media, pages, postIds, richPosts, nextId: next };
}

export function inLanguage(
  kind: 'post' | 'page',
  index: number,
  langIndex: number,
  languageCount: number,
): boolean {
  if (index === ONLY_FIRST_LANGUAGE[kind]) return langIndex === 0 || languageCount === 1;
  if (kind === 'post' && index === ONLY_SECOND_LANGUAGE.post)
    return langIndex === 1 || languageCount === 1;
  return true;
}
