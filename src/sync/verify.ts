/**
 * `verify`: compares the cache with the site, item by item: which ids the site lists that the
 * cache lacks (`missing`), which live cache items the site no longer lists (`extra`), and
 * which differ in `modified_gmt` (`stale`). Uses the same context and status filter as the
 * pull with the same credentials, so a clean pull verifies clean. It always lists every id
 * and never trusts counts (a site may count items this reader cannot list, and a deletion can
 * hide behind such an item). Costs one request per `per_page` items (a full listing); a site
 * edited meanwhile shows those edits as differences.
 */
import { clientOptionsFor } from '../client/settings-options.js';
import { CmsClient, discoverSite } from '../client/index.js';
import { requireSite, type Settings } from '../config/settings.js';
import { openStore, type ItemType, type Store } from '../store/index.js';
import { checkAccess } from './access-check.js';
import { collectionRoute, ITEM_TYPES } from '../collections.js';
import { collectionFilter, type PullMode } from './collections.js';
import { unstorableReason } from './record-check.js';
import { settleAll } from './settle-all.js';

export interface VerifyDifference {
  readonly lang: string;
  readonly collection: ItemType;
  readonly id: number;
  /** `skipped`: listed by the site, but a record the pull skips (too deep to store). */
  readonly kind: 'missing' | 'extra' | 'stale' | 'skipped';
  /** `modified_gmt` on the site (missing, stale). */
  readonly remote?: string | undefined;
  /** `modified_gmt` in the cache (extra, stale). */
  readonly local?: string | undefined;
}

export interface VerifyCollection {
  readonly lang: string;
  readonly collection: ItemType;
  readonly remote: number;
  readonly local: number;
  readonly missing: number;
  readonly extra: number;
  readonly stale: number;
  /** Records the pull skips on every run (not differences: `ok` ignores them). */
  readonly skipped: number;
}

export interface VerifyReport {
  /** True when the cache equals the site for every language × collection. */
  readonly ok: boolean;
  readonly mode: PullMode;
  readonly collections: readonly VerifyCollection[];
  /** The differences, at most `limit` of them (the per-collection counts are complete). */
  readonly differences: readonly VerifyDifference[];
  readonly requests: number;
}

export interface VerifyOptions {
  /** Most differences listed in the report. @default 1000 */
  readonly limit?: number;
}

export async function verify(
  settings: Settings,
  options: VerifyOptions = {},
): Promise<VerifyReport> {
  const { site, languages } = requireSite(settings);
  const limit = options.limit ?? 1000;
  const store = openStore(settings.cache, { readonly: true });
  const mode: PullMode = settings.credentials === undefined ? 'view' : 'edit';
  const collections: VerifyCollection[] = [];
  const differences: VerifyDifference[] = [];
  let requests = 0;
  try {
    await settleAll(
      languages.map(async (lang) => {
        const client = new CmsClient(clientOptionsFor(settings, site, lang));
        try {
          const index = await discoverSite(client, ITEM_TYPES.map(collectionRoute));
          await checkAccess(client, { names: settings.credentialNames, backup: false });
          for (const type of ITEM_TYPES) {
            const remote = await listRemote(
              client,
              type,
              mode,
              index.perPageMax(collectionRoute(type)),
            );
            const result = compare(store, lang, type, remote.listed, remote.skipped);
            collections.push(result.summary);
            for (const difference of result.differences) {
              if (differences.length < limit) differences.push(difference);
            }
          }
        } finally {
          await client.close();
          requests += client.stats.requests;
        }
      }),
    );
  } finally {
    store.close();
  }
  collections.sort((a, b) =>
    a.lang === b.lang
      ? ITEM_TYPES.indexOf(a.collection) - ITEM_TYPES.indexOf(b.collection)
      : a.lang < b.lang
        ? -1
        : 1,
  );
  const ok = collections.every((c) => c.missing + c.extra + c.stale === 0);
  return { ok, mode, collections, differences, requests };
}

/**
 * Every id the site lists under the pull's filter, with its `modified_gmt`, and the ids of the
 * records the pull skips (so that they are reported as skipped, not as missing on every run).
 */
async function listRemote(
  client: CmsClient,
  type: ItemType,
  mode: PullMode,
  perPage: number,
): Promise<{ listed: Map<number, string | undefined>; skipped: Set<number> }> {
  const remote = new Map<number, string | undefined>();
  const skipped = new Set<number>();
  for await (const page of client.paginate<unknown>(collectionRoute(type), {
    ...collectionFilter(type, mode),
    orderby: 'id',
    order: 'asc',
    per_page: perPage,
  })) {
    for (const record of page.items) {
      const id = (record as { id?: unknown } | null)?.id;
      const modified = (record as { modified_gmt?: unknown } | null)?.modified_gmt;
      if (typeof id !== 'number') continue;
      if (unstorableReason(record) !== undefined) skipped.add(id);
      else remote.set(id, typeof modified === 'string' ? modified : undefined);
    }
  }
  return { listed: remote, skipped };
}

/** Compares the remote listing with the cache's live items (reads the cache only). */
export function compare(
  store: Store,
  lang: string,
  type: ItemType,
  remote: ReadonlyMap<number, string | undefined>,
  skipped: ReadonlySet<number> = new Set(),
): { summary: VerifyCollection; differences: VerifyDifference[] } {
  const differences: VerifyDifference[] = [];
  const local = store.items.listIds(lang, type);
  const localIds = new Set<number>();
  for (const id of skipped) differences.push({ lang, collection: type, id, kind: 'skipped' });
  for (const row of local) {
    localIds.add(row.id);
    // A skipped record keeps the version an earlier pull stored: not extra, not stale.
    if (skipped.has(row.id)) continue;
    if (!remote.has(row.id)) {
      differences.push({
        lang,
        collection: type,
        id: row.id,
        kind: 'extra',
        local: row.modifiedGmt ?? undefined,
      });
    } else if (remote.get(row.id) !== (row.modifiedGmt ?? undefined)) {
      differences.push({
        lang,
        collection: type,
        id: row.id,
        kind: 'stale',
        remote: remote.get(row.id),
        local: row.modifiedGmt ?? undefined,
      });
    }
  }
  for (const [id, modified] of remote) {
    if (!localIds.has(id))
      differences.push({ lang, collection: type, id, kind: 'missing', remote: modified });
  }
  differences.sort((a, b) => a.id - b.id);
  const count = (kind: VerifyDifference['kind']): number =>
    differences.filter((d) => d.kind === kind).length;
  return {
    summary: {
      lang,
      collection: type,
      remote: remote.size + skipped.size,
      local: local.length,
      missing: count('missing'),
      extra: count('extra'),
      stale: count('stale'),
      skipped: count('skipped'),
    },
    differences,
  };
}
