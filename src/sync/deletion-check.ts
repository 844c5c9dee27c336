/**
 * When the pull looks for deletions, as pure rules. A site's `X-CMS-Total` may count items the
 * reader cannot list (media attached to a draft, for an anonymous reader), so the cache and
 * the total can differ forever on a healthy site. What is compared is therefore the total
 * minus the items it counted but did not list at the last full listing (`unlisted`): when
 * that moves, ids are probed. A deletion and a newly unreadable item cancel out in counts, so
 * every Nth pull lists everything again (`fullSweepEvery`), and `verify` always compares ids.
 */

/** @default of `pull.fullSweepEvery`: with a pull every 15 minutes, a full listing every 5 hours. */
export const DEFAULT_FULL_SWEEP_EVERY = 20;

export interface CountFacts {
  /** `X-CMS-Total` under the pull's filter now; undefined when the site sends none. */
  readonly remote: number | undefined;
  /** Live items in the cache. */
  readonly local: number;
  /** Counted but not listed at the last full listing; null when unknown (taken as 0). */
  readonly unlisted: number | null;
}

/**
 * Whether the counts show nothing left or came back. Without a count header nothing can be
 * told from counts: the ids are probed.
 */
export function countsAgree(facts: CountFacts): boolean {
  if (facts.remote === undefined) return false;
  return facts.remote - facts.local === (facts.unlisted ?? 0);
}

/** What a full listing leaves to compare with next time: counted but not listed. */
export function unlistedAfterListing(remote: number | undefined, local: number): number | null {
  return remote === undefined ? null : Math.max(0, remote - local);
}

/**
 * Whether this pull lists the collection in full: the `every`th pull since the last full
 * listing (never with 0; a cache that never recorded one starts counting now).
 */
export function fullSweepDue(pullsSinceListing: number | null, every: number): boolean {
  if (every <= 0) return false;
  return (pullsSinceListing ?? 0) + 1 >= every;
}
