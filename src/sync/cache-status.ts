/**
 * `status`: what the cache holds per language × collection, the crawl state (watermark, an
 * unfinished crawl, pending work) and the last pulls. Reads the cache only.
 */
import type { ItemType, Run, Store, SyncTask } from '../store/index.js';
import { ITEM_TYPES, KNOWN_STATUSES } from '../collections.js';

export interface CollectionStatus {
  readonly lang: string;
  readonly collection: ItemType;
  /** Items mirrored and still on the site. */
  readonly live: number;
  /** Tombstones: items that left the site (kept for the backup). */
  readonly deleted: number;
  /** Live items per status (only non-zero ones; `other` for unusual statuses). */
  readonly statuses: Readonly<Record<string, number>>;
  /** Latest `modified_gmt` fully mirrored; null before the first complete crawl. */
  readonly watermark: string | null;
  /** True when a crawl was interrupted; the next pull resumes it. */
  readonly interrupted: boolean;
  /** `context` of the last crawl (`edit` with credentials). */
  readonly context: string | null;
  /** Remote and local counts of the last deletion check. */
  readonly remoteTotal: number | null;
  readonly localTotal: number | null;
  readonly updatedAt: string | null;
  /** Work left for the next pull. */
  readonly pending: {
    readonly revisions: number;
    readonly assets: number;
    /** Moved pages whose children still need their new links. */
    readonly children: number;
  };
}

export interface CacheStatus {
  readonly file: string;
  readonly languages: readonly string[];
  readonly collections: readonly CollectionStatus[];
  /** Revisions and autosaves per language. */
  readonly revisions: Readonly<Record<string, { revisions: number; autosaves: number }>>;
  readonly media: { readonly files: number; readonly blobs: number; readonly bytes: number };
  /** The latest pull runs, newest first. */
  readonly runs: readonly Run[];
}

export function status(store: Store, options: { readonly runs?: number } = {}): CacheStatus {
  const states = store.syncState.list();
  const languages = [
    ...new Set([...store.items.langs(), ...states.map((state) => state.lang)]),
  ].sort();
  const queue = store.syncQueue.counts();
  const collections: CollectionStatus[] = [];
  const revisions: Record<string, { revisions: number; autosaves: number }> = {};
  let files = 0;
  for (const lang of languages) {
    revisions[lang] = {
      revisions: store.revisions.count(lang),
      autosaves: store.autosaves.count(lang),
    };
    files += store.media.listFiles({ lang }).length;
    for (const collection of ITEM_TYPES) {
      const state = states.find((s) => s.lang === lang && s.collection === collection);
      const live = store.items.count(lang, collection);
      const all = store.items.count(lang, collection, { includeDeleted: true });
      const statuses: Record<string, number> = {};
      let known = 0;
      for (const name of KNOWN_STATUSES) {
        const n = store.items.count(lang, collection, { statuses: [name] });
        if (n > 0) statuses[name] = n;
        known += n;
      }
      if (live > known) statuses['other'] = live - known;
      const pending = (task: SyncTask): number =>
        queue.find((q) => q.lang === lang && q.task === task && q.type === collection)?.count ?? 0;
      if (state === undefined && all === 0) continue;
      collections.push({
        lang,
        collection,
        live,
        deleted: all - live,
        statuses,
        watermark: state?.watermarkGmt ?? null,
        interrupted: state?.cursor !== null && state?.cursor !== undefined,
        context: state?.context ?? null,
        remoteTotal: state?.remoteTotal ?? null,
        localTotal: state?.localTotal ?? null,
        updatedAt: state?.updatedAt ?? null,
        pending: {
          revisions: pending('revisions'),
          assets: pending('assets'),
          children: pending('children'),
        },
      });
    }
  }
  const blobs = store.media.blobStats();
  return {
    file: store.file,
    languages,
    collections,
    revisions,
    media: { files, blobs: blobs.count, bytes: blobs.bytes },
    runs: store.runs.list({ command: 'pull', limit: options.runs ?? 5 }),
  };
}
