/**
 * The placed posts as the cache records them (`stored-placement.ts`): `POSTS_PER_CHUNK` posts a
 * chunk, each chunk one JSON text of their places in the posts' source, ids, sticky flags and
 * files, made as it is written. The digest of those texts is also the posts' part of the
 * layout digest (`layoutDigestOf`): an edit build placed from the record digests the very
 * texts it read the posts from, instead of walking every post again to digest them (~50 ms of
 * a one-edit run's main thread at 10,000 posts). Pure.
 */
import { PartsDigest } from './digest.js';

/** Posts a chunk holds: a bounded text each, however many posts a site has. */
export const POSTS_PER_CHUNK = 1000;

/** The posts from one index on, as one chunk stores them (JSON). */
export interface PostsChunk {
  places: number[];
  ids: number[];
  sticky: number[];
  files: string[];
}

/** What a chunk is made from: the placed posts' columns (`PlacedPosts`). */
export interface PostsColumns {
  readonly length: number;
  place(index: number): number;
  id(index: number): number;
  sticky(index: number): boolean;
  file(index: number): string;
}

/** The posts' chunks, each made when the walk reaches it. */
export function* postChunks(posts: PostsColumns): Generator<string> {
  for (let start = 0; start < posts.length; start += POSTS_PER_CHUNK) {
    const chunk: PostsChunk = { places: [], ids: [], sticky: [], files: [] };
    for (let index = start; index < Math.min(posts.length, start + POSTS_PER_CHUNK); index++) {
      chunk.places.push(posts.place(index));
      chunk.ids.push(posts.id(index));
      chunk.sticky.push(posts.sticky(index) ? 1 : 0);
      chunk.files.push(posts.file(index));
    }
    yield JSON.stringify(chunk);
  }
}

/**
 * The digest of the posts' chunks, made and let go one at a time: each text a part, so that the
 * texts read back from a record (`stored-placement.ts`) digest as the posts they were made from.
 */
export function postsLayoutDigest(posts: PostsColumns): string {
  const digest = new PartsDigest();
  for (const text of postChunks(posts)) digest.add(text);
  return digest.hex();
}
