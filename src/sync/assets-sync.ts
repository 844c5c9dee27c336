/**
 * What the offline build needs from the site, fetched after each crawl for the items it
 * stored new or changed (queued with the item): media files shown or linked in public posts
 * and pages, every file of a media item (so featured images work), and oEmbed answers for
 * standalone URLs. Work that fails stays queued; the next pull finishes it.
 */
import type { CmsClient } from '../client/index.js';
import { collectionOf } from '../collections.js';
import { HttpError } from '../errors.js';
import type { ItemType, Store } from '../store/index.js';
import type { EmbedCache, OEmbedResponse } from '../transform/index.js';
import {
  declaredFileSize,
  isPublicItem,
  mayHaveEmbeds,
  mediaItemUrls,
  onSiteScheme,
  renderedContent,
} from './content-media.js';
import type { MediaFetcher } from './media-fetcher.js';
import type { PullCounters, PullEvent } from './pull-summary.js';
import { drainQueueReporting } from './queue-drain.js';

export interface AssetsSyncDeps {
  readonly client: CmsClient;
  readonly store: Store;
  readonly lang: string;
  readonly type: ItemType;
  readonly media: MediaFetcher;
  readonly counters: PullCounters;
  readonly emit: (event: PullEvent) => void;
  readonly signal?: AbortSignal | undefined;
  /** `maxwidth` asked of oEmbed routes; part of the cache key the transform reads. @default 600 */
  readonly maxwidth?: number;
}

/** Drains the `assets` queue of one language × collection. */
export async function syncAssets(deps: AssetsSyncDeps): Promise<void> {
  const { store, lang, type } = deps;
  await drainQueueReporting(
    deps,
    'assets',
    async (ids) => {
      const finished = await fetchChunk(deps, ids);
      store.syncQueue.remove(lang, 'assets', type, finished);
    },
    50,
  );
}

interface ItemWork {
  readonly id: number;
  readonly files: { url: string; expectedBytes?: number }[];
  readonly embeds: string[];
}

/**
 * The HTML tools a chunk needs (unified, parse5, the transform's embed detection): loaded on
 * the first chunk, so a pull that stored nothing new never loads them (a no-op `run`).
 */
async function htmlTools() {
  const [{ contentMediaUrls }, { findEmbedUrls }, { resolveEmbeds }] = await Promise.all([
    import('./content-media-urls.js'),
    import('../transform/html.js'),
    import('../transform/index.js'),
  ]);
  return { contentMediaUrls, findEmbedUrls, resolveEmbeds };
}
type HtmlTools = Awaited<ReturnType<typeof htmlTools>>;

/** Returns the ids whose work is complete. */
async function fetchChunk(deps: AssetsSyncDeps, ids: readonly number[]): Promise<number[]> {
  const { client, store, lang, type, counters } = deps;
  const tools = await htmlTools();
  const warn = (message: string): void => deps.emit({ type: 'warning', lang, message });
  const work: ItemWork[] = [];
  for (const id of ids) {
    const stored = store.items.get(lang, type, id);
    if (stored === undefined || stored.deletedAt !== null) {
      work.push({ id, files: [], embeds: [] });
      continue;
    }
    const item = JSON.parse(stored.json) as Record<string, unknown>;
    work.push(describeWork(id, type, item, stored.link ?? undefined, client, tools));
  }

  const failed = new Set<number>();
  await Promise.all(
    work.flatMap((entry) =>
      entry.files.map(async (file) => {
        const outcome = await deps.media.fetch(
          client,
          {
            url: file.url,
            lang,
            ...(collectionOf(type).file ? { mediaId: entry.id } : {}),
            ...(file.expectedBytes === undefined ? {} : { expectedBytes: file.expectedBytes }),
          },
          counters,
          warn,
        );
        if (outcome === 'failed') failed.add(entry.id);
      }),
    ),
  );

  const embedUrls = work.flatMap((entry) => entry.embeds);
  if (embedUrls.length > 0) {
    const failedUrls = new Set<string>();
    await tools.resolveEmbeds(
      embedUrls,
      {
        fetchOEmbed: async (url, maxwidth) => {
          const answer = await fetchOEmbed(client, url, maxwidth);
          counters.embeds += 1;
          return answer;
        },
        cache: oembedCache(store),
        onError: (url, error) => {
          failedUrls.add(url);
          counters.errors += 1;
          warn(
            `oEmbed for ${url} not fetched (the next pull retries): ${error instanceof Error ? error.message : String(error)}`,
          );
        },
      },
      { maxwidth: deps.maxwidth ?? 600 },
    );
    for (const entry of work) {
      if (entry.embeds.some((url) => failedUrls.has(url))) failed.add(entry.id);
    }
  }
  return ids.filter((id) => !failed.has(id));
}

function describeWork(
  id: number,
  type: ItemType,
  item: Record<string, unknown>,
  link: string | undefined,
  client: CmsClient,
  { contentMediaUrls, findEmbedUrls }: HtmlTools,
): ItemWork {
  const site = client.options.site;
  if (collectionOf(type).file) {
    const urls = [...new Set(mediaItemUrls(item).map((url) => onSiteScheme(url, site)))];
    const size = declaredFileSize(item);
    return {
      id,
      files: urls.map((url, index) =>
        index === 0 && size !== undefined ? { url, expectedBytes: size } : { url },
      ),
      embeds: [],
    };
  }
  if (!isPublicItem(item)) return { id, files: [], embeds: [] };
  const html = renderedContent(item);
  const siteOrigin = new URL(site).origin;
  const embeds = mayHaveEmbeds(html)
    ? findEmbedUrls(html).filter(
        // The proxy for other sites' URLs needs credentials; without them the build shows a
        // link card, so asking would only cache a refusal.
        (url) => client.hasCredentials || new URL(url).origin === siteOrigin,
      )
    : [];
  return {
    id,
    files: [...new Set(contentMediaUrls(html, link).map((url) => onSiteScheme(url, site)))].map(
      (url) => ({ url }),
    ),
    embeds,
  };
}

/**
 * The site's own URLs go to `oembed/1.0/embed`, others to `oembed/1.0/proxy` (credentials
 * needed). A URL the site cannot embed (404 `oembed_invalid_url`, or a refused parameter) is
 * `null`: cached as unresolved, the build shows a link card.
 */
async function fetchOEmbed(
  client: CmsClient,
  url: string,
  maxwidth: number,
): Promise<OEmbedResponse | null> {
  const own = new URL(url).origin === new URL(client.options.site).origin;
  try {
    const response = await client.get<OEmbedResponse>(
      own ? 'oembed/1.0/embed' : 'oembed/1.0/proxy',
      { url, maxwidth },
    );
    return response.data;
  } catch (error) {
    if (error instanceof HttpError && (error.status === 404 || error.status === 400)) return null;
    throw error;
  }
}

/** The store's `oembed` table as the resolver's cache (`null` expiry = never expires). */
function oembedCache(store: Store): EmbedCache {
  return {
    get(url, maxwidth) {
      const entry = store.oembed.get(url, maxwidth);
      if (entry === undefined) return undefined;
      return {
        response: entry.response as OEmbedResponse | null,
        expiresAt: entry.expiresAt ?? Number.MAX_SAFE_INTEGER,
      };
    },
    put(url, maxwidth, response, ttlSeconds) {
      store.oembed.put(url, maxwidth, response, ttlSeconds);
    },
  };
}
