import type { ContentType } from '../collections.js';
import { postBody, type RemapContext } from './remap.js';

/**
 * The second pass of a migration. An item's content is rewritten when it is created, and a
 * link to an item created later (a page linking to a post, a post to a newer post) can then
 * only be moved by prefix: right while the target keeps the source's paths, wrong when it
 * gave the item another one (a slug taken on the target becomes `slug-2`, another date,
 * another parent). Once every id and link is known, each created item's content and excerpt
 * are rewritten again; those that come out different are updated. Pure.
 */

/** An item created by this run, with what its create sent. */
export interface CreatedItem {
  readonly type: ContentType;
  readonly sourceId: number;
  readonly targetId: number;
  /** Pages: the parent's source id (0 = top level). */
  readonly parentSourceId: number;
  readonly json: Readonly<Record<string, unknown>>;
  /** The body of the create. */
  readonly sent: Readonly<Record<string, unknown>>;
}

export interface RelinkUpdate {
  readonly type: ContentType;
  readonly sourceId: number;
  readonly targetId: number;
  /** Only the fields whose rewrite changed: `content` and/or `excerpt`. */
  readonly body: Record<string, unknown>;
}

const RELINKED_FIELDS = ['content', 'excerpt'] as const;

/** The run's warning lines for URLs left as they were (at most `limit` named). */
export function unmatchedWarnings(unmatched: ReadonlySet<string>, limit = 20): string[] {
  const urls = [...unmatched].sort();
  const lines = urls
    .slice(0, limit)
    .map((url) => `${url} matches no migrated item or file; left as it is`);
  if (urls.length > limit) lines.push(`… and ${urls.length - limit} more such source URLs`);
  return lines;
}

/**
 * `unmatched` receives the source URLs (under the source home or uploads) that still match
 * nothing migrated once every id is known: they stay as they are, and the run says so.
 */
export function relinkUpdates(
  created: readonly CreatedItem[],
  context: RemapContext,
  unmatched?: Set<string>,
): RelinkUpdate[] {
  const updates: RelinkUpdate[] = [];
  const final: RemapContext = unmatched === undefined ? context : { ...context, unmatched };
  for (const item of created) {
    const { body: now } = postBody(item.type, item.json, item.parentSourceId, final);
    const body: Record<string, unknown> = {};
    for (const field of RELINKED_FIELDS) {
      if (now[field] !== undefined && now[field] !== item.sent[field]) body[field] = now[field];
    }
    if (Object.keys(body).length > 0) {
      updates.push({ type: item.type, sourceId: item.sourceId, targetId: item.targetId, body });
    }
  }
  return updates;
}
