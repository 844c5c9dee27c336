/**
 * The pull of one language. Before the cache is opened, `prepareLanguage` reads the index
 * (routes, limits, site summary) and checks the credentials and what the user may read; then
 * `pullLanguage` runs one stream per collection, concurrently (the client's queue bounds the
 * requests): crawl + deletions, then revisions (backup) and assets for what changed.
 */
import { BodyError, HttpError, SiteError } from '../errors.js';
import {
  checkNeeds,
  parseSiteIndex,
  type CmsClient,
  type RouteNeed,
  type SiteIndex,
} from '../client/index.js';
import type { Store } from '../store/index.js';
import {
  collectionOf,
  collectionRoute,
  isParentType,
  ITEM_TYPES,
  PARENT_TYPES,
  type ItemType,
} from '../collections.js';
import { checkAccess } from './access-check.js';
import { syncAssets } from './assets-sync.js';
import { CollectionSync } from './collection-sync.js';
import type { PullMode } from './collections.js';
import type { MediaFetcher } from './media-fetcher.js';
import type { PullCounters, PullEvent } from './pull-summary.js';
import { syncRevisions } from './revisions-sync.js';
import { settleAll, settleInOrder } from './settle-all.js';
import {
  fetchSeoConfiguration,
  indexSummary,
  representationFromItem,
  siteInfoDocument,
  type SeoInfo,
} from './site-info.js';

/**
 * What the checks up front learnt: the index, each collection's total under the pull's filter,
 * and the site's seo configuration (credentialed pulls only).
 */
export interface PreparedLanguage {
  readonly index: SiteIndex;
  readonly body: Record<string, unknown>;
  readonly totals: ReadonlyMap<ItemType, number | undefined>;
  readonly seo: SeoInfo | undefined;
}

/**
 * Reads the index and checks access, writing nothing: a wrong URL, a wrong password or a role
 * that may not read what the pull asks for stops here, before any cache file exists. The
 * index comes first: a URL that is not a cms-json site gets no other request (credentials
 * included). Then the checks (each collection's total, the first one's request checking the
 * credentials) and the seo configuration go out at once: a no-op pull waits for two answers
 * in a row here, not four; a wrong password is reported before a refusal.
 */
export async function prepareLanguage(
  client: CmsClient,
  options: {
    readonly backup: boolean;
    readonly credentialNames: { readonly user: string; readonly password: string };
  },
): Promise<PreparedLanguage> {
  const needs: RouteNeed[] = ITEM_TYPES.map(collectionRoute);
  if (options.backup) {
    for (const type of PARENT_TYPES) {
      needs.push(`${collectionRoute(type)}/1/revisions`, `${collectionRoute(type)}/1/autosaves`);
    }
  }
  const { index, body } = await readSiteIndex(client, needs);
  const [totals, seo] = await settleInOrder([
    // Deployed servers answer public routes to a wrong password as if anonymous: without this
    // check a pull with a mistyped password would quietly mirror only published content.
    checkAccess(client, { names: options.credentialNames, backup: options.backup }),
    client.hasCredentials ? fetchSeoConfiguration(client) : Promise.resolve(undefined),
  ] as const);
  return { index, body, totals, seo };
}

export interface LanguagePullDeps {
  readonly prepared: PreparedLanguage;
  readonly client: CmsClient;
  readonly store: Store;
  readonly lang: string;
  readonly backup: boolean;
  /** `runs.id` of this pull when it keeps the item history (backup mode). @default undefined */
  readonly historyRun?: number | undefined;
  readonly media: MediaFetcher;
  readonly counters: PullCounters;
  readonly emit: (event: PullEvent) => void;
  readonly signal?: AbortSignal | undefined;
  /** Every Nth pull lists each collection in full (0: never). */
  readonly fullSweepEvery: number;
}

export async function pullLanguage(deps: LanguagePullDeps): Promise<void> {
  const { client, store, lang } = deps;
  const { index, body, totals, seo } = deps.prepared;
  const mode: PullMode = client.hasCredentials ? 'edit' : 'view';
  const summary = indexSummary(body);
  store.siteInfo.set(lang, siteInfoDocument(lang, summary, seo, store.siteInfo.get(lang)?.data));

  let schemaNode: Record<string, unknown> | undefined;
  const pickSchemaNode = (items: readonly Record<string, unknown>[]): void => {
    if (schemaNode !== undefined) return;
    for (const item of items) {
      schemaNode = representationFromItem(item);
      if (schemaNode !== undefined) return;
    }
  };

  const stream = async (type: ItemType): Promise<void> => {
    await new CollectionSync({
      client,
      store,
      lang,
      type,
      mode,
      perPage: index.perPageMax(collectionRoute(type)),
      backup: deps.backup,
      historyRun: deps.historyRun,
      counters: deps.counters,
      emit: deps.emit,
      signal: deps.signal,
      checkedTotal: totals.get(type),
      fullSweepEvery: deps.fullSweepEvery,
      onItems: seo === undefined && carriesSeoHead(type) ? pickSchemaNode : undefined,
    }).run();
    if (deps.backup && isParentType(type)) {
      await syncRevisions({
        client,
        store,
        lang,
        type,
        perPage: index.perPageMax(`${collectionRoute(type)}/1/revisions`),
        counters: deps.counters,
        emit: deps.emit,
        signal: deps.signal,
      });
    }
    await syncAssets({
      client,
      store,
      lang,
      type,
      media: deps.media,
      counters: deps.counters,
      emit: deps.emit,
      signal: deps.signal,
    });
    deps.emit({
      type: 'progress',
      lang,
      collection: type,
      phase: 'done',
      done: 0,
      total: undefined,
    });
  };
  await settleAll(ITEM_TYPES.map(stream));

  if (seo === undefined && schemaNode !== undefined) {
    store.siteInfo.set(
      lang,
      siteInfoDocument(
        lang,
        summary,
        { source: 'schema', schema_node: schemaNode },
        store.siteInfo.get(lang)?.data,
      ),
    );
  }
}

/** Built items carry the site's SEO head, where the site representation may be found. */
function carriesSeoHead(type: ItemType): boolean {
  return collectionOf(type).build !== 'none';
}

/**
 * Reads the index once: the SiteIndex (routes, limits) and the raw body (the summary stored
 * in `site_info`). Errors as `discoverSite` gives them.
 */
async function readSiteIndex(
  client: CmsClient,
  needs: readonly RouteNeed[],
): Promise<{ index: SiteIndex; body: Record<string, unknown> }> {
  const url = client.apiRoot;
  let data: unknown;
  try {
    data = (await client.get<unknown>('')).data;
  } catch (error) {
    if (error instanceof HttpError) {
      throw new SiteError(url, `${url} is not a cms-json site: it answered ${error.status}`, {
        cause: error,
      });
    }
    if (error instanceof BodyError) {
      throw new SiteError(url, `${url} is not a cms-json site: ${error.detail}`, { cause: error });
    }
    throw error;
  }
  const index = parseSiteIndex(url, data);
  checkNeeds(index, needs);
  return { index, body: data as Record<string, unknown> };
}
