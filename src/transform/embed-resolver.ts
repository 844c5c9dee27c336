/**
 * Resolves standalone URLs to oEmbed responses through an injected fetcher, with a cache that
 * honours the provider's `cache_age`. I/O lives in the injected functions; this module only
 * decides what to fetch, what to keep and for how long.
 */
import { parseOEmbedResponse, type OEmbedResponse } from './oembed-response.js';

/** A cache entry: the response (`null`: the URL could not be resolved) and when it expires. */
export interface CachedEmbed {
  response: OEmbedResponse | null;
  /** A `Date`, milliseconds since the epoch, or an ISO 8601 string. */
  expiresAt: Date | number | string;
}

/** The oEmbed cache, keyed by URL and `maxwidth` (the store's `oembed` table). */
export interface EmbedCache {
  get(url: string, maxwidth: number): CachedEmbed | undefined;
  put(url: string, maxwidth: number, response: OEmbedResponse | null, ttlSeconds: number): void;
}

export interface EmbedResolverDeps {
  /**
   * Asks the site's oEmbed routes about a URL (`/oembed/1.0/embed` for the site's own URLs,
   * `/oembed/1.0/proxy` with credentials for others). Resolves to the parsed JSON body, or
   * `null` when the site says the URL cannot be embedded (404 `oembed_invalid_url`). Rejects
   * on failures that may pass (network, 5xx): those are not cached, so the next run retries.
   */
  fetchOEmbed(url: string, maxwidth: number): Promise<OEmbedResponse | null>;
  cache: EmbedCache;
  /** @default () => new Date() */
  now?: () => Date;
  /** Told about each URL whose fetch rejected (its result is `null` for this run). */
  onError?: (url: string, error: unknown) => void;
}

export interface EmbedResolverOptions {
  /**
   * Largest embed width asked of providers, in pixels; part of the cache key.
   * @default 600 (the spec's default)
   */
  readonly maxwidth?: number;
  /**
   * Seconds a response without `cache_age` stays cached.
   * @default 86400 (one day)
   */
  readonly defaultTtlSeconds?: number;
  /**
   * Seconds an unresolved URL stays cached before it is asked about again.
   * @default 3600 (one hour)
   */
  readonly unresolvedTtlSeconds?: number;
  /**
   * Upper bound for `cache_age`, so a provider cannot pin an embed for years.
   * @default 2592000 (30 days)
   */
  readonly maxTtlSeconds?: number;
}

export const DEFAULT_MAXWIDTH = 600;
export const DEFAULT_EMBED_TTL_SECONDS = 86_400;
export const UNRESOLVED_EMBED_TTL_SECONDS = 3_600;
export const MAX_EMBED_TTL_SECONDS = 2_592_000;

/**
 * Resolves each distinct URL once: a fresh cache entry is used as it is; otherwise the URL is
 * fetched and the result cached (`cache_age` seconds, capped; the default TTL without one;
 * the shorter unresolved TTL for `null`). Fetches run concurrently; pacing is the fetcher's.
 */
export async function resolveEmbeds(
  urls: Iterable<string>,
  deps: EmbedResolverDeps,
  options: EmbedResolverOptions = {},
): Promise<Map<string, OEmbedResponse | null>> {
  const maxwidth = options.maxwidth ?? DEFAULT_MAXWIDTH;
  const defaultTtl = options.defaultTtlSeconds ?? DEFAULT_EMBED_TTL_SECONDS;
  const unresolvedTtl = options.unresolvedTtlSeconds ?? UNRESOLVED_EMBED_TTL_SECONDS;
  const maxTtl = options.maxTtlSeconds ?? MAX_EMBED_TTL_SECONDS;
  const now = (deps.now ?? (() => new Date()))().getTime();

  const results = new Map<string, OEmbedResponse | null>();
  const pending: Array<Promise<void>> = [];

  for (const url of new Set(urls)) {
    const cached = deps.cache.get(url, maxwidth);
    if (cached !== undefined && expiryTime(cached.expiresAt) > now) {
      results.set(url, cached.response === null ? null : parseOEmbedResponse(cached.response));
      continue;
    }
    results.set(url, null);
    pending.push(
      deps.fetchOEmbed(url, maxwidth).then(
        (body) => {
          const response = parseOEmbedResponse(body);
          results.set(url, response);
          deps.cache.put(
            url,
            maxwidth,
            response,
            ttlFor(response, defaultTtl, unresolvedTtl, maxTtl),
          );
        },
        (error: unknown) => {
          deps.onError?.(url, error);
        },
      ),
    );
  }

  await Promise.all(pending);
  return results;
}

/** Seconds to cache a result for. */
export function ttlFor(
  response: OEmbedResponse | null,
  defaultTtl: number = DEFAULT_EMBED_TTL_SECONDS,
  unresolvedTtl: number = UNRESOLVED_EMBED_TTL_SECONDS,
  maxTtl: number = MAX_EMBED_TTL_SECONDS,
): number {
  if (response === null) return unresolvedTtl;
  if (response.cache_age === undefined) return defaultTtl;
  return Math.min(Math.floor(response.cache_age), maxTtl);
}

function expiryTime(value: Date | number | string): number {
  const time =
    value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value);
  // An unreadable expiry is treated as expired: refetching is always safe.
  return Number.isFinite(time) ? time : -Infinity;
}
