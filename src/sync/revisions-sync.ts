/**
 * Backup mode: the revisions and autosaves of every post and page the pull stored new or
 * changed (queued with the item) whose revision count is not 0. Needs credentials (the routes
 * answer 401 otherwise).
 */
import type { CmsClient } from '../client/index.js';
import { BodyError, HttpError, NetworkError } from '../errors.js';
import type { CmsItem, ParentType, Store } from '../store/index.js';
import { unstorableReason } from './record-check.js';
import { collectionRoute } from '../collections.js';
import type { PullCounters, PullEvent } from './pull-summary.js';
import { drainQueueReporting } from './queue-drain.js';
import { versionCount } from './version-count.js';

/**
 * The most revisions read for one post or page. A site that declares more (or, without a
 * total, keeps handing out pages past it) stops the pull with exit 2: revision lists that long
 * are a broken or hostile server, and an endless one must not page for ever.
 */
export const MAX_REVISIONS = 10_000;

export interface RevisionsSyncDeps {
  readonly client: CmsClient;
  readonly store: Store;
  readonly lang: string;
  readonly type: ParentType;
  /** `per_page` of revision lists (the route's maximum). */
  readonly perPage: number;
  readonly counters: PullCounters;
  readonly emit: (event: PullEvent) => void;
  readonly signal?: AbortSignal | undefined;
}

/** Drains the `revisions` queue of one language × collection. */
export async function syncRevisions(deps: RevisionsSyncDeps): Promise<void> {
  const { store, lang, type } = deps;
  await drainQueueReporting(
    deps,
    'revisions',
    async (ids) => {
      await Promise.all(
        ids.map(async (id) => {
          if (await fetchOne(deps, id)) store.syncQueue.remove(lang, 'revisions', type, [id]);
        }),
      );
    },
    24,
  );
}

/** Fetches and stores one parent's autosaves and revisions. False: retry on the next pull. */
async function fetchOne(deps: RevisionsSyncDeps, id: number): Promise<boolean> {
  const { client, store, lang, type, counters } = deps;
  const cached = store.items.get(lang, type, id);
  if (cached === undefined) return true;
  // The item says it has no revisions and no autosave: nothing to ask for. Without the count
  // (a server that does not send it) both lists are read, as before.
  if (versionCount(cached.json) === 0) return true;
  const base = `${collectionRoute(type)}/${id}`;
  let autosaves: CmsItem[];
  const revisions: CmsItem[] = [];
  const bad = (what: string, reason: string): void => {
    counters.skipped += 1;
    deps.emit({
      type: 'warning',
      lang,
      message: `${type} ${id}: skipped a bad ${what} record (${reason})`,
    });
  };
  try {
    autosaves = usable(
      (await client.get<unknown>(`${base}/autosaves`, { context: 'edit' })).data,
      (reason) => bad('autosave', reason),
    );
    for await (const page of client.paginate<unknown>(
      `${base}/revisions`,
      { context: 'edit', per_page: deps.perPage },
      { maxItems: MAX_REVISIONS },
    )) {
      revisions.push(...usable(page.items, (reason) => bad('revision', reason)));
    }
  } catch (error) {
    if (error instanceof HttpError && (error.status === 404 || error.status === 410)) {
      return true; // the parent left the site meanwhile; the deletion probe tombstones it
    }
    if (error instanceof HttpError || error instanceof NetworkError || error instanceof BodyError) {
      counters.errors += 1;
      deps.emit({
        type: 'warning',
        lang,
        message: `revisions of ${type} ${id} not fetched (the next pull retries): ${error.message}`,
      });
      return false;
    }
    throw error;
  }
  // The revisions list of a post may include its autosave: keep it in one table only.
  const autosaveIds = new Set(autosaves.map((autosave) => autosave.id));
  const onlyRevisions = revisions.filter((revision) => !autosaveIds.has(revision.id));
  store.transaction(() => {
    const a = store.autosaves.upsertMany(lang, type, id, autosaves);
    const r = store.revisions.upsertMany(lang, type, id, onlyRevisions);
    counters.revisions += a.created + a.updated + r.created + r.updated;
  });
  return true;
}

/** Records with a positive integer id that can be stored; the rest go to `onBad`. */
function usable(data: unknown, onBad: (reason: string) => void): CmsItem[] {
  if (!Array.isArray(data)) {
    onBad('not a list');
    return [];
  }
  return data.filter((record): record is CmsItem => {
    const id = (record as { id?: unknown } | null)?.id;
    if (!(typeof id === 'number' && Number.isSafeInteger(id) && id > 0)) {
      onBad('no positive integer id');
      return false;
    }
    const unstorable = unstorableReason(record);
    if (unstorable !== undefined) onBad(`id ${id}: ${unstorable}`);
    return unstorable === undefined;
  });
}
