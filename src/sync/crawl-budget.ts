/**
 * The hard bound on the list requests of one collection stream: whatever a server answers
 * (filters ignored or compared loosely, lying totals, pages that repeat), a pull of a
 * collection of N items sends at most 3·⌈N/per_page⌉ + 10 list requests, then stops with a
 * SiteError (exit 2) naming the last URL. Pages stored before that stay stored.
 *
 * N is what the client can know without trusting the server's headers: the larger of the
 * distinct ids of usable records (an id and a `modified_gmt`) the site listed during this pull
 * and the live items the cache held when it started (probing those for deletions costs one
 * request per page of them), never more than `maxItems` (by default `MAX_LIST_ITEMS`, the most
 * any listing is read to): a server that answers every page with items never seen before
 * would otherwise buy three more requests with each page, for ever.
 */
import {
  MAX_LIST_ITEMS,
  redactUrl,
  type CmsClient,
  type CmsResponse,
  type Query,
} from '../client/index.js';
import { SiteError } from '../errors.js';
import { isGmt } from './gmt-time.js';
import { IdSet } from './id-table.js';

/** What the list requests of a stream need from the client. */
export type ListClient = Pick<CmsClient, 'get'> & Partial<Pick<CmsClient, 'url'>>;

/** Requests allowed per page of items: a crawl, a re-read (tie sweep or rescan), a probe. */
export const REQUESTS_PER_PAGE = 3;
/** Requests allowed on top: counts, a short last page, a rescan's first page, ... */
export const EXTRA_REQUESTS = 10;

export class CrawlBudget {
  readonly #perPage: number;
  readonly #cached: number;
  readonly #label: string;
  readonly #maxItems: number;
  readonly #ids = new IdSet();
  #spent = 0;

  /**
   * @param perPage `per_page` of the stream's requests.
   * @param cached live items of this collection in the cache when the pull started.
   * @param label names the collection in the message (`posts in pl`).
   * @param maxItems the most items a collection may have; more is refused.
   */
  constructor(perPage: number, cached: number, label: string, maxItems = MAX_LIST_ITEMS) {
    this.#perPage = Math.max(1, perPage);
    this.#cached = cached;
    this.#label = label;
    this.#maxItems = maxItems;
  }

  /** List requests sent so far. */
  get spent(): number {
    return this.#spent;
  }

  /** The most list requests this stream may send, given what it has seen so far. */
  get limit(): number {
    const items = Math.min(this.#maxItems, Math.max(this.#ids.size, this.#cached));
    return REQUESTS_PER_PAGE * Math.ceil(items / this.#perPage) + EXTRA_REQUESTS;
  }

  /** `client` with every `get` counted against the budget (and its ids noted). */
  wrap(client: ListClient): ListClient {
    return {
      get: async <T>(route: string, query?: Query): Promise<CmsResponse<T>> => {
        this.#take(redactUrl(client.url?.(route, query) ?? route));
        const response = await client.get<T>(route, query);
        this.#note(response.data);
        return response;
      },
    };
  }

  #take(url: string): void {
    if (this.#ids.size > this.#maxItems) {
      throw new SiteError(
        url,
        `${url}: the site listed more than ${this.#maxItems.toLocaleString('en-US')} ${this.#label}, the most a pull mirrors per collection (a server that invents new items on every page looks like this); what was stored is kept`,
      );
    }
    if (this.#spent >= this.limit) {
      throw new SiteError(
        url,
        `${url}: stopped after ${this.#spent} list requests for the ${Math.max(this.#ids.size, this.#cached)} ${this.#label} seen (at most ${REQUESTS_PER_PAGE} per page of ${this.#perPage}, plus ${EXTRA_REQUESTS}): the site's answers do not move the crawl on (it ignores or loosens modified_after, modified_before, orderby or page); what was stored is kept`,
      );
    }
    this.#spent += 1;
  }

  #note(data: unknown): void {
    if (!Array.isArray(data)) return;
    for (const record of data) {
      // Only records the crawl can use count: a page of junk ids must not buy more requests.
      const { id, modified_gmt: modified } = (record ?? {}) as {
        id?: unknown;
        modified_gmt?: unknown;
      };
      if (typeof id === 'number' && Number.isSafeInteger(id) && id > 0 && isGmt(modified)) {
        // One past the cap is enough to refuse: the set never holds an endless list.
        if (this.#ids.size <= this.#maxItems) this.#ids.add(id);
      }
    }
  }
}
