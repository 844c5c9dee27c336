import type { CmsClient } from '../client/index.js';
import { BodyError, HttpError, NetworkError, UnsafeUrlError } from '../errors.js';
import type { Store } from '../store/index.js';
import type { PullCounters } from './pull-summary.js';

export interface MediaFetcherOptions {
  /** Origins besides each site's own that files may come from. @default [] */
  readonly allowedOrigins?: readonly string[];
  /** Largest file accepted, in bytes. @default the client's maxBodyBytes */
  readonly maxBytes?: number;
}

/** What happened to one URL. `failed` work stays queued for the next pull. */
export type FetchOutcome = 'stored' | 'present' | 'refused' | 'gone' | 'failed';

export interface FetchRequest {
  readonly url: string;
  readonly lang: string;
  /** The attachment the file belongs to, when known. */
  readonly mediaId?: number;
  /** Size the site declares (`media_details.filesize`); a different download is reported. */
  readonly expectedBytes?: number;
}

/**
 * Downloads media files into the cache, content-addressed: each URL once (URLs already in
 * `media_files` are skipped, concurrent requests for one URL share one download), the bytes
 * stored under their sha256 (recomputed by the store: what is stored is what its key says),
 * only from allowed origins. A refused origin is counted, never fatal.
 */
export class MediaFetcher {
  readonly #store: Store;
  readonly #options: MediaFetcherOptions;
  /** One download per URL at a time, shared by every stream of the pull. */
  readonly #inFlight = new Map<string, Promise<FetchOutcome>>();

  constructor(store: Store, options: MediaFetcherOptions = {}) {
    this.#store = store;
    this.#options = options;
  }

  /**
   * Fetches `request.url` with `client` (the language's client: credentials only ever go to
   * the site's own origin) and counts into `counters`. `warn` receives one line per problem.
   */
  fetch(
    client: CmsClient,
    request: FetchRequest,
    counters: PullCounters,
    warn: (message: string) => void,
  ): Promise<FetchOutcome> {
    if (this.#store.media.getFile(request.url) !== undefined) return Promise.resolve('present');
    const running = this.#inFlight.get(request.url);
    if (running !== undefined) return running;
    const promise = this.#download(client, request, counters, warn).finally(() =>
      this.#inFlight.delete(request.url),
    );
    this.#inFlight.set(request.url, promise);
    return promise;
  }

  async #download(
    client: CmsClient,
    request: FetchRequest,
    counters: PullCounters,
    warn: (message: string) => void,
  ): Promise<FetchOutcome> {
    const siteOrigin = new URL(client.options.site).origin;
    let download;
    try {
      download = await client.download(request.url, {
        allowedOrigins: [siteOrigin, ...(this.#options.allowedOrigins ?? [])],
        ...(this.#options.maxBytes === undefined ? {} : { maxBytes: this.#options.maxBytes }),
      });
    } catch (error) {
      if (error instanceof UnsafeUrlError) {
        counters.media_refused += 1;
        return 'refused';
      }
      if (error instanceof HttpError && (error.status === 404 || error.status === 410)) {
        // The file is gone from the site: nothing a later pull could fetch either.
        counters.errors += 1;
        warn(`media file missing on the site: ${error.message}`);
        return 'gone';
      }
      if (
        error instanceof HttpError ||
        error instanceof NetworkError ||
        error instanceof BodyError
      ) {
        counters.errors += 1;
        warn(`media file not fetched (the next pull retries): ${error.message}`);
        return 'failed';
      }
      throw error;
    }
    if (request.expectedBytes !== undefined && download.bytes !== request.expectedBytes) {
      // Sites keep `filesize` from the upload; an edited image may differ. The transfer itself
      // was checked against Content-Length, so this is worth a line, not a refusal.
      warn(
        `media file ${download.url} has ${download.bytes} bytes where the site declares ${request.expectedBytes}`,
      );
    }
    const store = this.#store;
    store.transaction(() => {
      store.media.putBlob(download.data, download.sha256);
      store.media.setFile({
        url: request.url,
        sha256: download.sha256,
        mimeType: download.contentType ?? null,
        etag: download.etag ?? null,
        lang: request.lang,
        mediaId: request.mediaId ?? null,
      });
    });
    counters.media_files += 1;
    counters.media_bytes += download.bytes;
    return 'stored';
  }
}
