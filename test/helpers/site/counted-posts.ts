/**
 * A streamed site model whose post source counts how often each post's place is read, so a
 * test can tell a plan that reads each post once from one that reads them again.
 */
import type { SiteModel } from '../../../src/site/site-model.js';

export function countedPostReads(model: SiteModel): {
  model: SiteModel;
  reads: Map<number, number>;
} {
  const source = model.postSource;
  if (source === undefined) throw new Error('countedPostReads: the model does not stream posts');
  const reads = new Map<number, number>();
  const count = (places: Iterable<number>): void => {
    for (const place of places) reads.set(place, (reads.get(place) ?? 0) + 1);
  };
  const postSource = {
    ...source,
    read: (start: number, end: number) => {
      count(Array.from({ length: end - start }, (_, at) => start + at));
      return source.read(start, end);
    },
    readAt: (places: ArrayLike<number>) => {
      count(Array.from(places));
      return source.readAt(places);
    },
  };
  return { model: { ...model, postSource }, reads };
}
