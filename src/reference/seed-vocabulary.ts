import { sanitizeSlug } from './render.js';
import { randomInt } from './rng.js';
import type { Rng } from './rng.js';
import type { SeedText } from './seed-text.js';
import type { Term } from './store.js';
import { DAY, MIDNIGHT_POST, RICH_POSTS, SEED_EPOCH } from './seed-plan.js';

/** The seed's terms, the short posts' vocabulary, and the posts' term sets and dates. */
export function seedTerms(text: SeedText): Term[] {
  const parents = [0, 0, 2, 0, 4, 0, 3];
  const categories = text.categories.map((name, index) => ({
    id: index + 1,
    taxonomy: 'category' as const,
    name,
    slug: sanitizeSlug(name),
    parent: parents[index] ?? 0,
  }));
  const tags = text.tags.map((name, index) => ({
    id: 10 + index,
    taxonomy: 'post_tag' as const,
    name,
    slug: sanitizeSlug(name),
    parent: 0,
  }));
  return [...categories, ...tags];
}

export interface BulkVocabulary {
  readonly titles: readonly (readonly [string, string])[];
  readonly paragraphs: readonly string[];
}

export function bulkVocabulary(text: SeedText): BulkVocabulary {
  const titles: [string, string][] = [];
  for (const topic of text.topics) {
    for (const word of text.words)
      titles.push([`${topic} ${word}`, sanitizeSlug(`${topic} ${word}`)]);
  }
  const paragraphs = text.sentences.map(
    (sentence) => `<!-- cms:paragraph -->\n<p>${sentence}</p>\n<!-- /cms:paragraph -->`,
  );
  return { titles, paragraphs };
}

export const CATEGORY_SETS: readonly number[][] = [
  [1],
  [2],
  [3],
  [2, 3],
  [4],
  [5],
  [4, 5],
  [6],
  [7],
  [3, 7],
];
export const TAG_SETS: readonly number[][] = [
  [],
  [10],
  [11, 12],
  [13],
  [14, 15, 16],
  [17],
  [18, 19],
  [10, 17],
];

export function postDate(index: number, rng: Rng): number {
  if (index === MIDNIGHT_POST) return Date.UTC(2024, 11, 1, 1, 30, 0) / 1000;
  if (index === 7) return Date.UTC(2045, 5, 1, 12, 0, 0) / 1000;
  if (index < RICH_POSTS) return SEED_EPOCH - index * 3 * DAY - randomInt(rng, 0, 6 * 3600);
  return SEED_EPOCH - RICH_POSTS * 3 * DAY - (index - RICH_POSTS) * 5400 - randomInt(rng, 0, 1800);
}
